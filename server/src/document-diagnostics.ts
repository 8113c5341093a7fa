/**
 * The diagnostics published for an open document: the parser's, plus those
 * of the analysis (engine/stats/check-document.ts) when the document has no
 * syntax error. A document saved on disk (`file:` URI) reads the files it
 * sources from its folder, then the server's working directory; its
 * workspace folder (the innermost one that holds it) is where `dml-lens.json`
 * or the size-assumptions file of the settings is found.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fileSourceReader } from "../../engine/program/source-reader";
import type { AnalysisCache } from "../../engine/stats/analysis-cache";
import { checkAndAnalyze, type CheckOptions } from "../../engine/stats/check-document";
import type { MeasuredSize, ProgramAnalysis } from "../../engine/stats/program-analysis";
import type { SparsityEstimator } from "../../engine/stats/sizes/sketch-sizes";
import type { Diagnostic, ParseResultWithComments } from "../../engine/syntax";

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
}

export function documentDiagnostics(uri: string, text: string, result: ParseResultWithComments): Diagnostic[] {
  return documentCheck(uri, text, result).diagnostics;
}

/** The diagnostics and, without syntax errors, the analysis (dims, nnz, DAGs) the hover and the optimizer use. */
export function documentCheck(uri: string, text: string, result: ParseResultWithComments, options: DocumentAnalysisOptions = {}): { diagnostics: Diagnostic[]; analysis?: ProgramAnalysis } {
  try {
    const scriptPath = uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
    const workspaceRoot = workspaceFolderOf(scriptPath, options.workspaceFolders ?? []);
    const check: CheckOptions = {
      ...(options.measured && options.measured.size > 0 ? { measured: options.measured } : {}),
      ...(options.estimator ? { estimator: options.estimator } : {}),
      ...(workspaceRoot !== undefined ? { workspaceRoot } : {}),
      ...(options.sizeAssumptionsFile ? { workspaceFile: options.sizeAssumptionsFile } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
    };
    if (scriptPath === undefined) return checkAndAnalyze(text, check, result);
    return checkAndAnalyze(text, { ...check, scriptPath, readFile: fileSourceReader(scriptPath), scanLimitBytes: KEYSTROKE_SCAN_LIMIT_BYTES }, result);
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
