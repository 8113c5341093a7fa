/**
 * The diagnostics published for an open document: the parser's, plus those
 * of the analysis (engine/stats/check-document.ts) when the document has no
 * syntax error. A document saved on disk (`file:` URI) reads the files it
 * sources from its folder, then the server's working directory; its
 * workspace folder (the innermost one that holds it) is where `dml-lens.json`
 * or the size-assumptions file of the settings is found.
 *
 * Analysis reads files only inside the readable folders (readable-folders.ts)
 * when they are given, and the size-assumptions file only when it is a
 * `.json` file (its problems are published and may quote it). A document
 * with more statements than the editor analyzes gets its syntax diagnostics
 * and one that says so.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fileSourceReader, type SystemdsInstallation, forEachStatement } from "../../engine/program";
import { nodeFileSystem } from "../../engine/files";
import { guardedFileSourceReader, guardedFileSystem, type ReadableFolders, refusalDiagnostics } from "./readable-folders";
import { type AnalysisCache, checkAndAnalyze, type CheckOptions, type MeasuredSize, type ProgramAnalysis, type SparsityEstimator } from "../../engine/analysis";
import type { Diagnostic, ParseResultWithComments } from "../../engine/syntax";
import { TOO_MANY_STATEMENTS_CODE } from "../../protocol/bound-diagnostic-codes";

/** Runs on every change: scan only small data files for missing sizes (no cache across keystrokes yet). */
const KEYSTROKE_SCAN_LIMIT_BYTES = 2 * 1024 * 1024;

export interface DocumentAnalysisOptions {
  /** Sizes the runtime measured (they replace estimates). */
  measured?: ReadonlyMap<string, MeasuredSize>;
  estimator?: SparsityEstimator;
  /** The editor's workspace folders, as file-system paths. */
  workspaceFolders?: readonly string[];
  /** A size-assumptions file instead of the workspace's dml-lens.json, relative to the workspace folder ("" or undefined: the default). */
  sizeAssumptionsFile?: string;
  /** The document's block DAGs and sizes from earlier analyses. */
  cache?: AnalysisCache;
  /** Where analysis may read files (data, .mtd, source(), the size-assumptions file); undefined: anywhere (tests, `dml check`). */
  readable?: ReadableFolders;
  /** The most statements analyzed per document (default MAX_ANALYZED_STATEMENTS). */
  maxStatements?: number;
  /** The SystemDS installation whose builtin scripts and scripts/ library the document uses (systemds-setting.ts). */
  installation?: SystemdsInstallation;
}

/**
 * Documents with more statements get syntax diagnostics only: an analysis
 * costs 120-240 µs a statement on the main thread (an idle machine), so
 * 2,000 statements hold other documents' requests up for at most about half
 * a second per change (the lsp fuzz harness saw 5 s answers with 5,000 on a
 * loaded machine).
 */
export const MAX_ANALYZED_STATEMENTS = 2_000;

export function documentDiagnostics(uri: string, text: string, result: ParseResultWithComments): Diagnostic[] {
  return documentCheck(uri, text, result).diagnostics;
}

/** The diagnostics and, without syntax errors, the analysis (dims, nnz, DAGs) the hover and the optimizer use. */
export function documentCheck(uri: string, text: string, result: ParseResultWithComments, options: DocumentAnalysisOptions = {}): { diagnostics: Diagnostic[]; analysis?: ProgramAnalysis } {
  try {
    const limit = options.maxStatements ?? MAX_ANALYZED_STATEMENTS;
    const statements = countStatements(result, limit);
    if (statements > limit) return { diagnostics: [...result.diagnostics, tooLarge(limit)] };
    const scriptPath = uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
    const workspaceRoot = workspaceFolderOf(scriptPath, options.workspaceFolders ?? []);
    const refused = new Set<string>();
    const notJson = options.sizeAssumptionsFile !== undefined && options.sizeAssumptionsFile !== "" && !options.sizeAssumptionsFile.toLowerCase().endsWith(".json");
    const check: CheckOptions = {
      ...(options.measured && options.measured.size > 0 ? { measured: options.measured } : {}),
      ...(options.estimator ? { estimator: options.estimator } : {}),
      ...(workspaceRoot !== undefined ? { workspaceRoot } : {}),
      ...(options.sizeAssumptionsFile && !notJson ? { workspaceFile: options.sizeAssumptionsFile } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.readable ? { fs: guardedFileSystem(nodeFileSystem, options.readable, refused) } : {}),
      ...(options.installation ? { installation: options.installation } : {}),
    };
    let checked: { diagnostics: Diagnostic[]; analysis?: ProgramAnalysis };
    if (scriptPath === undefined) checked = checkAndAnalyze(text, check, result);
    else {
      const reader = options.readable ? guardedFileSourceReader(scriptPath, options.readable, refused, options.installation) : fileSourceReader(scriptPath, undefined, options.installation);
      checked = checkAndAnalyze(text, { ...check, scriptPath, readFile: reader, scanLimitBytes: KEYSTROKE_SCAN_LIMIT_BYTES }, result);
    }
    const diagnostics = refusalDiagnostics(checked.diagnostics, refused);
    if (notJson) diagnostics.unshift(notJsonDiagnostic(options.sizeAssumptionsFile!));
    return { ...checked, diagnostics };
  } catch (error) {
    // An analysis bug must not hide the syntax diagnostics or take the server down.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    const internal: Diagnostic = { severity: "error", message: `internal error in semantic analysis: ${message}`, range: { start: zero, end: zero }, code: "internal" };
    return { diagnostics: [...result.diagnostics, internal] };
  }
}

/** The innermost folder holding the script; for an unsaved script, the first folder. */
function workspaceFolderOf(scriptPath: string | undefined, folders: readonly string[]): string | undefined {
  if (scriptPath === undefined) return folders[0];
  const holding = folders.filter((folder) => !path.relative(folder, scriptPath).startsWith(".."));
  return holding.sort((a, b) => b.length - a.length)[0];
}

/** The statements of the document, nested ones included, counted up to one past `limit`. */
function countStatements(result: ParseResultWithComments, limit: number): number {
  let count = 0;
  try {
    forEachStatement(result.program.body, () => {
      if (++count > limit) throw STOP;
    });
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return count;
}

const STOP = Symbol("stop");

function tooLarge(limit: number): Diagnostic {
  const zero = { line: 0, character: 0 };
  return {
    severity: "information",
    message: `this document has more than ${limit.toLocaleString("en-US")} statements, the most the editor analyzes per document: only syntax errors are shown here (no sizes, semantic checks or rewrite hints); \`dml check\` analyzes it in full`,
    range: { start: zero, end: zero },
    code: TOO_MANY_STATEMENTS_CODE,
  };
}

function notJsonDiagnostic(file: string): Diagnostic {
  const zero = { line: 0, character: 0 };
  return {
    severity: "warning",
    message: `dmlLens.optimizer.sizeAssumptionsFile '${file}' is not a .json file, so it is not read (its problems would be shown and could quote it); using the workspace's dml-lens.json instead`,
    range: { start: zero, end: zero },
    code: "workspace-config",
  };
}
