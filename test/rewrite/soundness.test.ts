/**
 * Soundness with the runtime as the oracle: for random well-typed DML
 * expressions, the e-graph is seeded and saturated as the optimizer does,
 * then two different plans are extracted from the root's class (random
 * costs per operator) and both are evaluated on random inputs. Any rule or
 * seed that merges unequal terms makes the two values differ.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { TermShapes } from "../../engine/rewrite";
import { verifyRewrite, type VariableShape } from "../../engine/suggest";
import { randomPlan, saturatedExpression } from "./plan-sampling";

const SHAPES: TermShapes = {
  A: { rows: 4, cols: 3 },
  B: { rows: 4, cols: 3 },
  C: { rows: 3, cols: 4 },
  u: { rows: 4, cols: 1 },
  v: { rows: 3, cols: 1 },
  s: "scalar",
};

const VARIABLES: VariableShape[] = Object.entries(SHAPES).map(([name, shape]) =>
  shape === "scalar" ? { name, kind: "scalar" } : { name, kind: "matrix", rows: shape.rows, cols: shape.cols },
);

/** Random DML expressions by shape: "m" 4x3, "sq" 4x4, "c" 4x1, "s" scalar (with rev, roll, reshape, diag, trace and outer). */
const { m: matrix, s: scalar } = fc.letrec<{ m: string; sq: string; c: string; s: string }>((tie) => ({
  m: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("A", "B", "t(C)"),
    fc.tuple(tie("m"), fc.constantFrom("+", "-", "*"), tie("m")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie("m"), tie("s")).map(([a, b]) => `(${a} * ${b})`),
    fc.tuple(tie("m"), tie("c")).map(([a, b]) => `(${a} * ${b})`),
    fc.tuple(tie("sq"), tie("m")).map(([a, b]) => `(${a} %*% ${b})`),
    fc.tuple(tie("c")).map(([a]) => `(${a} %*% t(v))`),
    fc.tuple(tie("m")).map(([a]) => `(${a})^2`),
    // Reorganizations (rev, roll, row-major reshape) and outer of a column and a row vector.
    fc.tuple(tie("m")).map(([a]) => `rev(${a})`),
    fc.tuple(tie("m"), fc.constantFrom(1, 2, 4)).map(([a, k]) => `roll(${a}, ${k})`),
    fc.tuple(tie("m"), fc.constantFrom("rows=2, cols=6", "rows=12, cols=1", "rows=4, cols=3")).map(([a, dims]) => `matrix(matrix(${a}, ${dims}), rows=4, cols=3)`),
    fc.constant("matrix(C, rows=4, cols=3)"),
    fc.tuple(tie("c"), fc.constantFrom("+", "-", "*", "<", "max")).map(([a, op]) => `outer(${a}, t(v), "${op}")`),
  ),
  sq: fc.oneof(
    { depthSize: "small" },
    fc.constant("(A %*% C)"),
    fc.tuple(tie("m")).map(([a]) => `(${a} %*% t(B))`),
    fc.constant("(u %*% t(u))"),
    fc.tuple(tie("c")).map(([a]) => `diag(${a})`),
    fc.tuple(tie("sq")).map(([a]) => `t(rev(${a}))`),
  ),
  c: fc.oneof(
    { depthSize: "small" },
    fc.constant("u"),
    fc.tuple(tie("m")).map(([a]) => `rowSums(${a})`),
    fc.tuple(tie("m")).map(([a]) => `(${a} %*% v)`),
    fc.tuple(tie("sq")).map(([a]) => `diag(${a})`),
    fc.tuple(tie("c")).map(([a]) => `roll(${a}, 1)`),
  ),
  s: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("s", "2", "0.5"),
    fc.tuple(tie("m")).map(([a]) => `sum(${a})`),
    fc.tuple(tie("c")).map(([a]) => `sum(${a}^2)`),
    fc.tuple(tie("m")).map(([a]) => `as.scalar(colSums(${a}) %*% v)`),
    fc.tuple(tie("sq")).map(([a]) => `trace(${a})`),
    fc.tuple(tie("m"), fc.constantFrom("max", "min", "mean")).map(([a, agg]) => `${agg}(rev(${a}))`),
    fc.tuple(tie("m"), fc.constantFrom("max", "min", "mean")).map(([a, agg]) => `${agg}(t(${a}))`),
  ),
}));

const saturated = (expression: string) => saturatedExpression(expression, SHAPES);

test("every plan extracted from a saturated class evaluates to the original's value", () => {
  fc.assert(
    fc.property(fc.oneof(matrix, scalar), fc.integer({ min: 1, max: 1e9 }), (expression, seed) => {
      const { egraph, root } = saturated(expression);
      for (const k of [0, 1, 2]) {
        const plan = randomPlan(egraph, root, seed + k);
        const verdict = verifyRewrite(expression, plan, VARIABLES, { trials: 1, cases: ["dense", "sparse"] });
        assert.ok(verdict.verified, `${expression}  =>  ${plan}: ${verdict.verified ? "" : verdict.reason}`);
      }
    }),
    { numRuns: 60, seed: 7 },
  );
});
