/**
 * The problems of one script as every command reports them: `dml check`
 * prints them, `dml explain` prints them above its summary, and `dml run`
 * prints the errors among them and does not run (SystemDS, too, validates the
 * whole script before it runs any of it). One list, one format
 * (`file:line:col: severity: message`), so the commands tell one story.
 *
 * The list is the analysis's (engine/stats/check-document.ts, without the
 * editor's hints) plus two checks that depend on how the script is invoked:
 * - a `$name` with no value (command line or workspace file) and no `ifdef`
 *   default: SystemDS's parser rejects such an invocation. It is an error
 *   when the command describes an invocation (`dml run`, or check and explain
 *   with any name=value given); a script checked without any is checked for
 *   whatever values it gets later, so nothing is said.
 * - a `read()` whose constant file name names no file: SystemDS's validation
 *   rejects it ("Read input file does not exist"), an error, except inside an
 *   `if`, a loop or a function, where SystemDS only warns (the read may not
 *   run) and so do we; the runtime then fails with the same words if it
 *   does. A file the script itself writes is not reported, nor (except
 *   for `dml run`) one whose sizes a `.mtd`, an `@size` annotation or the
 *   workspace file's "inputs" describe: that is data kept elsewhere, which
 *   check and explain analyze by its description. Likewise a data
 *   file whose `.mtd` cannot be parsed, reported at the read() call as the
 *   runtime reports it.
 * - a `read()` of a file that is there but that the runtime's reader would
 *   refuse: the reader itself checks it (engine/runtime/io checkDataFile,
 *   with the call's constant arguments), so check says what run would say,
 *   in its words: not a regular file, too large, sizes claimed by the `.mtd`
 *   or a Matrix Market size line beyond the memory budget, and (for files up
 *   to DEFAULT_SCAN_LIMIT_BYTES, parsed whole; larger ones get the up-front
 *   checks only) ragged or non-numeric csv, Matrix Market indices out of
 *   range or wrong entry counts, data that disagrees with its `.mtd`. A read
 *   whose format-relevant arguments are not constants is not checked.
 * (A `source()` file that cannot be found is reported by the analysis
 * itself, engine/program/function-scope.ts, in the runtime's words.)
 */
import path from "node:path";
import { readFile } from "node:fs/promises";
import { type CallExpression, type Diagnostic, type Expression, type Program, type Range, type Statement, parse } from "../engine/syntax";
import { fileSourceReader, childExpressions, statementExpressions, walkExpression, forEachStatement, type SystemdsInstallation } from "../engine/program";
import { checkAndAnalyze, type ProgramAnalysis, type SparsityEstimator } from "../engine/analysis";
import { evaluateConstant, loadWorkspaceConfig, mergeParameterValues, type ParameterValues, readArguments, DEFAULT_SCAN_LIMIT_BYTES, type ReadArguments, readMtd, resolveDataPath, workspaceParameters } from "../engine/metadata";
import { nodeFileSystem } from "../engine/files";
import { metadataErrorMessage, missingDataFileMessage, missingParameterMessage, DEFAULT_MEMORY_BUDGET, MemoryMeter } from "../engine/runtime/interpreter";
import { checkDataFile, type ReadParameters } from "../engine/runtime/io";
import { err } from "./output";

export interface ScriptProblemOptions {
  /** The script's path as the user gave it (printed in every location). */
  file: string;
  /** `$name` values from the command line. */
  parameters: ReadonlyMap<string, string>;
  /** Whether the command describes one run of the script (run, or name=value given): a missing `$name` is then an error (else not reported). */
  invocation: boolean;
  estimator?: SparsityEstimator;
  /** Whether the script is about to run (`dml run`): a missing data file is then an error even when its sizes are declared. */
  willRun?: boolean;
  /** Only the parser's diagnostics (`dml check --syntax`). */
  syntaxOnly?: boolean;
  /** The runtime's memory budget in bytes (default DEFAULT_MEMORY_BUDGET): data files claiming more are reported. */
  memoryBudget?: number;
  /** The SystemDS installation whose builtin scripts and scripts/ library the script uses (cli/systemds-option.ts). */
  installation?: SystemdsInstallation;
}

export interface ScriptProblems {
  /** Sorted by position; no hints. */
  diagnostics: Diagnostic[];
  /** The analysis behind them (none with a syntax error or `syntaxOnly`). */
  analysis?: ProgramAnalysis;
}

