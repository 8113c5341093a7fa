/**
 * The diagnostics published for an open document: the parser's, plus the
 * semantic ones (engine/program/semantic-diagnostics.ts) when the document
 * has no syntax error. A document saved on disk (`file:` URI) reads the
 * files it sources from its folder, then the server's working directory.
 */
import { fileURLToPath } from "node:url";
import { checkDiagnostics } from "../../engine/program/semantic-diagnostics";
import { fileSourceReader } from "../../engine/program/source-reader";
import type { Diagnostic, ParseResult } from "../../engine/syntax";

export function documentDiagnostics(uri: string, result: ParseResult): Diagnostic[] {
  try {
    const readFile = uri.startsWith("file:") ? fileSourceReader(fileURLToPath(uri)) : undefined;
    return checkDiagnostics(result, { readFile });
  } catch (error) {
    // An analysis bug must not hide the syntax diagnostics or take the server down.
    const message = error instanceof Error ? error.message : String(error);
    const zero = { line: 0, character: 0 };
    const internal: Diagnostic = { severity: "error", message: `internal error in semantic analysis: ${message}`, range: { start: zero, end: zero }, code: "internal" };
    return [...result.diagnostics, internal];
  }
}
