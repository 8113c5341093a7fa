// Generated Cell and MAgg kernels split over the kernel threads: large
// operators (dense, CSR walked, CSR through row buffers; cell-wise, row,
// column and full aggregates, several aggregates at once) run in row
// ranges with private accumulators combined per slot, and still equal
// the unfused values to 1e-12 relative.
import assert from "node:assert/strict";
import os from "node:os";
import { before, describe, it } from "node:test";
import { kernelThreads, whenKernelThreadsReady } from "../../engine/runtime/codegen/kernel-runner";
import { handOperator, prepareBlock, type HandOperator } from "../fusion/fused-check";
import { runGenerated } from "./generated-check";

const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;

const DATA = `
A = rand(rows=3000, cols=200, min=-1, max=1, seed=31)
B = rand(rows=3000, cols=200, min=0, max=2, seed=32)
S = rand(rows=3000, cols=200, min=-1, max=1, sparsity=0.3, seed=33)
r = rand(rows=1, cols=200, min=-1, max=1, seed=34)
c = rand(rows=3000, cols=1, min=-1, max=1, seed=35)
`;

const CASES: [string, HandOperator][] = [
  ["s = sum(A * B * c)\nprint(s)", { template: "cell", roots: ["sum(A * B * c)"], main: "A" }],
  ["R = rowSums(A * B + r)\nprint(toString(R))", { template: "cell", roots: ["rowSums(A * B + r)"], main: "A" }],
  ["R = colSums(S * B)\nprint(toString(R))", { template: "cell", roots: ["colSums(S * B)"], main: "S", sparseSafe: true }],
  ["R = colMins(S * B)\nprint(toString(R))", { template: "cell", roots: ["colMins(S * B)"], main: "S", sparseSafe: true }],
  ["R = S * B + S * r\nprint(toString(R))", { template: "cell", roots: ["S * B + S * r"], main: "S", sparseSafe: true }],
  ["R = exp(A) + S\nprint(toString(R))", { template: "cell", roots: ["exp(A) + S"], main: "A" }],
  ["a = sum(A^2)\nb = sum(A * B)\nm = max(A - B)\nprint(a + b + m)", { template: "magg", roots: ["sum(A^2)", "sum(A * B)", "max(A - B)"], main: "A" }],
];

describe("generated cell kernels over the kernel threads", { skip: cores < 2 ? "one core: no kernel threads" : false }, () => {
  before(async () => {
    kernelThreads();
    await whenKernelThreadsReady();
  });
  it("large operators are dispatched to the threads and equal the unfused values", () => {
    const dispatched = () => kernelThreads().pool?.dispatched ?? 0;
    const start = dispatched();
    let walks = 0;
    for (const [computation, spec] of CASES) {
      const checked = prepareBlock(DATA, computation);
      const run = runGenerated(checked, handOperator(checked.block, spec));
      assert.equal(run.difference, undefined, computation);
      if (run.generated.programs.some((p) => p.source.includes("mrp[i]"))) walks++;
    }
    assert.ok(walks >= 3, `only ${walks} kernels walked the CSR input`);
    assert.ok(dispatched() - start >= CASES.length, `only ${dispatched() - start} calls went to the threads`);
  });
});
