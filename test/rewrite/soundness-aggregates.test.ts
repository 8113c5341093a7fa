/**
 * Soundness of the rules for cell-wise operators outside + - * and for the
 * non-sum aggregates, with the runtime as the oracle: random well-typed
 * expressions over those operators (broadcast vectors, 1 x 1 matrices,
 * transposes, row/column/full min, max, mean, var, sd, prod), saturated,
 * then plans extracted under random costs and evaluated against the
 * original on random inputs. (soundness.test.ts covers the sum-product
 * operators; its generator makes none of these.)
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
  r: { rows: 1, cols: 3 },
  y: { rows: 1, cols: 1 },
  s: "scalar",
};

const VARIABLES: VariableShape[] = Object.entries(SHAPES).map(([name, shape]) =>
  shape === "scalar" ? { name, kind: "scalar" } : { name, kind: "matrix", rows: shape.rows, cols: shape.cols },
);

const CELLWISE = ["/", "<", "<=", ">", ">=", "==", "!=", "&", "|"] as const;
const binary = (op: string, a: string, b: string) => (op === "min" || op === "max" ? `${op}(${a}, ${b})` : `(${a} ${op} ${b})`);
const anyOp = fc.constantFrom(...CELLWISE, "min", "max");

/** Random DML expressions by shape: "m" 4x3, "k" 3x4, "c" 4x1, "r" 1x3, "s" scalar. */
const { m: matrix, s: scalar } = fc.letrec<{ m: string; k: string; c: string; r: string; s: string }>((tie) => ({
  m: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("A", "B", "t(C)"),
    fc.tuple(anyOp, tie("m"), tie("m")).map(([op, a, b]) => binary(op, a, b)),
    fc.tuple(anyOp, tie("m"), fc.oneof(tie("s"), tie("c"), tie("r"), fc.constant("y"))).map(([op, a, b]) => binary(op, a, b)),
    fc.tuple(anyOp, tie("s"), tie("m")).map(([op, a, b]) => binary(op, a, b)),
    fc.tuple(anyOp, tie("m"), tie("c")).map(([op, a, c]) => binary(op, a, `(${c} %*% matrix(1, rows=1, cols=3))`)),
    fc.tuple(anyOp, tie("m"), tie("r")).map(([op, a, r]) => binary(op, a, `(matrix(1, rows=4, cols=1) %*% ${r})`)),
    fc.tuple(tie("k")).map(([k]) => `t(${k})`),
    fc.tuple(tie("m"), fc.constantFrom("-2", "3", "0.5")).map(([a, c]) => `(${a} * ${c})`),
    fc.tuple(tie("m")).map(([a]) => `(-${a})`),
  ),
  k: fc.oneof({ depthSize: "small" }, fc.constant("C"), fc.tuple(tie("m")).map(([a]) => `t(${a})`), fc.tuple(anyOp, fc.constant("C"), tie("s")).map(([op, a, b]) => binary(op, a, b))),
  c: fc.oneof(
    { depthSize: "small" },
    fc.constant("u"),
    fc.tuple(fc.constantFrom("rowMins", "rowMaxs", "rowMeans", "rowVars", "rowSds", "rowProds"), fc.oneof(tie("m"), tie("c"))).map(([f, a]) => `${f}(${a})`),
    fc.tuple(fc.constantFrom("colMins", "colMaxs", "colMeans", "colVars"), tie("k")).map(([f, k]) => `t(${f}(${k}))`),
  ),
  r: fc.oneof(
    { depthSize: "small" },
    fc.constant("r"),
    fc.tuple(fc.constantFrom("colMins", "colMaxs", "colMeans", "colVars", "colSds", "colProds"), fc.oneof(tie("m"), tie("r"))).map(([f, a]) => `${f}(${a})`),
    fc.tuple(fc.constantFrom("rowMins", "rowMaxs", "rowMeans", "rowVars"), tie("k")).map(([f, k]) => `t(${f}(${k}))`),
  ),
  s: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("s", "2", "-0.5", "as.scalar(y)"),
    fc.tuple(fc.constantFrom("min", "max", "mean", "var", "sd", "sum"), fc.oneof(tie("m"), tie("c"), tie("r"))).map(([f, a]) => `${f}(${a})`),
    fc.tuple(fc.constantFrom("min", "max"), fc.constantFrom("rowMins", "colMins", "rowMaxs", "colMaxs"), tie("m")).map(([f, g, a]) => `${f}(${g}(${a}))`),
    fc.tuple(anyOp, fc.constant("y"), fc.constant("y")).map(([op]) => `as.scalar(${binary(op, "y", "(y * 2)")})`),
  ),
}));

test("every plan extracted from a saturated class of cell-wise and aggregate operators evaluates to the original's value", () => {
  fc.assert(
    fc.property(fc.oneof(matrix, scalar), fc.integer({ min: 1, max: 1e9 }), (expression, seed) => {
      const { egraph, root } = saturatedExpression(expression, SHAPES);
      for (const k of [0, 1, 2]) {
        const plan = randomPlan(egraph, root, seed + k);
        const verdict = verifyRewrite(expression, plan, VARIABLES, { trials: 1, cases: ["dense", "sparse"] });
        assert.ok(verdict.verified, `${expression}  =>  ${plan}: ${verdict.verified ? "" : verdict.reason}`);
      }
    }),
    { numRuns: 60, seed: 11 },
  );
});
