// A Row kernel writes its row-wise roots into pooled buffers without
// clearing them first (row-kernel-builder.ts rowOutputArray): every cell of
// every row must be written, a sparse row's zeros and an empty row
// included. Dirty buffers of the outputs' length (every cell 12345) are put
// into the pool before the fused run; its results must equal the
// as-written plan's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession, type PlanMode } from "../../engine/execution";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import type { Value } from "../../engine/runtime/interpreter";
import { bufferPool } from "../../engine/runtime/matrix";

const ROWS = 8000;
const COLS = 5;

function run(mode: PlanMode, text: string): Map<string, Value> {
  const { session } = executionSession({ plan: mode, scriptPath: "/tmp/row-dirty.dml", params: {}, print: () => undefined });
  const result = session.runScript(text);
  assert.deepEqual(result.errors, []);
  return session.env;
}

function dirtyPool(length: number, count: number): void {
  const buffers = Array.from({ length: count }, () => bufferPool.acquire(length).fill(12345));
  for (const b of buffers) bufferPool.release(b);
}

function cells(v: Value | undefined): number[] {
  assert.ok(v?.kind === "matrix");
  const out: number[] = [];
  for (let i = 0; i < v.matrix.rows; i++) for (let j = 0; j < v.matrix.cols; j++) out.push(v.matrix.get(i, j));
  return out;
}

describe("Row kernels' pooled outputs", () => {
  for (const sparsity of [0.2, 1]) {
    it(`every cell is written (X ${ROWS} x ${COLS} at sparsity ${sparsity}, empty rows included)`, () => {
      // Rows 1..100 of X are empty (a sparse row without stored cells).
      const text = `X = rand(rows=${ROWS}, cols=${COLS}, min=1, max=2, sparsity=${sparsity}, seed=3)\nX[1:100, ] = matrix(0, rows=100, cols=${COLS})\nY = X / (rowSums(X) + 1)\nm = rowMaxs(X / (rowSums(X) + 2))`;
      dirtyPool(ROWS * COLS, 16);
      dirtyPool(ROWS, 16);
      const before = rowOperatorRuns().kernels;
      const h0 = bufferPool.stats().hits;
      const fused = run("fused", text);
      assert.ok(bufferPool.stats().hits > h0, "the fused run took dirty buffers from the pool");
      assert.ok(rowOperatorRuns().kernels > before, "a Row kernel ran");
      const written = run("as-written", text);
      for (const name of ["Y", "m"]) assert.deepEqual(cells(fused.get(name)), cells(written.get(name)), name);
    });
  }
});
