// Aggregates (full, per row, per column) of every function against plain
// loops, in both formats, including empty, 1 x 1 and vector inputs; and
// the accuracy of the Kahan summation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { AggregateFunction } from "../../engine/program/dag-types";
import { aggregate, aggregateCols, aggregateFull, aggregateRows, kahanSum, kahanSumRanges } from "../../engine/runtime/kernels";
import { CsrMatrix, DenseMatrix, denseToCsr } from "../../engine/runtime/matrix";
import { assertClose, assertMatches, matrixArb, shapeArb } from "./arbitraries";
import { ref, refAggregateValues, refCol, refRow } from "./reference";

const functions: AggregateFunction[] = ["sum", "mean", "min", "max", "prod", "sumSq", "var", "sd"];
const input = shapeArb(7).chain(([m, n]) => matrixArb(m, n));

describe("aggregates", () => {
  it("full, row and column aggregates of every function equal plain loops", () => {
    fc.assert(
      fc.property(fc.constantFrom(...functions), input, (fn, x) => {
        const what = `${fn} of ${x.m.rows}x${x.m.cols} ${x.m.format}`;
        assertClose(aggregateFull(fn, x.m), refAggregateValues(fn, x.ref.cells), `${what} (full)`);
        const rows = ref(x.ref.rows, 1, Array.from({ length: x.ref.rows }, (_, i) => refAggregateValues(fn, refRow(x.ref, i))));
        const cols = ref(1, x.ref.cols, Array.from({ length: x.ref.cols }, (_, j) => refAggregateValues(fn, refCol(x.ref, j))));
        assertMatches(aggregateRows(fn, x.m), rows, `${what} (rows)`);
        assertMatches(aggregateCols(fn, x.m), cols, `${what} (cols)`);
      }),
      { numRuns: 800 },
    );
  });

  it("min and max of all cells are Math.min / Math.max folded: NaN propagates, -0 is below +0, in both formats", () => {
    const cell = fc.constantFrom(0, -0, 1, -1, 2.5, -2.5, NaN, Infinity, -Infinity);
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 12 }), (cells) => {
        const dense = DenseMatrix.fromRows([cells]);
        for (const [fn, f] of [["min", Math.min], ["max", Math.max]] as const) {
          const expected = cells.reduce((acc, v) => f(acc, v), fn === "min" ? Infinity : -Infinity);
          assert.ok(Object.is(aggregateFull(fn, dense), expected), `${fn}(${cells.map(String).join(", ")}) dense: ${aggregateFull(fn, dense)}, expected ${expected}`);
          // A CSR matrix stores its non-zeros (-0 is not stored): its other cells are +0.
          const sparse = denseToCsr(dense);
          const stored = cells.map((v) => (v === 0 ? 0 : v));
          const expectedSparse = stored.reduce((acc, v) => f(acc, v), fn === "min" ? Infinity : -Infinity);
          assert.ok(Object.is(aggregateFull(fn, sparse), expectedSparse), `${fn} sparse: ${aggregateFull(fn, sparse)}, expected ${expectedSparse}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("aggregate() dispatches by direction", () => {
    const x = DenseMatrix.fromRows([[1, 2], [3, 4]]);
    assert.equal(aggregate("sum", "full", x), 10);
    assert.deepEqual((aggregate("sum", "row", x) as DenseMatrix).toRows(), [[3], [7]]);
    assert.deepEqual((aggregate("max", "col", x) as DenseMatrix).toRows(), [[3, 4]]);
  });

  it("conventions: var of one value is 0, of none NaN; min / max / prod of nothing are Inf / -Inf / 1; NaN propagates", () => {
    assert.equal(aggregateFull("var", DenseMatrix.fromRows([[5]])), 0);
    assert.ok(Number.isNaN(aggregateFull("var", new DenseMatrix(0, 3))));
    assert.ok(Number.isNaN(aggregateFull("mean", new DenseMatrix(0, 3))));
    assert.equal(aggregateFull("min", new DenseMatrix(0, 3)), Infinity);
    assert.equal(aggregateFull("max", CsrMatrix.empty(3, 0)), -Infinity);
    assert.equal(aggregateFull("prod", new DenseMatrix(0, 0)), 1);
    assert.ok(Number.isNaN(aggregateFull("max", DenseMatrix.fromRows([[1, NaN, 3]]))));
    assert.ok(Number.isNaN(aggregateFull("sum", DenseMatrix.fromRows([[1, NaN, 3]]))));
    assert.equal(aggregateFull("sum", DenseMatrix.fromRows([[1, Infinity, 3]])), Infinity);
    assert.ok(Number.isNaN(aggregateFull("sum", DenseMatrix.fromRows([[Infinity, -Infinity]]))));
    assert.equal(aggregateFull("min", CsrMatrix.fromTriples(2, 2, [[0, 0, 3]])), 0, "unstored cells are zeros");
    assert.equal(aggregateFull("prod", CsrMatrix.fromTriples(1, 2, [[0, 0, 3]])), 0);
  });

  it("Kahan summation keeps what plain summation loses", () => {
    const values = new Float64Array(1002);
    values[0] = 1e16;
    values.fill(1, 1, 1001);
    values[1001] = -1e16;
    let plain = 0;
    for (const v of values) plain += v;
    assert.notEqual(plain, 1000, "plain summation loses the ones");
    assert.equal(kahanSum(values, 0, values.length), 1000);
    assert.equal(aggregateFull("sum", new DenseMatrix(1, 1002, values)), 1000);
    assert.deepEqual((aggregateCols("sum", new DenseMatrix(1002, 1, values)) as DenseMatrix).toRows(), [[1000]]);
    const tenth = new DenseMatrix(1, 1e6, new Float64Array(1e6).fill(0.1));
    assert.ok(Math.abs(aggregateFull("sum", tenth) - 1e5) < 1e-9);
  });
  it("kahanSum and kahanSumRanges are the two-accumulator Kahan sum, bit for bit: dense and CSR rows, squared, NaN and overflow", () => {
    /** Even and odd cells in two compensated sums, combined with one more compensated step; the plain sum when not finite. */
    const reference = (values: readonly number[], squared: boolean): number => {
      const v = values.map((x) => (squared ? x * x : x));
      const s = [0, 0], c = [0, 0];
      v.forEach((x, i) => {
        const k = i & 1;
        const y = x - c[k]!;
        const t = s[k]! + y;
        c[k] = t - s[k]! - y;
        s[k] = t;
      });
      const y = s[1]! - c[1]! - c[0]!;
      const t = s[0]! + y;
      const sum = t - (t - s[0]! - y);
      return sum - sum === 0 ? sum : v.reduce((p, x) => p + x, 0);
    };
    const value = fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constantFrom(0, -0, 1e308, -1e308, 1e16, -1e16, Infinity, NaN));
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 9 }), { minLength: 1, maxLength: 12 }), fc.boolean(), (rows, squared) => {
        const offsets = new Int32Array(rows.length + 1);
        rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + r.length));
        const flat = new Float64Array(rows.flat());
        const ragged = new Float64Array(rows.length);
        kahanSumRanges(flat, rows.length, offsets, 0, squared, ragged);
        rows.forEach((r, i) => {
          assert.ok(Object.is(ragged[i], reference(r, squared)), `row ${i}`);
          assert.ok(Object.is(kahanSum(flat, offsets[i]!, offsets[i + 1]!, squared), reference(r, squared)), `kahanSum of row ${i}`);
        });
        const width = rows[0]!.length;
        const padded = rows.map((r) => Array.from({ length: width }, (_, j) => r[j] ?? 0));
        const sums = new Float64Array(rows.length);
        kahanSumRanges(new Float64Array(padded.flat()), rows.length, null, width, squared, sums);
        padded.forEach((r, i) => assert.ok(Object.is(sums[i], reference(r, squared)), `dense row ${i}`));
      }),
    );
  });
});
