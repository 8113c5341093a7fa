/**
 * How large a document the server checks while the user types. Parsing
 * costs about 60 µs a line on the main thread, and every change of a
 * document is parsed (the quick syntax check) and analyzed: beyond these
 * counts one keystroke would hold up every other document's requests for
 * seconds. A larger document gets one information diagnostic that says so
 * and empty answers (no outline, folding, tokens, hints); `dml check` reads
 * it in full. (The analysis has its own bound in statements,
 * document-diagnostics.ts.)
 */
import type { Diagnostic, ParseResultWithComments } from "../../engine/syntax";
import { DOCUMENT_TOO_LARGE_CODE } from "../../protocol/bound-diagnostic-codes";

export const MAX_CHECKED_LINES = 10_000;
export const MAX_CHECKED_CHARACTERS = 1_000_000;

function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** Why the text is too large to check, or undefined. */
export function tooLargeToCheck(text: string): string | undefined {
  const lines = lineCount(text);
  if (lines > MAX_CHECKED_LINES) return `${lines.toLocaleString("en-US")} lines, more than the ${MAX_CHECKED_LINES.toLocaleString("en-US")}`;
  if (text.length > MAX_CHECKED_CHARACTERS) return `${text.length.toLocaleString("en-US")} characters, more than the ${MAX_CHECKED_CHARACTERS.toLocaleString("en-US")}`;
  return undefined;
}

/** The "parse" of a document too large to check: no statements, one diagnostic saying why. */
export function uncheckedDocument(why: string): ParseResultWithComments {
  const zero = { line: 0, character: 0 };
  const diagnostic: Diagnostic = {
    severity: "information",
    message: `this document has ${why} the editor checks while you type: it shows no diagnostics, outline or hints; \`dml check\` checks it in full`,
    range: { start: zero, end: zero },
    code: DOCUMENT_TOO_LARGE_CODE,
  };
  return { program: { kind: "program", body: [], range: { start: zero, end: zero } }, diagnostics: [diagnostic], comments: [] };
}
