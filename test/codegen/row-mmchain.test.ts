// Row operators that are SystemDS's MMChain run the WebAssembly kernel on X
// in its resident memory when X is large (RESIDENT_MIN_LENGTH values), with
// the values of the as-written plan (1e-9 relative); smaller X, and Row
// operators of other shapes, run the generated JS kernel, with the same values.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession } from "../../engine/execution";
import type { PlanMode } from "../../engine/execution/plan-mode";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import type { Value } from "../../engine/runtime/interpreter";
import { valuesClose } from "../../engine/runtime/matrix/compare";
import { RESIDENT_MIN_LENGTH, residentMemoryOf } from "../../engine/runtime/wasm";

/** Runs `data` then `expr` in a fresh session with plan `plan`; the cells of r and whether X is resident. */
function run(data: string, expr: string, plan: PlanMode): { r: number[]; resident: boolean } {
  const { session } = executionSession({ plan, print: () => undefined });
  assert.ok(session.runCell(data).ok, "the data cell runs");
  const result = session.runCell(expr);
  assert.deepEqual(result.ok ? [] : result.errors, []);
  const cells = (v: Value | undefined): number[] => {
    assert.ok(v?.kind === "matrix", "r is a matrix");
    const m = v.matrix;
    return Array.from({ length: m.rows * m.cols }, (_, k) => m.get(Math.floor(k / m.cols), k % m.cols));
  };
  const x = session.env.get("X");
  return { r: cells(session.env.get("r")), resident: x?.kind === "matrix" && x.matrix.format === "dense" && residentMemoryOf(x.matrix.data) !== undefined };
}

const EXPRESSIONS = ["r = t(X) %*% (w * (X %*% v))", "r = t(X) %*% ((X %*% v) * w)", "r = t(X) %*% (X %*% v)", "r = t(X) %*% ((X %*% v) - w)", "r = t(X) %*% w", "r = t(X) %*% (w * u)"];

function data(rows: number, cols: number): string {
  return `X = rand(rows=${rows}, cols=${cols}, min=-1, max=1, seed=11)\nv = rand(rows=${cols}, cols=1, min=-1, max=1, seed=12)\nw = rand(rows=${rows}, cols=1, min=0, max=2, seed=13)\nu = rand(rows=${rows}, cols=1, min=-1, max=1, seed=14)`;
}

describe("Row MMChain operators", () => {
  // 65,537 x 67: over RESIDENT_MIN_LENGTH values, rows off every block and chunk size, odd columns.
  const [rows, cols] = [65_537, 67];
  assert.ok(rows * cols >= RESIDENT_MIN_LENGTH);
  for (const expr of EXPRESSIONS) {
    it(`${expr}: the WebAssembly kernel on a resident X, values as written`, () => {
      const before = rowOperatorRuns();
      const fused = run(data(rows, cols), expr, "fused");
      const after = rowOperatorRuns();
      assert.ok(fused.resident, "X is not resident");
      assert.equal(after.mmchain - before.mmchain, 1, "the MMChain kernel did not run once");
      const asWritten = run(data(rows, cols), expr, "as-written");
      assert.equal(fused.r.length, cols);
      fused.r.forEach((x, k) => assert.ok(valuesClose(x, asWritten.r[k]!, { relative: 1e-9, absolute: 1e-9 }), `cell ${k}: ${x} vs ${asWritten.r[k]}`));
    });
  }
  it("a small X runs the generated JS kernel, with the same values", () => {
    const before = rowOperatorRuns();
    const fused = run(data(301, 7), EXPRESSIONS[0]!, "fused");
    const after = rowOperatorRuns();
    assert.equal(fused.resident, false);
    assert.equal(after.mmchain, before.mmchain);
    assert.ok(after.kernels > before.kernels, "no Row kernel ran");
    const asWritten = run(data(301, 7), EXPRESSIONS[0]!, "as-written");
    fused.r.forEach((x, k) => assert.ok(valuesClose(x, asWritten.r[k]!, { relative: 1e-9, absolute: 1e-12 })));
  });
});
