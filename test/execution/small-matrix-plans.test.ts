// A small matrix (at most SMALL_MATRIX_CELLS cells) is known to a plan by
// its dims only: a loop whose coefficients start as an all-zero (sparse)
// matrix and turn dense keeps one plan, and that plan gives the values the
// as-written run gives; a large matrix still recompiles on a format change.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession, type BlockTiming, type PlanMode } from "../../engine/execution";

function run(script: string, plan: PlanMode): { printed: string[]; timings: BlockTiming[] } {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan, print: (line) => printed.push(line) });
  assert.deepEqual(session.runScript(script).errors, []);
  return { printed, timings: runner.blockTimings() };
}

describe("small matrices in plan signatures", () => {
  it("keeps one plan while B goes from matrix(0) (sparse) to dense, with the as-written values", () => {
    const script = [
      "X = rand(rows=200, cols=10, seed=7)",
      "B = matrix(0, rows=10, cols=2)",
      "for (i in 1:3) {",
      "  while (FALSE) {}",
      "  G = t(X) %*% (X %*% B - 1)",
      "  B = B - 0.001 * G",
      "  print(sum(B^2))",
      "}",
    ].join("\n");
    const fused = run(script, "fused");
    const asWritten = run(script, "as-written");
    const body = fused.timings.find((t) => t.range.start.line + 1 === 5);
    assert.ok(body, "the loop body's block");
    assert.equal(body.runs, 3);
    assert.equal(body.compilations, 1, "B is 10 x 2 in every run: one plan whatever its format");
    assert.equal(fused.printed.length, 3);
    fused.printed.forEach((line, i) => {
      const [got, expected] = [Number(line), Number(asWritten.printed[i])];
      assert.ok(expected > 0 && Math.abs(got - expected) <= 1e-9 * expected, `iteration ${i + 1}: fused ${got} vs as written ${expected}`);
    });
  });
});
