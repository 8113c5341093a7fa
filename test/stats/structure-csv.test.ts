// The csv loader's direct scan (text without quotes) reads what csv-parse reads.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { csvParseStructure, csvTextToStructure } from "../../engine/stats/structure-csv";
import { dense } from "./arbitraries";

const field = fc.constantFrom("0", "1", "-2.5", "0.0", "", " 3 ", "1e3", "NaN", "00");

const table = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }))
  .chain(([rows, cols]) => fc.array(fc.array(field, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows }));

describe("csv loader: direct scan", () => {
  it("gives csv-parse's structure, for any separator, header, line ending and trailing newline", () => {
    fc.assert(
      fc.property(table, fc.constantFrom(",", ";", "\t", "||"), fc.boolean(), fc.constantFrom("\n", "\r\n"), fc.boolean(), (cells, sep, header, eol, trailing) => {
        const lines = cells.map((row) => row.join(sep));
        if (header) lines.unshift(cells[0]!.map((_, j) => `c${j}`).join(sep));
        const text = lines.join(eol) + (trailing ? eol : "");
        const sidecar = { rows: null, cols: null, nnz: null, header, sep };
        const scanned = csvTextToStructure(text, sidecar);
        const parsed = csvParseStructure(text, sidecar);
        assert.equal(scanned.ok, parsed.ok, JSON.stringify([text, scanned, parsed]));
        if (!scanned.ok || !parsed.ok) return;
        assert.deepEqual(dense(scanned.structure), dense(parsed.structure));
        assert.deepEqual(Array.from(scanned.structure.rowPointers), Array.from(parsed.structure.rowPointers));
      }),
      { numRuns: 300 },
    );
  });

  it("skips empty lines, reports bad fields and ragged rows", () => {
    const sidecar = { rows: null, cols: null, nnz: null, header: false, sep: "," };
    const ok = csvTextToStructure("1,0\n\n0,2\n\n", sidecar);
    assert.ok(ok.ok);
    assert.deepEqual(dense(ok.structure), [
      [1, 0],
      [0, 1],
    ]);
    const bad = csvTextToStructure("1,0\n0,x\n", sidecar, "m.csv");
    assert.ok(!bad.ok && /m\.csv:2: 'x' in column 2 is not a number/.test(bad.message));
    const ragged = csvTextToStructure("1,0\n0\n", sidecar, "m.csv");
    assert.ok(!ragged.ok && /m\.csv:2: 1 fields, but the first record has 2/.test(ragged.message));
  });
});
