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

/** Position `a` comes strictly before `b`. */
export function positionBefore(a: Range["start"], b: Range["start"]): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** The two ranges start and end at the same positions. */
export function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** `position` lies in `range`, both ends included. */
export function rangeContains(range: Range, position: Range["start"]): boolean {
  return !positionBefore(position, range.start) && !positionBefore(range.end, position);
}

/**
 * The texts whose line starts were found last, newest last: callers ask for
 * ranges of the same text again and again (a document's statements, one
 * `textInRange` at a time), and finding the line starts reads the whole
 * text, so a 2,000-line document's redundancy search spent most of its time
 * here. A few texts are kept (a document and texts edited from it).
 */
const LINE_STARTS_KEPT = 4;
const lineStartsOfText = new Map<string, readonly number[]>();

/** Offsets of the lines of `text` (0, then one past each newline), kept for the last few texts. */
export function lineStarts(text: string): readonly number[] {
  const known = lineStartsOfText.get(text);
  if (known !== undefined) return known;
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  if (lineStartsOfText.size >= LINE_STARTS_KEPT) lineStartsOfText.delete(lineStartsOfText.keys().next().value!);
  lineStartsOfText.set(text, starts);
  return starts;
}

/** Offsets of positions in `text` (0-based lines and UTF-16 characters; a character past the line's end means its end, as in LSP). */
export function positionOffsets(text: string): (p: Range["start"]) => number {
  const starts = lineStarts(text);
  return (p) => {
    const start = starts[p.line];
    if (start === undefined) return text.length;
    const end = p.line + 1 < starts.length ? starts[p.line + 1]! - 1 : text.length;
    return Math.min(start + p.character, end);
  };
}

/** The text a range covers. */
export function textInRange(text: string, range: Range): string {
  return rangeTexts(text)(range);
}

/** The text of any range of `text`, with the line starts found once (for many ranges of one text). */
export function rangeTexts(text: string): (range: Range) => string {
  const offset = positionOffsets(text);
  return (range) => text.slice(offset(range.start), offset(range.end));
}

/** `range` moved down by `lines` (up when negative), characters unchanged. */
export function shiftRange(range: Range, lines: number): Range {
  if (lines === 0) return range;
  return { start: { line: range.start.line + lines, character: range.start.character }, end: { line: range.end.line + lines, character: range.end.character } };
}

export interface TextEdit {
  range: Range;
  newText: string;
}

/** `text` with non-overlapping edits applied (as an LSP client applies a WorkspaceEdit). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = positionOffsets(text);
  const sorted = edits.map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), newText: e.newText })).sort((a, b) => b.from - a.from || b.to - a.to);
  let result = text;
  for (const e of sorted) result = result.slice(0, e.from) + e.newText + result.slice(e.to);
  return result;
}

/**
 * `text` without the spaces and tabs that end its lines: what places no
 * token, so two texts equal this way have every token at the same position
 * (how cached block results are looked up: a trailing space changes nothing).
 */
export function withoutTrailingSpaces(text: string): string {
  return text.replace(/[ \t]+$/gm, "");
}
