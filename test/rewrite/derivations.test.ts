/**
 * SystemML's hand-written sum-product rewrites are derived, not hand-coded
 * (issue 5): after saturating the left side with the SPORES rules, the right
 * side is in the same e-class. A right side that is a scalar where the left
 * is a 1x1 matrix (or the reverse) counts when `as.scalar` of the matrix is
 * in the scalar's class.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { proveTermsEqual, type TermShapes } from "../../engine/rewrite";

const shapes: TermShapes = {
  X: { rows: 20, cols: 7 },
  Y: { rows: 20, cols: 7 },
  Z: { rows: 7, cols: 5 },
  V: { rows: 5, cols: 3 },
  A: { rows: 20, cols: 7 },
  B: { rows: 7, cols: 5 },
  C: { rows: 5, cols: 4 },
  U: { rows: 20, cols: 3 },
  W: { rows: 7, cols: 3 },
  eps: "scalar",
  lambda: "scalar",
  s: "scalar",
};

function derives(lhs: string, rhs: string, overrides: TermShapes = {}) {
  const result = proveTermsEqual(lhs, rhs, { ...shapes, ...overrides }, { timeLimitMs: 5000 });
  assert.ok(result.proven, `${lhs} => ${rhs}: not in the same class after saturation (${result.stopReason}, ${result.nodes} nodes)`);
}

const cases: [string, string, TermShapes?][] = [
  ["X * (Y %*% matrix(1, 1, 7))", "X * Y", { Y: { rows: 20, cols: 1 } }],
  ["colSums(X)", "X", { X: { rows: 1, cols: 7 } }],
  ["colSums(X)", "sum(X)", { X: { rows: 20, cols: 1 } }],
  ["rowSums(X)", "X", { X: { rows: 20, cols: 1 } }],
  ["rowSums(X)", "sum(X)", { X: { rows: 1, cols: 7 } }],
  ["colSums(X * Y)", "t(Y) %*% X", { Y: { rows: 20, cols: 1 } }],
  ["rowSums(X * Y)", "X %*% t(Y)", { Y: { rows: 1, cols: 7 } }],
  ["sum(X)", "as.scalar(X)", { X: { rows: 1, cols: 1 } }],
  ["sum(X)", "0", { X: { rows: 20, cols: 7, nnz: 0 } }],
  ["t(X)", "matrix(0, 7, 20)", { X: { rows: 20, cols: 7, nnz: 0 } }],
  ["X %*% Z", "matrix(0, 20, 5)", { X: { rows: 20, cols: 7, nnz: 0 } }],
  ["X * Y", "matrix(0, 20, 7)", { Y: { rows: 20, cols: 7, nnz: 0 } }],
  ["X + Y", "X", { Y: { rows: 20, cols: 7, nnz: 0 } }],
  ["X %*% matrix(1, 1, 1)", "X", { X: { rows: 20, cols: 1 } }],
  ["X %*% Y", "X * as.scalar(Y)", { X: { rows: 20, cols: 1 }, Y: { rows: 1, cols: 1 } }],
  ["sum(A + X)", "sum(A) + sum(X)"],
  ["sum(Y ^ 2)", "t(Y) %*% Y", { Y: { rows: 20, cols: 1 } }],
  ["(-t(X)) %*% Y", "-(t(X) %*% Y)", { Y: { rows: 20, cols: 1 } }],
  ["sum(A %*% B)", "sum(t(colSums(A)) * rowSums(B))"],
  ["X * 1", "X"],
  ["X * X", "X ^ 2"],
  ["X + X", "X * 2"],
  ["(X > 0) - (X < 0)", "sign(X)"],
  ["eps + U %*% t(Y)", "U %*% t(Y) + eps", { Y: { rows: 7, cols: 3 } }],
  ["X - Y * X", "(1 - Y) * X"],
  ["X * (Y * (A %*% B %*% t(B)))", "(X * Y) * (A %*% B %*% t(B))"],
  ["sum(t(X))", "sum(X)"],
  ["sum(rowSums(X))", "sum(X)"],
  ["as.scalar(X * s)", "as.scalar(X) * s", { X: { rows: 1, cols: 1 } }],
  ["colSums(t(X))", "t(rowSums(X))"],
  ["t(X ^ 2)", "t(X) ^ 2"],
  ["sum(lambda * X)", "lambda * sum(X)"],
  ["t(t(X))", "X"],
  ["t(t(A) %*% t(B) + C)", "B %*% A + t(C)", { A: { rows: 7, cols: 5 }, B: { rows: 4, cols: 7 }, C: { rows: 5, cols: 4 } }],
  ["-(-X)", "X"],
];

for (const [lhs, rhs, overrides] of cases) {
  test(`derived: ${lhs}  =>  ${rhs}`, () => derives(lhs, rhs, overrides));
}

test("unequal expressions are not proven equal", () => {
  for (const [lhs, rhs] of [
    ["sum(A %*% B)", "sum(A) * sum(B)"],
    ["t(X)", "X"],
    ["X - Y", "Y - X"],
    ["X * Y", "X + Y"],
  ] as const) {
    const result = proveTermsEqual(lhs, rhs, { ...shapes, X: { rows: 7, cols: 7 }, Y: { rows: 7, cols: 7 } }, { timeLimitMs: 2000 });
    assert.equal(result.proven, false, `${lhs} must not equal ${rhs}`);
  }
});
