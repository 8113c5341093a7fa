/**
 * The workspace file `dml-lens.json` (or `.dml-lens.json`) in the workspace
 * root: parameter values and declared input sizes, for all scripts and per
 * script.
 *
 *     {
 *       "params": { "X": "data/X.csv", "reg": 0.001 },
 *       "inputs": {
 *         "X": { "rows": 1000000, "cols": 500000, "sparsity": 0.001 },
 *         "$Y": { "rows": 1000000, "cols": 1 },
 *         "data/big.csv": { "rows": 20000000, "cols": 100, "nnz": 150000000 }
 *       },
 *       "scripts": {
 *         "examples/linreg_cg.dml": { "params": { "maxi": 20 }, "inputs": { "X": { "rows": 1000, "cols": 10 } } }
 *       }
 *     }
 *
 * - "params": `$name` values. Strings, numbers and booleans; each is typed by
 *   SystemDS's rule for command-line values (a number keeps its spelling, so
 *   `1.0` is a double and `1` an int; true/false become TRUE/FALSE).
 * - "inputs": sizes of data that is not on this machine, by key: a variable
 *   name (the target of `X = read(...)`), `$name` (a `read($name)`), or a data
 *   path relative to the workspace root (contains `/` or a `.`). Fields:
 *   rows, cols, nnz (integers) and sparsity (a fraction); give nnz or sparsity.
 * - "scripts": the same two sections for one script (path relative to the
 *   workspace root); they win over the top-level ones.
 * Within a section a path key wins over `$name`, which wins over a variable name.
 */
import path from "node:path";
import type { Range, Severity } from "../syntax";
import { type MetadataDiagnostic, metadataDiagnostic } from "./diagnostics";
import type { FileSystem } from "../files";
import { type JsonMember, type JsonValue, jsonTypeName, parseJson } from "./json-with-positions";
import { isParameterName } from "./parameters";
import type { SizeDeclaration } from "./size-annotation-syntax";

export const WORKSPACE_FILE_NAMES: readonly string[] = ["dml-lens.json", ".dml-lens.json"];

export interface WorkspaceInput {
  key: string;
  declaration: SizeDeclaration;
  /** The key's range in the workspace file. */
  range: Range;
}

interface WorkspaceScope {
  params: Map<string, string>;
  inputs: WorkspaceInput[];
}

export interface WorkspaceConfig {
  /** Path of the workspace file. */
  file: string;
  root: string;
  all: WorkspaceScope;
  /** Absolute script path → its own section. */
  scripts: Map<string, WorkspaceScope>;
}

export interface WorkspaceConfigResult {
  /** Undefined when there is no workspace file or it is not valid JSON. */
  config?: WorkspaceConfig;
  diagnostics: MetadataDiagnostic[];
}

/** What a `read` is known by, to look up its declared size. */
export interface InputKey {
  /** The variable the read is assigned to. */
  target?: string | undefined;
  /** The parameter name when the path argument is exactly `$name`. */
  parameter?: string | undefined;
  /** Absolute candidate paths of the data file. */
  paths?: readonly string[] | undefined;
}

/**
 * Reads `dml-lens.json` (else `.dml-lens.json`) from the workspace root, or
 * `file` when given (a size-assumptions file named in the settings; its
 * paths still resolve against the workspace root). A given file that cannot
 * be read is reported at the start of `scriptPath`.
 */
export function loadWorkspaceConfig(fs: FileSystem, workspaceRoot: string, file?: { path: string; scriptPath: string }): WorkspaceConfigResult {
  if (file) {
    const text = fs.readFile(file.path);
    if (text !== undefined) return parseWorkspaceConfig(text, file.path, workspaceRoot);
    const zero = { line: 0, character: 0 };
    return { diagnostics: [metadataDiagnostic(file.scriptPath, "warning", `size-assumptions file '${file.path}' cannot be read; sizes come from the data and annotations only`, { start: zero, end: zero }, "workspace-config")] };
  }
  for (const name of WORKSPACE_FILE_NAMES) {
    const file = path.join(workspaceRoot, name);
    const text = fs.readFile(file);
    if (text !== undefined) return parseWorkspaceConfig(text, file, workspaceRoot);
  }
  return { diagnostics: [] };
}

export function parseWorkspaceConfig(text: string, file: string, workspaceRoot: string): WorkspaceConfigResult {
  const diagnostics: MetadataDiagnostic[] = [];
  const report = (severity: Severity, message: string, range: Range) =>
    diagnostics.push(metadataDiagnostic(file, severity, message, range, "workspace-config"));
  const parsed = parseJson(text);
  for (const leniency of parsed.leniencies) report("warning", leniency.message, leniency.range);
  if (!parsed.ok) {
    report("error", `malformed ${path.basename(file)}: ${parsed.error.message}`, parsed.error.range);
    return { diagnostics };
  }
  if (parsed.value.kind !== "object") {
    report("error", `${path.basename(file)} holds one JSON object, not ${jsonTypeName(parsed.value)}`, parsed.value.range);
    return { diagnostics };
  }
  const config: WorkspaceConfig = { file, root: workspaceRoot, all: emptyScope(), scripts: new Map() };
  for (const member of parsed.value.members) {
    if (member.key === "params" || member.key === "inputs") readSection(member, config.all, report);
    else if (member.key === "scripts") {
      for (const script of objectMembers(member.value, "scripts", report)) {
        const scope = emptyScope();
        for (const section of objectMembers(script.value, script.key, report)) {
          if (section.key === "params" || section.key === "inputs") readSection(section, scope, report);
          else report("warning", `unknown key "${section.key}" in a script's section (expected "params" or "inputs")`, section.keyRange);
        }
        config.scripts.set(path.resolve(workspaceRoot, script.key), scope);
      }
    } else if (member.key !== "$schema") {
      report("warning", `unknown key "${member.key}" (expected "params", "inputs" or "scripts")`, member.keyRange);
    }
  }
  return { config, diagnostics };
}

