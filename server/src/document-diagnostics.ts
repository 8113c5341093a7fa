/**
 * The diagnostics published for an open document: the parser's, plus those
 * of the analysis (engine/stats/check-document.ts) when the document has no
 * syntax error. A document saved on disk (`file:` URI) reads the
 * files it sources from its folder, then the server's working directory.
 */
import { fileURLToPath } from "node:url";
import { fileSourceReader } from "../../engine/program/source-reader";
import { checkDocument } from "../../engine/stats/check-document";
import type { Diagnostic, ParseResultWithComments } from "../../engine/syntax";

/** Runs on every change: scan only small data files for missing sizes (no cache across keystrokes yet). */
const KEYSTROKE_SCAN_LIMIT_BYTES = 2 * 1024 * 1024;

export function documentDiagnostics(uri: string, text: string, result: ParseResultWithComments): Diagnostic[] {
  try {
    if (!uri.startsWith("file:")) return checkDocument(text, {}, result);
    const scriptPath = fileURLToPath(uri);
    return checkDocument(text, { scriptPath, readFile: fileSourceReader(scriptPath), scanLimitBytes: KEYSTROKE_SCAN_LIMIT_BYTES }, result);
  } catch (error) {
    // An analysis bug must not hide the syntax diagnostics or take the server down.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    const internal: Diagnostic = { severity: "error", message: `internal error in semantic analysis: ${message}`, range: { start: zero, end: zero }, code: "internal" };
    return [...result.diagnostics, internal];
  }
}
