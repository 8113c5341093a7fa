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

/** Offsets of positions in `text` (0-based lines and UTF-16 characters, as in LSP). */
function offsets(text: string): (p: Range["start"]) => number {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return (p) => (lineStarts[p.line] ?? text.length) + p.character;
}

/** The text a range covers. */
export function textInRange(text: string, range: Range): string {
  const offset = offsets(text);
  return text.slice(offset(range.start), offset(range.end));
}

export interface TextEdit {
  range: Range;
  newText: string;
}

/** `text` with non-overlapping edits applied (as an LSP client applies a WorkspaceEdit). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = offsets(text);
  const sorted = edits.map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), newText: e.newText })).sort((a, b) => b.from - a.from || b.to - a.to);
  let result = text;
  for (const e of sorted) result = result.slice(0, e.from) + e.newText + result.slice(e.to);
  return result;
}