/** Parameter values for a script: the top-level "params", then the script's own. */
export function workspaceParameters(config: WorkspaceConfig | undefined, scriptPath: string): Map<string, string> {
  const params = new Map<string, string>(config?.all.params ?? []);
  for (const [name, value] of config?.scripts.get(path.resolve(scriptPath))?.params ?? []) params.set(name, value);
  return params;
}

/** The declared size of an input of `scriptPath`, by the precedence above. */
export function workspaceInputFor(config: WorkspaceConfig | undefined, scriptPath: string, key: InputKey): WorkspaceInput | undefined {
  if (!config) return undefined;
  const scopes = [config.scripts.get(path.resolve(scriptPath)), config.all];
  const candidates = new Set((key.paths ?? []).map((p) => path.resolve(p)));
  for (const scope of scopes) {
    if (!scope) continue;
    const byPath = scope.inputs.find((i) => isPathKey(i.key) && candidates.has(path.resolve(config.root, i.key)));
    if (byPath) return byPath;
    const byParameter = key.parameter !== undefined ? scope.inputs.find((i) => i.key === `$${key.parameter}`) : undefined;
    if (byParameter) return byParameter;
    const byTarget = key.target !== undefined ? scope.inputs.find((i) => i.key === key.target) : undefined;
    if (byTarget) return byTarget;
  }
  return undefined;
}

function isPathKey(key: string): boolean {
  return !key.startsWith("$") && /[/\\.]/.test(key);
}

function emptyScope(): WorkspaceScope {
  return { params: new Map(), inputs: [] };
}

type Report = (severity: Severity, message: string, range: Range) => void;

function objectMembers(value: JsonValue, what: string, report: Report): JsonMember[] {
  if (value.kind === "object") return value.members;
  report("error", `"${what}" must be an object, not ${jsonTypeName(value)}`, value.range);
  return [];
}

function readSection(section: JsonMember, scope: WorkspaceScope, report: Report): void {
  for (const entry of objectMembers(section.value, section.key, report)) {
    if (section.key === "params") readParam(entry, scope, report);
    else readInput(entry, scope, report);
  }
}

function readParam(entry: JsonMember, scope: WorkspaceScope, report: Report): void {
  const name = entry.key.replace(/^\$/, "");
  if (!isParameterName(name)) {
    report("error", `"${entry.key}" is not a parameter name (a letter, then letters, digits or _)`, entry.keyRange);
    return;
  }
  const value = entry.value;
  if (value.kind === "string") scope.params.set(name, value.value);
  else if (value.kind === "number") scope.params.set(name, value.text);
  else if (value.kind === "boolean") scope.params.set(name, value.value ? "TRUE" : "FALSE");
  else report("error", `the value of $${name} must be a string, number or boolean, not ${jsonTypeName(value)}`, value.range);
}

function readInput(entry: JsonMember, scope: WorkspaceScope, report: Report): void {
  const fields = objectMembers(entry.value, entry.key, report);
  const declaration: SizeDeclaration = {};
  let ok = entry.value.kind === "object";
  for (const field of fields) {
    const value = field.value;
    if (field.key === "rows" || field.key === "cols" || field.key === "nnz") {
      if (value.kind === "null") continue;
      if (value.kind !== "number" || !Number.isInteger(value.value) || value.value < 0) {
        report("error", `"${field.key}" must be a non-negative integer (or null when unknown), not ${jsonTypeName(value)}`, value.range);
        ok = false;
      } else declaration[field.key] = value.value;
    } else if (field.key === "sparsity") {
      if (value.kind !== "number" || !(value.value >= 0 && value.value <= 1)) {
        report("error", `"sparsity" must be a fraction between 0 and 1, not ${jsonTypeName(value)}`, value.range);
        ok = false;
      } else declaration.sparsity = value.value;
    } else {
      report("warning", `unknown key "${field.key}" in an input (expected rows, cols, nnz or sparsity)`, field.keyRange);
    }
  }
  if (declaration.nnz !== undefined && declaration.sparsity !== undefined) {
    report("error", "give nnz or sparsity, not both", entry.keyRange);
    ok = false;
  }
  const { rows, cols, nnz } = declaration;
  if (ok && nnz !== undefined && rows !== undefined && cols !== undefined && nnz > rows * cols) {
    report("error", `nnz ${nnz} is more than rows x cols = ${rows * cols}`, entry.keyRange);
    ok = false;
  }
  if (ok) scope.inputs.push({ key: entry.key, declaration, range: entry.keyRange });
}
