/**
 * Positions in an edited text mapped back to the text before the edits, so
 * that an error in a run of the rewritten copy points at the user's line. A
 * position inside text an edit wrote (an inserted assignment, a
 * replacement) maps to the start of what that edit replaced, and says which
 * text it was.
 */
import { lineStarts, type Position, positionOffsets, type TextEdit } from "../syntax";

export interface OriginalPlace {
  position: Position;
  /** The text the edit wrote, when the position lies in it. */
  written?: string;
  /** That edit inserted text (replaced nothing). */
  inserted?: boolean;
}

/** Maps positions of `applyEdits(original, edits)` (non-overlapping edits) back to `original`. */
export function originalPositions(original: string, edits: readonly TextEdit[]): (p: Position) => OriginalPlace {
  const offset = positionOffsets(original);
  const sorted = edits.map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), newText: e.newText })).sort((a, b) => a.from - b.from || a.to - b.to);
  // Each edit's place in the edited text.
  let shift = 0;
  const placed = sorted.map((e) => {
    const start = e.from + shift;
    shift += e.newText.length - (e.to - e.from);
    return { ...e, start, end: start + e.newText.length, shiftAfter: shift };
  });
  const edited = applyInOrder(original, sorted);
  const editedOffset = positionOffsets(edited);
  const originalLineStarts = lineStarts(original);
  const toPosition = (o: number): Position => {
    let line = 0;
    while (line + 1 < originalLineStarts.length && originalLineStarts[line + 1]! <= o) line++;
    return { line, character: o - originalLineStarts[line]! };
  };
  return (p) => {
    const o = editedOffset(p);
    let shiftBefore = 0;
    for (const e of placed) {
      if (o < e.start) break;
      if (o < e.end) return { position: toPosition(e.from), written: e.newText.trim(), inserted: e.from === e.to };
      shiftBefore = e.shiftAfter;
    }
    return { position: toPosition(o - shiftBefore) };
  };
}

function applyInOrder(text: string, sorted: readonly { from: number; to: number; newText: string }[]): string {
  let result = "";
  let at = 0;
  for (const e of sorted) {
    result += text.slice(at, e.from) + e.newText;
    at = e.to;
  }
  return result + text.slice(at);
}
