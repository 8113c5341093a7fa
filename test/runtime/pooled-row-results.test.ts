// rowMins, rowMaxs and rowIndexMax of matrices with at least the buffer
// pool's minimum length of rows write their results into pooled buffers:
// a buffer handed back dirty (every cell 12345) must not show through. The
// results are checked against plain loops, with NaN, -0 and infinities
// among the cells, in both formats.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { aggregateRows, rowIndexMax } from "../../engine/runtime/kernels";
import { bufferPool, DenseMatrix, denseToCsr, type Matrix } from "../../engine/runtime/matrix";

const ROWS = 1100;
const cell = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, -0, NaN, Infinity, -Infinity));
// CSR keeps no -0 (it equals 0, an unstored cell): a sparse case has 0 there.
const matrix = fc
  .integer({ min: 1, max: 6 })
  .chain((cols) => fc.tuple(fc.constant(cols), fc.array(cell, { minLength: ROWS * cols, maxLength: ROWS * cols }), fc.boolean()))
  .map(([cols, cells, sparse]) => [cols, sparse ? cells.map((v) => (v === 0 ? 0 : v)) : cells, sparse] as const);

function build(cols: number, cells: readonly number[], sparse: boolean): Matrix {
  const dense = new DenseMatrix(ROWS, cols, Float64Array.from(cells));
  return sparse ? denseToCsr(dense) : dense;
}

/** Hands a dirty buffer of ROWS values to the pool, so the next result of ROWS rows takes it. */
function dirtyPool(): void {
  const buffer = bufferPool.acquire(ROWS);
  buffer.fill(12345);
  bufferPool.release(buffer);
}

function rowOf(cells: readonly number[], cols: number, i: number): number[] {
  return cells.slice(i * cols, (i + 1) * cols);
}

/** SystemDS's rowIndexMax of one row: the last column of the largest value, NaN passed over, 0 when none compares. */
function indexMax(row: number[]): number {
  let best = -Infinity;
  let index = 0;
  row.forEach((v, j) => {
    if (v >= best) [best, index] = [v, j + 1];
  });
  return index;
}

function column(m: Matrix): number[] {
  assert.equal(m.cols, 1);
  assert.equal(m.format, "dense");
  return Array.from((m as DenseMatrix).data);
}

describe("pooled per-row results", () => {
  it("rowMins and rowMaxs equal plain loops over a dirty pooled buffer", () => {
    fc.assert(
      fc.property(matrix, fc.constantFrom<"min" | "max">("min", "max"), ([cols, cells, sparse], fn) => {
        dirtyPool();
        const hits = bufferPool.stats().hits;
        const got = column(aggregateRows(fn, build(cols, cells, sparse)));
        assert.equal(bufferPool.stats().hits, hits + 1, "the result took the pooled buffer");
        const fold = fn === "min" ? Math.min : Math.max;
        const expected = Array.from({ length: ROWS }, (_, i) => rowOf(cells, cols, i).reduce((a, v) => fold(a, v), fn === "min" ? Infinity : -Infinity));
        assert.deepEqual(got, expected);
      }),
      { numRuns: 40 },
    );
  });

  it("rowIndexMax equals a plain loop over a dirty pooled buffer", () => {
    fc.assert(
      fc.property(matrix, ([cols, cells, sparse]) => {
        dirtyPool();
        const hits = bufferPool.stats().hits;
        const got = column(rowIndexMax(build(cols, cells, sparse)));
        assert.equal(bufferPool.stats().hits, hits + 1, "the result took the pooled buffer");
        assert.deepEqual(got, Array.from({ length: ROWS }, (_, i) => indexMax(rowOf(cells, cols, i))));
      }),
      { numRuns: 40 },
    );
  });

  it("a row of NaN gives NaN (min / max) and 0 (rowIndexMax); -0 is below 0", () => {
    const cells = new Array<number>(ROWS * 2).fill(1);
    [cells[0], cells[1], cells[2], cells[3]] = [NaN, NaN, 0, -0];
    const x = build(2, cells, false);
    const mins = column(aggregateRows("min", x));
    assert.ok(Number.isNaN(mins[0]));
    assert.ok(Object.is(mins[1], -0));
    assert.equal(column(rowIndexMax(x))[0], 0);
    assert.equal(column(rowIndexMax(x))[1], 2);
  });
});
