/**
 * A copy of a script with DML Lens's rewrites applied, for running it on
 * SystemDS "with the rewrites": each suggestion's edits (what its quick fix
 * would apply) on the text, written to a new temporary folder under the
 * script's own name. The user's file is never changed. A suggestion whose
 * edits overlap one already applied is left out (counted); edits two
 * suggestions share (the assignment of a shared temporary) are applied once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEdits, type TextEdit, type Position } from "../engine/syntax";

export interface RewrittenText {
  text: string;
  /** Suggestions applied. */
  applied: number;
  /** Suggestions left out because their edits overlap an applied one's. */
  skipped: number;
}

/** `text` with each suggestion's edits (one array per suggestion) applied, in the order given. */
export function applyRewrites(text: string, suggestions: readonly (readonly TextEdit[])[]): RewrittenText {
  const accepted: TextEdit[] = [];
  let applied = 0;
  let skipped = 0;
  for (const edits of suggestions) {
    const fresh = edits.filter((e) => !accepted.some((a) => sameEdit(a, e)));
    if (fresh.some((e) => accepted.some((a) => overlaps(a, e)))) {
      skipped++;
      continue;
    }
    accepted.push(...fresh);
    applied++;
  }
  return { text: applyEdits(text, accepted), applied, skipped };
}

export interface RunCopy {
  file: string;
  /** Deletes the copy and its folder. */
  remove(): void;
}

/** Writes `text` to a new temporary folder as `basename(scriptPath)`. */
export function writeRunCopy(text: string, scriptPath: string): RunCopy {
  const folder = mkdtempSync(path.join(os.tmpdir(), "dml-lens-systemds-"));
  const file = path.join(folder, path.basename(scriptPath));
  writeFileSync(file, text);
  return { file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.newText === b.newText && compare(a.range.start, b.range.start) === 0 && compare(a.range.end, b.range.end) === 0;
}

/** Two edits touch the same text: their ranges intersect, or one inserts strictly inside what the other replaces. */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  const aEmpty = compare(a.range.start, a.range.end) === 0;
  const bEmpty = compare(b.range.start, b.range.end) === 0;
  if (aEmpty && bEmpty) return false; // two insertions at a point keep both (in order)
  if (aEmpty) return compare(b.range.start, a.range.start) < 0 && compare(a.range.start, b.range.end) < 0;
  if (bEmpty) return compare(a.range.start, b.range.start) < 0 && compare(b.range.start, a.range.end) < 0;
  return compare(a.range.start, b.range.end) < 0 && compare(b.range.start, a.range.end) < 0;
}

function compare(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}
