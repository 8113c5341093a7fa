/**
 * Diagnostics of an older version carried over to the current text until
 * the analysis catches up: lines above the edit keep theirs, lines below it
 * move with the edit, and those on edited lines are dropped (their text
 * changed, so their message may no longer hold).
 */
import type { Diagnostic } from "../../engine/syntax";

export function carryOver(oldText: string, newText: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const before = oldText.split("\n");
  const after = newText.split("\n");
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  const firstMovedLine = before.length - suffix;
  const delta = after.length - before.length;
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (d.range.end.line < prefix) kept.push(d);
    else if (d.range.start.line >= firstMovedLine) {
      kept.push({ ...d, range: { start: { ...d.range.start, line: d.range.start.line + delta }, end: { ...d.range.end, line: d.range.end.line + delta } } });
    }
  }
  return kept;
}