export function scriptProblems(text: string, options: ScriptProblemOptions): ScriptProblems {
  const parsed = parse(text, { keepComments: true });
  if (options.syntaxOnly) return { diagnostics: sortByPosition(withoutHints(parsed.diagnostics)) };
  const workspaceRoot = process.cwd();
  const checked = checkAndAnalyze(
    text,
    {
      scriptPath: options.file,
      workspaceRoot,
      parameters: options.parameters,
      readFile: fileSourceReader(options.file, workspaceRoot, options.installation),
      ...(options.estimator ? { estimator: options.estimator } : {}),
      ...(options.installation ? { installation: options.installation } : {}),
    },
    parsed,
  );
  const analysis = checked.analysis;
  if (!analysis) return { diagnostics: withoutHints(checked.diagnostics) };
  const params = analysis.parameters;
  const missing = options.invocation ? missingParameters(parsed.program, params) : [];
  // Without a run, a missing file whose sizes something describes (.mtd, @size, dml-lens.json "inputs") is data kept elsewhere: the analysis uses the description.
  const undescribed = new Set(checked.diagnostics.filter((d) => d.code === "read-size-unknown").map((d) => positionKey(d.range)));
  const described = (file: Range) => !options.willRun && !undescribed.has(positionKey(file));
  const context = { scriptPath: path.resolve(options.file), workspaceRoot, memoryBudget: options.memoryBudget ?? DEFAULT_MEMORY_BUDGET };
  const data = dataFileProblems(parsed.program, params, context, described);
  // A read that cannot work is reported once: its missing file or broken .mtd, not the analysis's guesses about its sizes and format.
  const analysisDiagnostics = checked.diagnostics.filter((d) => !(GUESSES.has(d.code ?? "") && data.failedReads.some((call) => contains(call, d.range))));
  return { diagnostics: sortByPosition(withoutHints([...analysisDiagnostics, ...missing, ...data.diagnostics])), analysis };
}

/**
 * The `$name` values a run of `file` gets: the workspace file's "params"
 * (dml-lens.json in the working directory, its entry for the script winning),
 * then the command line's, the values check and explain size with.
 */
export function runParameters(file: string, commandLine: ReadonlyMap<string, string>): Map<string, string> {
  const workspace = loadWorkspaceConfig(nodeFileSystem, process.cwd()).config;
  return mergeParameterValues(workspaceParameters(workspace, path.resolve(file)), commandLine);
}

