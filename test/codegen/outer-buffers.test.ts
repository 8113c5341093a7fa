// Outer kernels take their dense outputs from the buffer pool: a product
// run again after its previous result was released reuses that buffer (a
// pool hit, no allocation), with the unfused values each time, also over
// a driver in ordinary (not shared) arrays, as a reader makes it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildOuterKernel } from "../../engine/runtime/codegen/outer-kernel";
import { outerRoots } from "../../engine/runtime/codegen/outer-roots";
import { runKernelOn } from "../../engine/runtime/codegen/kernel-runner";
import { valueDifference } from "../../engine/runtime/fused";
import { operatorShapes } from "../../engine/runtime/fused/operator-shapes";
import type { Value } from "../../engine/runtime/interpreter";
import { bufferPool, CsrMatrix, isSparse, releaseMatrix } from "../../engine/runtime/matrix";
import { handOperator, prepareBlock } from "../fusion/fused-check";

const DATA = [
  "X = rand(rows=300, cols=200, min=1, max=5, sparsity=0.05, seed=31)",
  "W = (X != 0)",
  "U = rand(rows=300, cols=10, min=-1, max=1, seed=32)",
  "V = rand(rows=200, cols=10, min=-1, max=1, seed=33)",
].join("\n");
const CLOSE = { relative: 1e-12, absolute: 1e-12 };

/** The root's generated kernel run `times` times on the calling thread, each result compared with the unfused value and released. */
function runRepeatedly(root: string, times: number, plainDriver: boolean): { hits: number; misses: number } {
  const checked = prepareBlock(DATA, `R = ${root}\nprint(toString(R))`);
  const op = handOperator(checked.block, { template: "outer", roots: [root], main: "W", sparseSafe: true });
  const inputs = new Map<number, Value>(op.inputs.map((n) => [n, checked.unfused.value(n)]));
  const driver = op.binding.mainInput!;
  const w = inputs.get(driver);
  if (plainDriver && w?.kind === "matrix" && isSparse(w.matrix)) {
    // The driver in ordinary arrays (as a reader makes it).
    const m = w.matrix;
    inputs.set(driver, { kind: "matrix", matrix: new CsrMatrix(m.rows, m.cols, Int32Array.from(m.rowPtr), Int32Array.from(m.colIdx), Float64Array.from(m.values)) });
  }
  const shapes = operatorShapes(checked.block.dag, op, inputs);
  const [outerRoot] = outerRoots(checked.block.dag, op, shapes);
  const expected = checked.unfused.value(op.roots[0]!);
  const before = bufferPool.stats();
  for (let k = 0; k < times; k++) {
    const kernel = buildOuterKernel(checked.block.dag, op, inputs, shapes, outerRoot!);
    const value = kernel.finish(runKernelOn(kernel.call, { threads: 1, pool: undefined }));
    kernel.release();
    assert.equal(valueDifference(value, expected, CLOSE), undefined, `run ${k} of ${root}`);
    if (value.kind === "matrix") releaseMatrix(value.matrix);
  }
  const after = bufferPool.stats();
  return { hits: after.hits - before.hits, misses: after.misses - before.misses };
}

describe("Outer kernel outputs from the buffer pool", () => {
  it("W %*% V (rank 10) run three times allocates its output once", () => {
    const counts = runRepeatedly("(W * (U %*% t(V) - X)) %*% V", 3, false);
    assert.ok(counts.hits >= 2, `pool hits ${counts.hits}`);
    assert.ok(counts.misses <= 1, `pool misses ${counts.misses}`);
  });

  it("t(W) %*% U over a driver in ordinary arrays: the same values, the output reused", () => {
    const counts = runRepeatedly("t(W * (U %*% t(V) - X)) %*% U", 3, true);
    assert.ok(counts.hits >= 2, `pool hits ${counts.hits}`);
  });

  it("W * (U %*% t(V)) (cells over the driver's pattern) keeps its values", () => {
    runRepeatedly("W * (U %*% t(V) - X)", 2, true);
  });
});
