// Generated Outer kernels split over row ranges give the single-range
// result: row-partitioned outputs (cell-wise values, W %*% V) identical,
// accumulated results (sums, t(W) %*% U) equal to 1e-12 relative; on the
// calling thread in several ranges and with a pool of two workers (which
// chunks the workers claim depends on the machine's load: the result must
// not).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildOuterKernel } from "../../engine/runtime/codegen/outer-kernel";
import { outerRoots } from "../../engine/runtime/codegen/outer-roots";
import { rangeCount, runKernelOn } from "../../engine/runtime/codegen/kernel-runner";
import { helpersSource } from "../../engine/runtime/codegen/kernel-helpers-source";
import { KernelThreadPool } from "../../engine/runtime/codegen/kernel-thread-pool";
import { valueDifference } from "../../engine/runtime/fused";
import { operatorShapes } from "../../engine/runtime/fused/operator-shapes";
import type { Value } from "../../engine/runtime/interpreter";
import { handOperator, prepareBlock } from "../fusion/fused-check";

const DATA = [
  "X = rand(rows=900, cols=700, min=1, max=5, sparsity=0.05, seed=21)",
  "X = X * (rand(rows=900, cols=1, seed=22) > 0.2)",
  "W = (X != 0)",
  "U = rand(rows=900, cols=10, min=-1, max=1, seed=23)",
  "V = rand(rows=700, cols=10, min=-1, max=1, seed=24)",
].join("\n");

const ROOTS = ["sum(W * (X - U %*% t(V))^2)", "W * (U %*% t(V) - X)", "(W * (U %*% t(V) - X)) %*% V", "t(W * (U %*% t(V) - X)) %*% U"];
const SPLIT = { relative: 1e-12, absolute: 1e-12 };

let pool: KernelThreadPool;
before(async () => {
  pool = new KernelThreadPool(2, helpersSource().text);
  await pool.whenReady();
});
after(() => pool.close());

/** The generated kernel of a root over W (CSR), without running it. */
function kernelOf(root: string) {
  const checked = prepareBlock(DATA, `R = ${root}\nprint(toString(R))`);
  const op = handOperator(checked.block, { template: "outer", roots: [root], main: "W", sparseSafe: true });
  const inputs = new Map<number, Value>(op.inputs.map((n) => [n, checked.unfused.value(n)]));
  const shapes = operatorShapes(checked.block.dag, op, inputs);
  const [outerRoot] = outerRoots(checked.block.dag, op, shapes);
  return buildOuterKernel(checked.block.dag, op, inputs, shapes, outerRoot!);
}

/** The root's value computed by its generated kernel on `threads` ranges (workers from `withPool`). */
function rootValue(root: string, threads: number, withPool: boolean): { value: Value; unfused: Value; ranges: number } {
  const checked = prepareBlock(DATA, `R = ${root}\nprint(toString(R))`);
  const op = handOperator(checked.block, { template: "outer", roots: [root], main: "W", sparseSafe: true });
  const inputs = new Map<number, Value>(op.inputs.map((n) => [n, checked.unfused.value(n)]));
  const shapes = operatorShapes(checked.block.dag, op, inputs);
  const [outerRoot] = outerRoots(checked.block.dag, op, shapes);
  const kernel = buildOuterKernel(checked.block.dag, op, inputs, shapes, outerRoot!);
  const acc = runKernelOn(kernel.call, { threads, pool: withPool ? pool : undefined });
  const value = kernel.finish(acc);
  kernel.release();
  return { value, unfused: checked.unfused.value(op.roots[0]!), ranges: rangeCount(kernel.call) };
}

describe("generated Outer kernels over row ranges", () => {
  for (const root of ROOTS) {
    it(`${root}: one range, several on the calling thread, several with two workers`, () => {
      const one = rootValue(root, 1, false);
      assert.equal(valueDifference(one.value, one.unfused, SPLIT), undefined, "one range equals the unfused value");
      const split = rootValue(root, 3, false);
      assert.ok(split.ranges > 1, `the call is large enough to be split (${split.ranges} ranges)`);
      assert.equal(valueDifference(split.value, one.value, SPLIT), undefined, "ranges on the calling thread");
      const threaded = rootValue(root, 3, true);
      assert.equal(valueDifference(threaded.value, one.value, SPLIT), undefined, `ranges with workers (${pool.chunksRunByWorkers} chunks run by workers so far)`);
    });
  }
});

describe("the shape of generated Outer kernels for ALS's products (rank 10)", () => {
  it("W %*% V walks W's rows, unrolls the dot products, and reuses the loaded row of V for the product (one load per value)", () => {
    const kernel = kernelOf("(W * (U %*% t(V) - X)) %*% V");
    assert.equal(kernel.call.rows, 900);
    assert.equal(kernel.call.accumulators, undefined, "row-partitioned: no accumulators");
    const source = kernel.call.program.source;
    assert.match(source, /const d\d+ = 0 \+ u\d+_0 \* v\d+_0 \+ .* \+ u\d+_9 \* v\d+_9;/);
    assert.match(source, /y9 \+= cw \* v\d+_9;/);
    assert.doesNotMatch(source, /rowDots|for \(let c = 0/);
    kernel.release();
  });
  it("t(W) %*% U walks the rows of t(W) (700), so each output row belongs to one range: no n x c buffers per range", () => {
    const kernel = kernelOf("t(W * (U %*% t(V) - X)) %*% U");
    assert.equal(kernel.call.rows, 700);
    assert.equal(kernel.call.accumulators, undefined);
    assert.equal(kernel.call.output.length, 700 * 10);
    assert.match(kernel.call.program.source, /y0 \+= cw \* v\d+_0;/);
    kernel.release();
  });
});
