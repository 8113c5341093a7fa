// Offsets and texts of ranges (engine/syntax/ranges.ts): the line starts of
// the last few texts are kept, so that the many ranges asked of one
// document do not each read the whole text again; the answers must be the
// same whichever texts were asked before, as LSP defines positions.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { positionOffsets, rangeTexts, textInRange, type Range } from "../../engine/syntax";

/** The offset of a position by walking the text, as LSP defines it (0-based lines; a character past the line's end is its end). */
function referenceOffset(text: string, line: number, character: number): number {
  const lines = text.split("\n");
  if (line >= lines.length) return text.length;
  let offset = 0;
  for (let k = 0; k < line; k++) offset += lines[k]!.length + 1;
  return offset + Math.min(character, lines[line]!.length);
}

test("positionOffsets and textInRange agree with a walk of the text, with texts asked in any order", () => {
  const texts = fc.array(fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "\r", "é"), maxLength: 60 }), { minLength: 1, maxLength: 8 });
  const position = fc.record({ line: fc.nat(12), character: fc.nat(12) });
  fc.assert(
    fc.property(texts, fc.array(fc.tuple(fc.nat(7), position, position), { minLength: 1, maxLength: 30 }), (pool, asks) => {
      for (const [which, a, b] of asks) {
        const text = pool[which % pool.length]!;
        assert.equal(positionOffsets(text)(a), referenceOffset(text, a.line, a.character));
        const [start, end] = referenceOffset(text, a.line, a.character) <= referenceOffset(text, b.line, b.character) ? [a, b] : [b, a];
        const range: Range = { start, end };
        const expected = text.slice(referenceOffset(text, start.line, start.character), referenceOffset(text, end.line, end.character));
        assert.equal(textInRange(text, range), expected);
        assert.equal(rangeTexts(text)(range), expected);
      }
    }),
    { numRuns: 300 },
  );
});

test("textInRange of a document's statements: the same texts after other documents were asked", () => {
  const doc = ["x = 1", "y = x + 2", "", "print(y)"].join("\n");
  const others = Array.from({ length: 6 }, (_, k) => `z${k} = ${k}\n`.repeat(k + 1));
  const ranges: Range[] = [
    { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
    { start: { line: 1, character: 4 }, end: { line: 1, character: 9 } },
    { start: { line: 3, character: 0 }, end: { line: 3, character: 99 } },
  ];
  const first = ranges.map((r) => textInRange(doc, r));
  for (const other of others) textInRange(other, ranges[0]!);
  assert.deepEqual(first, ["x = 1", "x + 2", "print(y)"]);
  assert.deepEqual(ranges.map((r) => textInRange(doc, r)), first);
});
