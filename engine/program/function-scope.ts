/**
 * Which functions a script can call, and what a call resolves to, in
 * SystemDS's order (FunctionCallIdentifier): a user function of the file
 * (definitions anywhere in the file, plus those of files sourced without
 * `as ns`), then a native builtin of the catalog (builtins.ts), then, with a
 * SystemDS installation, the builtin script `scripts/builtin/NAME.dml` it
 * ships (its `m_`/`s_`/`f_` function: builtin-script-scope.ts), then a
 * DML-bodied builtin of the catalog whose body is not at hand. `ns::f`
 * resolves in the file sourced as `ns`; when `f` is not there SystemDS still
 * accepts a DML-bodied builtin of that name.
 *
 * Sourced files are read through an optional `readFile` hook (the caller
 * decides where a path is resolved; `dml check` tries the script's folder,
 * then the working directory). A sourced file that cannot be read is an error
 * at its `source(...)` statement (SystemDS rejects the script), unless the
 * script changes its working directory with `setwd` (then where the file is
 * looked up is not known here) or the path is into SystemDS's bundled script
 * library (`nn/...`, found in its jar); its functions are unknown, never wrong: calls
 * into it are not checked.
 */
import { parse, type Diagnostic, type ExternalFunctionDefinition, type FunctionDefinition, type Program, type SourceStatement } from "../syntax";
import { type BuiltinScripts, builtinScriptsOf } from "./builtin-script-scope";
import type { BuiltinSignature } from "./builtin-types";
import { lookupBuiltin } from "./builtins";
import type { ArgumentDataType } from "./systemds-installation";
import { isBundledScriptPath, type LoadedSource, missingSourceFileMessage, type SourceFiles } from "./source-reader";
import { sourceChainProblems } from "./source-graph";
import { forEachStatement } from "./statement-walk";

export type UserFunction = FunctionDefinition | ExternalFunctionDefinition;

/** Reads a sourced file, given the path as written in `source(...)`; `undefined` when it cannot be read. */
export type SourceReader = ((path: string) => string | undefined) & {
  /** The places a path was looked for, in order (for the message when it is in none). */
  lookedIn?: (path: string) => string[];
  /** The file with its parse, or why it cannot be used (source-reader.ts): each file read and parsed once. */
  load?: (path: string) => LoadedSource;
  /** The files read so far (shared with the size analysis, which then parses each file once too). */
  files?: SourceFiles;
  /** The script the paths are sourced from (absolute). */
  scriptPath?: string;
};

interface SourcedFile {
  path: string;
  statement: SourceStatement;
  /** The file's functions; `undefined` when the file could not be read. */
  functions?: ReadonlyMap<string, UserFunction> | undefined;
}

export interface FunctionScope {
  /** Functions callable by their plain name (first definition of each name). */
  readonly local: ReadonlyMap<string, UserFunction>;
  /** Files sourced `as ns`, by namespace (the first binding of each namespace). */
  readonly namespaces: ReadonlyMap<string, SourcedFile>;
  /** Files sourced without a namespace that could not be read: any plain name may come from them. */
  readonly unreadableDefaults: readonly SourcedFile[];
  /** Problems found while building the scope (a namespace bound to two files, a sourced file that cannot be found). */
  readonly diagnostics: readonly Diagnostic[];
  /** The builtin scripts of the SystemDS installation the reader carries; undefined without one. */
  readonly builtinScripts?: BuiltinScripts;
}

export type Resolution =
  | { kind: "user"; definition: UserFunction; namespace?: string }
  /**
   * A builtin of the catalog. For a DML-bodied one, `body` says why its
   * script is not used: no installation is configured, or it ships none.
   */
  | { kind: "builtin"; signature: BuiltinSignature; body?: "no-installation" | "not-shipped" }
  /**
   * A builtin script's function: `definition` is the one the first
   * argument's type selects; `candidates` every `m_`/`s_`/`f_` function the
   * script has, when that type is unknown.
   */
  | { kind: "builtin-script"; name: string; definition: FunctionDefinition; file: string; candidates: readonly FunctionDefinition[] }
  /** A builtin script that cannot be used (unreadable, a syntax error, no `m_NAME`). */
  | { kind: "builtin-script-problem"; name: string; message: string }
  | { kind: "unknown-namespace"; namespace: string; name: string }
  | { kind: "unknown-in-namespace"; namespace: string; name: string; file: SourcedFile }
  | { kind: "unchecked" }
  /** `maybeFrom`: a file sourced without a namespace that could not be read, so the name may be defined there. */
  | { kind: "unknown"; name: string; maybeFrom?: SourcedFile };

