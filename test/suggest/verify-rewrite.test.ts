/**
 * The runtime as the oracle of a rewrite: equal sides are verified on dense,
 * sparse and empty-row/column inputs; unequal sides are rejected with the
 * input case and the first differing cell; shapes shrink consistently.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomInputs, shrinkDimensions, TRUE_SIZE_MAX_CELLS, TRUE_SIZE_MAX_SECONDS, verifyRewrite, type VariableShape } from "../../engine/suggest";

const shapes: VariableShape[] = [
  { name: "X", kind: "matrix", rows: 6, cols: 5, sparsity: 0.3 },
  { name: "U", kind: "matrix", rows: 6, cols: 1 },
  { name: "V", kind: "matrix", rows: 5, cols: 1 },
];

test("an equal rewrite is verified on every input case", () => {
  const verdict = verifyRewrite("sum((X - U %*% t(V))^2)", "sum(X^2) - 2 * as.scalar(t(U) %*% X %*% V) + sum(U^2) * sum(V^2)", shapes);
  assert.deepEqual(verdict, { verified: true, trials: 6 });
});

test("an unequal rewrite is rejected with the case and the difference", () => {
  const verdict = verifyRewrite("sum((X - U %*% t(V))^2)", "sum(X^2) + sum(U^2) * sum(V^2)", shapes);
  assert.equal(verdict.verified, false);
  if (!verdict.verified) {
    assert.match(verdict.reason, /^-?[\d.e+-]+ vs -?[\d.e+-]+ \(dense inputs, seed \d+\)$/);
    assert.equal(verdict.inputCase, "dense");
  }
});

test("a matrix rewrite that differs in one cell names the cell", () => {
  const verdict = verifyRewrite("X * U", "X * U + (X > 100)", shapes, { cases: ["dense"] });
  assert.equal(verdict.verified, true, "X > 100 is all zero for inputs in [0, 1)");
  const wrong = verifyRewrite("t(X) %*% U", "t(X %*% V)", [...shapes, { name: "W", kind: "scalar" }], { cases: ["dense"] });
  assert.equal(wrong.verified, false);
  if (!wrong.verified) assert.match(wrong.reason, /shapes differ: 5 x 1 vs 1 x 6/);
});

test("a rewrite that breaks on one input kind is rejected for it", () => {
  // Equal where X has no zero, different once empty rows appear.
  const verdict = verifyRewrite("X / X", "X * 0 + 1", shapes, { cases: ["dense", "empty-rows-cols"] });
  assert.equal(verdict.verified, false);
  if (!verdict.verified) assert.equal(verdict.inputCase, "empty-rows-cols");
});

test("large shapes shrink consistently: operands that agreed still agree", () => {
  const big: VariableShape[] = [
    { name: "X", kind: "matrix", rows: 10000, cols: 5000 },
    { name: "V", kind: "matrix", rows: 5000, cols: 1 },
  ];
  const map = shrinkDimensions(big, 40_000);
  assert.ok(map.get(10000)! * map.get(5000)! <= 40_000);
  assert.equal(map.get(1) ?? 1, 1);
  const inputs = randomInputs(big, "sparse", 3, 40_000);
  const x = inputs.get("X")!;
  const v = inputs.get("V")!;
  assert.ok(x.kind === "matrix" && v.kind === "matrix");
  if (x.kind === "matrix" && v.kind === "matrix") assert.equal(x.matrix.cols, v.matrix.rows);
  assert.equal(verifyRewrite("X %*% V", "t(t(V) %*% t(X))", big).verified, true);
});

test("a statement with sizes of its own is checked on inputs of their true sizes when shrunk ones fail it, up to TRUE_SIZE_MAX_CELLS and TRUE_SIZE_MAX_SECONDS", () => {
  const X: VariableShape[] = [{ name: "X", kind: "matrix", rows: 1000, cols: 800 }];
  // The text's own sizes: a reshape, a slice, a constant matrix, a sequence; each fails on a 64-row stand-in for X.
  const equal: [string, string][] = [
    ["mean(matrix(X, rows=800, cols=1000))", "mean(X)"],
    ["sum(X[1:900, ]) + sum(X[901:1000, ])", "sum(X)"],
    ["sum(X + matrix(1, rows=1000, cols=800))", "sum(X) + 800000"],
    ["sum(X %*% seq(1, 800))", "sum(X %*% seq(1, ncol(X)))"],
  ];
  for (const [original, rewritten] of equal) assert.deepEqual(verifyRewrite(original, rewritten, X), { verified: true, trials: 6 }, original);
  // Both sides estimated too costly to evaluate six times at the true sizes: not checked there.
  assert.deepEqual(verifyRewrite(equal[0]![0], equal[0]![1], X, { trueSizeSeconds: TRUE_SIZE_MAX_SECONDS / 2 }), { verified: true, trials: 6 });
  const costly = verifyRewrite(equal[0]![0], equal[0]![1], X, { trueSizeSeconds: TRUE_SIZE_MAX_SECONDS * 2 });
  assert.equal(costly.verified, false);
  if (!costly.verified) assert.match(costly.reason, /original fails on dense inputs/);
  const wrong = verifyRewrite("sum(X[1:900, ])", "sum(X)", X, { cases: ["dense"] });
  assert.equal(wrong.verified, false, "a slice is not the whole matrix at the true size either");
  if (!wrong.verified) assert.match(wrong.reason, /vs .*dense inputs/);
  // Too large to evaluate at the true size: the failure on shrunk inputs stands.
  const large: VariableShape[] = [{ name: "X", kind: "matrix", rows: 100_000, cols: 800 }];
  assert.ok(100_000 * 800 > TRUE_SIZE_MAX_CELLS);
  const refused = verifyRewrite("sum(X[1:90000, ]) + sum(X[90001:100000, ])", "sum(X)", large);
  assert.equal(refused.verified, false);
  if (!refused.verified) assert.match(refused.reason, /original fails on dense inputs/);
});
