/** Source ranges of tokens and nodes (0-based, end exclusive, as in LSP). */
import type { IToken } from "chevrotain";
import type { Range } from "./ast";

export function tokenRange(token: IToken): Range {
  return {
    start: { line: token.startLine! - 1, character: token.startColumn! - 1 },
    end: { line: token.endLine! - 1, character: token.endColumn! },
  };
}

/** The range from the start of `first` to the end of `last`. */
export function spanRange(first: Range, last: Range): Range {
  return { start: first.start, end: last.end };
}

/** An empty range just after `token` (where something is missing). */
export function afterTokenRange(token: IToken): Range {
  const end = { line: token.endLine! - 1, character: token.endColumn! };
  return { start: end, end };
}

/** The text a range covers (0-based lines and UTF-16 characters, as in LSP). */
export function textInRange(text: string, range: Range): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length && lineStarts.length <= range.end.line; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const offset = (p: Range["start"]) => (lineStarts[p.line] ?? text.length) + p.character;
  return text.slice(offset(range.start), offset(range.end));
}
