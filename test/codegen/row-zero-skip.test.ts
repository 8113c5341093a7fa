// `t(A) %*% B` in a Row kernel adds A_ij * B_i to the sums for each cell of
// A's row; a zero cell adds nothing when B's row is finite, so its
// multiply-adds are skipped (kmeans' `t(P) %*% X`: P has one non-zero per
// row). A row of B with a NaN or an infinity is not skipped: 0 * NaN is
// NaN, as the unfused product computes it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { handOperator, prepareBlock } from "../fusion/fused-check";
import { generatedDifference, runGenerated } from "./row-check";

function data(nonFinite: string): string {
  return `
X = rand(rows=60, cols=10, min=-1, max=1, seed=71)
${nonFinite}
P = (rand(rows=60, cols=5, min=0, max=1, seed=72) > 0.4)
`;
}

describe("Row kernels skip zeros of the left side of t(A) %*% B", () => {
  for (const [name, nonFinite] of [
    ["finite rows", ""],
    ["a NaN in X", "X[7, 3] = NaN"],
    ["an infinity in X", "X[9, 1] = -1/0"],
  ] as const) {
    it(`${name}: equal to the unfused product`, () => {
      const expr = "t(P * 2) %*% X";
      const checked = prepareBlock(data(nonFinite), `R = ${expr}\nprint(toString(R))`);
      const op = handOperator(checked.block, { template: "row", main: "X", roots: [expr] });
      const run = runGenerated(checked, op);
      assert.equal(generatedDifference(checked, op, run), undefined, expr);
      const source = run.generated.programs[0]?.source ?? "";
      assert.match(source, /if \(x !== 0 \|\| !fin\d+\)/, `the zero test:\n${source}`);
      const result = run.values.get(op.roots[0]!)!;
      if (result.kind !== "matrix") assert.fail("a matrix result");
      // The row with the non-finite cell is not skipped: that column of the result is non-finite for every column of P (0 * NaN is NaN), not only where P's row is non-zero.
      const column = { "finite rows": -1, "a NaN in X": 2, "an infinity in X": 0 }[name];
      for (let c = 0; c < 5; c++) for (let j = 0; j < 10; j++) assert.equal(Number.isFinite(result.matrix.get(c, j)), j !== column, `R[${c + 1}, ${j + 1}] = ${result.matrix.get(c, j)}`);
    });
  }

  it("a narrow right side (fewer than four columns) is not tested cell by cell", () => {
    const expr = "t(X * 2) %*% P[, 1:2]";
    const checked = prepareBlock(data(""), `R = ${expr}\nprint(toString(R))`);
    const op = handOperator(checked.block, { template: "row", main: "X", roots: [expr] });
    const run = runGenerated(checked, op);
    assert.equal(generatedDifference(checked, op, run), undefined, expr);
    assert.doesNotMatch(run.generated.programs[0]?.source ?? "", /x !== 0/);
  });
});
