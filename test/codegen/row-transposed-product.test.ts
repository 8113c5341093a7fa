// Row operators of exactly `t(X) %*% X`, `t(X) %*% w` or `t(X) %*% S` (S
// CSR) run the kernels that compute them from X in place (tsmm, one pass
// over the rows), with the values of the as-written plan (1e-9 relative);
// where those kernels do not take the call (a product with a dense matrix, a
// dense X the WebAssembly GEMM takes), the generated kernel runs, with the
// same values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession } from "../../engine/execution";
import type { PlanMode } from "../../engine/execution/plan-mode";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import type { Value } from "../../engine/runtime/interpreter";
import { valuesClose } from "../../engine/runtime/matrix/compare";
import { matrixKernels } from "../../engine/runtime/wasm";

/** Runs `data` then `expr` in a fresh session with plan `plan`: the cells of r. */
function run(data: string, expr: string, plan: PlanMode): number[] {
  const { session } = executionSession({ plan, print: () => undefined });
  assert.ok(session.runCell(data).ok, "the data cell runs");
  const result = session.runCell(expr);
  assert.deepEqual(result.ok ? [] : result.errors, []);
  const v: Value | undefined = session.env.get("r");
  assert.ok(v?.kind === "matrix", "r is a matrix");
  const m = v.matrix;
  return Array.from({ length: m.rows * m.cols }, (_, k) => m.get(Math.floor(k / m.cols), k % m.cols));
}

function data(rows: number, cols: number, sparsity = 1): string {
  return `X = rand(rows=${rows}, cols=${cols}, min=-1, max=1, sparsity=${sparsity}, seed=21)\nw = rand(rows=${rows}, cols=1, min=-1, max=1, seed=22)\nM = rand(rows=${rows}, cols=3, min=-1, max=1, seed=23)\nS = rand(rows=${rows}, cols=40, min=1, max=5, sparsity=0.02, seed=24)`;
}

/** The fused plan's r against the as-written one's, and how many Row operators ran the transposed-product kernels. */
function fusedAgainstAsWritten(cells: string, expr: string): number {
  const before = rowOperatorRuns();
  const fused = run(cells, expr, "fused");
  const after = rowOperatorRuns();
  assert.ok(after.kernels > before.kernels, `${expr}: no Row operator ran`);
  const asWritten = run(cells, expr, "as-written");
  assert.equal(fused.length, asWritten.length);
  fused.forEach((x, k) => assert.ok(valuesClose(x, asWritten[k]!, { relative: 1e-9, absolute: 1e-12 }), `${expr}: cell ${k}: ${x} vs ${asWritten[k]}`));
  return after.transposedProduct - before.transposedProduct;
}

describe("Row operators of one transposed product", () => {
  for (const [what, cells] of [
    ["dense 3,001 x 7", data(3001, 7)],
    ["sparse 3,001 x 40 at 5 %", data(3001, 40, 0.05)],
  ] as const) {
    it(`t(X) %*% X and t(X) %*% w over a ${what} X: computed from X, values as written`, () => {
      assert.equal(fusedAgainstAsWritten(cells, "r = t(X) %*% X"), 1);
      assert.equal(fusedAgainstAsWritten(cells, "r = t(X) %*% w"), 1);
    });
  }

  it("t(X) %*% S with a CSR S (ALS-CG's t(U) %*% X): computed from X, values as written", () => {
    assert.equal(fusedAgainstAsWritten(data(3001, 7), "r = t(X) %*% S"), 1);
  });

  it("t(X) %*% M with a dense matrix M runs the generated kernel", () => {
    assert.equal(fusedAgainstAsWritten(data(3001, 7), "r = t(X) %*% M"), 0);
  });

  it("t(X) %*% X over a dense X the WebAssembly GEMM takes runs the generated kernel", (t) => {
    if (matrixKernels().backend !== "wasm-simd") return t.skip("the WebAssembly kernels did not load");
    assert.equal(fusedAgainstAsWritten(data(1000, 40), "r = t(X) %*% X"), 0);
  });
});