export function buildFunctionScope(program: Program, readFile?: SourceReader): FunctionScope {
  const local = new Map<string, UserFunction>();
  const namespaces = new Map<string, SourcedFile>();
  const unreadableDefaults: SourcedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const defaults: SourcedFile[] = [];
  let movesWorkingDirectory = false;
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "setwd") movesWorkingDirectory = true;
  });
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "function" || statement.kind === "externalFunction") {
      if (!local.has(statement.name.name)) local.set(statement.name.name, statement);
    } else if (statement.kind === "source") {
      const loaded = readFile?.load?.(statement.path);
      const file: SourcedFile = { path: statement.path, statement, functions: loaded ? functionsOf(loaded) : readFunctions(statement.path, readFile) };
      if (readFile && !file.functions && loaded?.kind !== "unreadable" && !movesWorkingDirectory && !isBundledScriptPath(statement.path)) {
        const message = missingSourceFileMessage(statement.path, readFile.lookedIn?.(statement.path) ?? []);
        diagnostics.push({ severity: "error", message, range: statement.range, code: "source-not-found" });
      }
      if (loaded && readFile?.load && !movesWorkingDirectory) {
        const load = readFile.files ? readFile.files.load.bind(readFile.files) : (_from: string, p: string) => readFile.load!(p);
        diagnostics.push(...sourceChainProblems(readFile.scriptPath ?? "script.dml", statement, loaded, load));
      }
      const namespace = statement.namespace?.name;
      if (namespace === undefined) {
        defaults.push(file);
        return;
      }
      const bound = namespaces.get(namespace);
      if (!bound) namespaces.set(namespace, file);
      else if (bound.path !== file.path) {
        const message = `namespace '${namespace}' is already bound to '${bound.path}'; SystemDS rejects binding it to another file`;
        diagnostics.push({ severity: "error", message, range: statement.namespace!.range, code: "namespace-conflict" });
      }
    }
  });
  for (const file of defaults) {
    if (!file.functions) unreadableDefaults.push(file);
    else for (const [name, fn] of file.functions) if (!local.has(name)) local.set(name, fn);
  }
  const builtinScripts = builtinScriptsOf(readFile?.files, program);
  return { local, namespaces, unreadableDefaults, diagnostics, ...(builtinScripts ? { builtinScripts } : {}) };
}

/** `firstArgument`: the data type of the call's first argument, which picks a builtin script's `m_`/`s_`/`f_` function. */
export function resolveCall(callee: string, scope: FunctionScope, firstArgument: ArgumentDataType = "unknown"): Resolution {
  const separator = callee.indexOf("::");
  if (separator >= 0) {
    const namespace = callee.slice(0, separator);
    const name = callee.slice(separator + 2);
    const file = scope.namespaces.get(namespace);
    if (!file) return { kind: "unknown-namespace", namespace, name };
    if (!file.functions) return { kind: "unchecked" };
    const definition = file.functions.get(name);
    if (definition) return { kind: "user", definition, namespace };
    const builtin = lookupBuiltin(name);
    const asBuiltin = builtin?.kind === "dml" || scope.builtinScripts?.has(name) ? builtinResolution(name, builtin, scope, firstArgument) : undefined;
    return asBuiltin ?? { kind: "unknown-in-namespace", namespace, name, file };
  }
  const definition = scope.local.get(callee);
  if (definition) return { kind: "user", definition };
  const found = builtinResolution(callee, lookupBuiltin(callee), scope, firstArgument);
  if (found) return found;
  // A private function of a builtin script the program loads (SystemDS's builtin namespace).
  const helper = scope.builtinScripts?.helper(callee);
  if (helper) return { kind: "builtin-script", name: callee, definition: helper.definition, file: helper.file, candidates: [helper.definition] };
  const maybeFrom = scope.unreadableDefaults[0];
  return maybeFrom ? { kind: "unknown", name: callee, maybeFrom } : { kind: "unknown", name: callee };
}

/**
 * A builtin call not hidden by a user function: a native builtin of the
 * catalog wins (SystemDS has it built in); else the installation's script;
 * else the catalog's DML-bodied entry, without its body.
 */
function builtinResolution(name: string, builtin: BuiltinSignature | undefined, scope: FunctionScope, firstArgument: ArgumentDataType): Resolution | undefined {
  if (builtin && builtin.kind !== "dml") return { kind: "builtin", signature: builtin };
  const scripts = scope.builtinScripts;
  const script = scripts?.resolve(name, firstArgument);
  if (script?.kind === "function") {
    return { kind: "builtin-script", name, definition: script.definition, file: script.file, candidates: firstArgument === "unknown" ? scripts!.candidates(name) : [script.definition] };
  }
  if (script?.kind === "problem") return { kind: "builtin-script-problem", name, message: script.message };
  if (!builtin) return undefined;
  return { kind: "builtin", signature: builtin, body: scripts ? "not-shipped" : "no-installation" };
}

/** The functions of a loaded file; undefined when it could not be read. */
function functionsOf(loaded: LoadedSource): ReadonlyMap<string, UserFunction> | undefined {
  return loaded.kind === "file" ? functionDefinitions(loaded.parsed.program) : undefined;
}

function functionDefinitions(program: Program): Map<string, UserFunction> {
  const functions = new Map<string, UserFunction>();
  forEachStatement(program.body, (statement) => {
    if ((statement.kind === "function" || statement.kind === "externalFunction") && !functions.has(statement.name.name)) {
      functions.set(statement.name.name, statement);
    }
  });
  return functions;
}

function readFunctions(path: string, readFile: SourceReader | undefined): ReadonlyMap<string, UserFunction> | undefined {
  if (!readFile) return undefined;
  let text: string | undefined;
  try {
    text = readFile(path);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return functionDefinitions(parse(text).program);
}