/** `file:line:col: severity: message`, 1-based, as check, explain and run print a problem. */
export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`;
}

/** The script's text, or undefined after printing `<command>: cannot read FILE: no such file`. */
export async function readScript(command: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    err(`${command}: cannot read ${file}: ${describeReadError(code)}`);
    return undefined;
  }
}

function describeReadError(code: string): string {
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "is a directory";
    case "EACCES":
      return "permission denied";
    default:
      return code;
  }
}

/** Every `$name` read outside `ifdef($name, ...)` with no value, at each use. */
function missingParameters(program: Program, params: ParameterValues): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const visit = (expression: Expression) => {
    if (expression.kind === "ifdef") {
      visit(expression.defaultValue);
      return;
    }
    if (expression.kind === "parameter" && !params.has(expression.name)) {
      diagnostics.push({ severity: "error", message: missingParameterMessage(expression.name), range: expression.range, code: "missing-parameter" });
    }
    for (const child of children(expression)) visit(child);
  };
  walkStatements(program.body, (expression) => visit(expression));
  return diagnostics;
}

/** The reads whose constant file name is not there or has a broken .mtd, and their calls' ranges. */
function dataFileProblems(
  program: Program,
  params: ParameterValues,
  context: { scriptPath: string; workspaceRoot: string; memoryBudget: number },
  described: (file: Range) => boolean,
): { diagnostics: Diagnostic[]; failedReads: Range[] } {
  const written = new Set<string>();
  const reads: { call: CallExpression; conditional: boolean }[] = [];
  walkStatements(program.body, (expression, conditional) =>
    walkExpression(expression, (call) => {
      if (call.kind !== "call") return;
      const name = call.callee.name;
      if (name === "read") reads.push({ call, conditional });
      if (name === "write") {
        const file = call.args.find((a) => a.name === "file") ?? call.args.filter((a) => a.name === undefined)[1];
        const value = file && evaluateConstant(file.value, { params });
        if (value?.ok && value.value.type === "string") written.add(value.value.value);
      }
    }),
  );
  const diagnostics: Diagnostic[] = [];
  const failedReads: Range[] = [];
  for (const { call, conditional } of reads) {
    const args = readArguments(call, { params, constants: new Map() }, context.scriptPath);
    const file = args.file;
    if (!file) continue;
    const value = evaluateConstant(file, { params });
    if (!value.ok || value.value.type !== "string" || written.has(value.value.value)) continue;
    const pathText = value.value.value;
    const resolution = resolveDataPath(pathText, { ...context, fs: nodeFileSystem });
    if (resolution.remote) continue;
    const severity = conditional ? "warning" : "error";
    const found = resolution.candidates.find((c) => nodeFileSystem.exists(c));
    // A .mtd without its data: SystemDS parses the .mtd first, so a malformed one is the error to report.
    const mtdOnlyError = found === undefined && resolution.resolved !== undefined ? firstMtdError(resolution.resolved) : undefined;
    if (mtdOnlyError) {
      diagnostics.push({ severity, message: metadataErrorMessage(pathText, mtdOnlyError.range.start, mtdOnlyError.message), range: call.range, code: "data-file-metadata" });
      failedReads.push(call.range);
      continue;
    }
    if (found === undefined) {
      if (described(file.range)) continue;
      diagnostics.push({ severity, message: missingDataFileMessage(pathText, resolution.candidates), range: call.range, code: "missing-data-file" });
      failedReads.push(call.range);
      continue;
    }
    // The first error of its .mtd stops the read (SystemDS cannot parse it either), named as the runtime names it.
    const mtdError = firstMtdError(found);
    if (mtdError) {
      diagnostics.push({ severity, message: metadataErrorMessage(pathText, mtdError.range.start, mtdError.message), range: call.range, code: "data-file-metadata" });
      failedReads.push(call.range);
      continue;
    }
    const readParams = runtimeReadParameters(call, args);
    if (!readParams) continue;
    const error = checkDataFile(pathText, {
      scriptPath: context.scriptPath,
      workspaceRoot: context.workspaceRoot,
      params: readParams,
      parseLimitBytes: DEFAULT_SCAN_LIMIT_BYTES,
      memoryRefusal: (bytes) => new MemoryMeter(context.memoryBudget).refusal(bytes, 0),
    });
    if (!error || error.code === "not-found") continue;
    diagnostics.push({ severity, message: error.message, range: call.range, code: "data-file" });
    failedReads.push(call.range);
  }
  return { diagnostics, failedReads };
}

function firstMtdError(dataPath: string): Diagnostic | undefined {
  return readMtd(nodeFileSystem, dataPath).diagnostics.find((d) => d.severity === "error");
}

/** The read() arguments the runtime passes to its reader, from the call's constants; undefined when one of them is given but not a valid constant (the read is then not checked). */
function runtimeReadParameters(call: CallExpression, args: ReadArguments): ReadParameters | undefined {
  const used = ["format", "data_type", "header", "sep", "rows", "cols"];
  if (call.args.some((a) => a.name !== undefined && used.includes(a.name) && !args.texts.has(a.name))) return undefined;
  if (args.diagnostics.some((d) => d.severity === "error")) return undefined;
  const v = args.values;
  const params: ReadParameters = {};
  if (v.format) params.format = v.format.value;
  if (v.dataType) params.dataType = v.dataType.value;
  if (v.header) params.header = v.header.value;
  if (v.sep) params.sep = v.sep.value;
  if (v.rows) params.rows = v.rows.value;
  if (v.cols) params.cols = v.cols.value;
  return params;
}

/**
 * Calls `visit` with every expression the statements evaluate (right sides,
 * calls, indices, conditions, loop bounds and options, parameter defaults)
 * and whether it is conditional: inside an `if` branch, a loop body or a function.
 */
function walkStatements(body: readonly Statement[], visit: (expression: Expression, conditional: boolean) => void): void {
  forEachStatement(body, (statement, place) => {
    const conditional = place.inBranchOrLoop || place.inFunction;
    switch (statement.kind) {
      case "if":
      case "while":
        visit(statement.condition, conditional);
        break;
      case "for": {
        const it = statement.iterable;
        for (const e of it.kind === "range" ? [it.from, it.to] : [it.from, it.to, ...(it.by ? [it.by] : [])]) visit(e, conditional);
        for (const option of statement.options) visit(option.value, conditional);
        break;
      }
      case "function":
        for (const p of statement.params) if (p.defaultValue) visit(p.defaultValue, true);
        break;
      case "externalFunction":
        break;
      default:
        for (const e of statementExpressions(statement)) visit(e, conditional);
    }
  });
}


/** Sub-expressions, with the parameter of `ifdef` (not a read) left out. */
function children(expression: Expression): Expression[] {
  return expression.kind === "ifdef" ? [expression.defaultValue] : childExpressions(expression);
}

function withoutHints(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // Hints (why a size is unknown, ...) are for the editor.
  return diagnostics.filter((d) => d.severity !== "hint");
}

function sortByPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** The analysis's notes on a read that are guesses (sizes unknown, format assumed, not scanned). */
const GUESSES = new Set(["read-size-unknown", "read-format", "read-not-scanned", "read-scan"]);

function positionKey(range: Range): string {
  return `${range.start.line}:${range.start.character}`;
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Range["start"], b: Range["start"]) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}
