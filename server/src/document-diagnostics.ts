/**
 * The diagnostics published for an open document: the parser's, plus those
 * of the analysis (engine/stats/check-document.ts) when the document has no
 * syntax error. A document saved on disk (`file:` URI) reads the
 * files it sources from its folder, then the server's working directory.
 */
import { fileURLToPath } from "node:url";
import { fileSourceReader } from "../../engine/program/source-reader";
import { checkAndAnalyze } from "../../engine/stats/check-document";
import type { MeasuredSize, ProgramAnalysis } from "../../engine/stats/program-analysis";
import type { Diagnostic, ParseResultWithComments } from "../../engine/syntax";

/** Runs on every change: scan only small data files for missing sizes (no cache across keystrokes yet). */
const KEYSTROKE_SCAN_LIMIT_BYTES = 2 * 1024 * 1024;

export function documentDiagnostics(uri: string, text: string, result: ParseResultWithComments): Diagnostic[] {
  return documentCheck(uri, text, result).diagnostics;
}

/** The diagnostics and, without syntax errors, the analysis (dims, nnz, DAGs) the hover and the optimizer use. */
export function documentCheck(uri: string, text: string, result: ParseResultWithComments, measured?: ReadonlyMap<string, MeasuredSize>): { diagnostics: Diagnostic[]; analysis?: ProgramAnalysis } {
  try {
    const sizes = measured && measured.size > 0 ? { measured } : {};
    if (!uri.startsWith("file:")) return checkAndAnalyze(text, sizes, result);
    const scriptPath = fileURLToPath(uri);
    return checkAndAnalyze(text, { scriptPath, readFile: fileSourceReader(scriptPath), scanLimitBytes: KEYSTROKE_SCAN_LIMIT_BYTES, ...sizes }, result);
  } catch (error) {
    // An analysis bug must not hide the syntax diagnostics or take the server down.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    const internal: Diagnostic = { severity: "error", message: `internal error in semantic analysis: ${message}`, range: { start: zero, end: zero }, code: "internal" };
    return { diagnostics: [...result.diagnostics, internal] };
  }
}
