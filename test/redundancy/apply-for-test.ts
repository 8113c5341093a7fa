// Applies one redundancy option to a script's text, for the tests (the
// product's apply function is engine/redundancy/apply-redundancy.ts, by the
// remac-edits work): `NAME = expression` inserted on its own line before
// `insertBefore`, indented like it, and every occurrence replaced.
import { applyEdits, type TextEdit } from "../../engine/syntax/ranges";
import type { RedundancyOption } from "../../engine/redundancy";

export function applyOptionForTest(text: string, option: RedundancyOption): string {
  const line = text.split("\n")[option.insertBefore.start.line] ?? "";
  const indent = /^\s*/.exec(line)![0];
  const start = { line: option.insertBefore.start.line, character: 0 };
  const edits: TextEdit[] = [
    { range: { start, end: start }, newText: `${indent}${option.name} = ${option.expression}\n` },
    ...option.occurrences.map((o) => ({ range: o.range, newText: o.replacement.split("{name}").join(option.name) })),
  ];
  return applyEdits(text, edits);
}
