/**
 * Only suggestions worth taking (issue 13, section 3): a different
 * expression (compared as parsed trees), a saving that is both a share and
 * an absolute amount, no data-dependent value written into the code; and a
 * verifier that evaluates with the constants the optimizer folded.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { bakedNumbers, optimizeBlock, randomInputs, sameExpression, savesEnough, verifyRewrite, type BlockOptimization, type SuggestOptions, type VariableShape } from "../../engine/suggest";

test("the same expression respelled is not a different one: spacing, redundant parentheses, semicolons", () => {
  const same: [string, string][] = [
    ["X%*%Y", "X %*% Y"],
    ["(X %*% Y) + Z", "X %*% Y + Z"],
    ["sum((X))", "sum(X)"],
    ["t(X) %*% y;", "t(X) %*% y"],
    ["a - b - c", "(a - b) - c"],
    ["-(x) * 2", "-x * 2"],
    ["X  ^  2", "(X^2)"],
    ["matrix(0, rows = d, cols = 1)", "matrix(0,rows=d,cols=1)"],
  ];
  for (const [a, b] of same) assert.equal(sameExpression(a, b), true, `${a} vs ${b}`);
});

test("different trees are different expressions, even with the same characters", () => {
  const different: [string, string][] = [
    ["t(X) %*% Y", "t(t(Y) %*% X)"],
    ["a - (b - c)", "a - b - c"],
    ["X %*% (Y %*% Z)", "(X %*% Y) %*% Z"],
    ["sum(X * Y)", "sum(Y * X)"],
    ["matrix(0, rows=d, cols=1)", "matrix(0, rows=30, cols=1)"],
    ["2^3^2", "(2^3)^2"],
  ];
  for (const [a, b] of different) assert.equal(sameExpression(a, b), false, `${a} vs ${b}`);
});

test("a saving must reach both the share and the absolute amount", () => {
  const defaults = { minSaving: 0.2, minSavingMs: 1 };
  // [before s, after s, worth it]
  const cases: [number, number, boolean][] = [
    [0.25, 0.0014, true], // 178x and 249 ms
    [0.01, 0.0079, true], // 21 % and 2.1 ms
    [0.01, 0.0081, false], // 19 %: below the share
    [0.0009, 0.0001, false], // 89 % but 0.8 ms: nobody notices
    [0.002, 0.001, true], // 50 % and exactly 1 ms
    [0, 0, false], // "0 s -> 0 s"
    [1e-9, 1e-12, false], // nanoseconds
    [10, 9, false], // a second, but only 10 %
    [0.5, 0.6, false], // more expensive
    [Infinity, 1, false], // unknown cost before
  ];
  for (const [before, after, worth] of cases) assert.equal(savesEnough(before, after, defaults), worth, `${before} -> ${after}`);
  // The thresholds are settings: stricter and looser.
  assert.equal(savesEnough(0.01, 0.0079, { minSaving: 0.5, minSavingMs: 1 }), false);
  assert.equal(savesEnough(0.01, 0.0079, { minSaving: 0.2, minSavingMs: 5 }), false);
  assert.equal(savesEnough(0.0009, 0.0001, { minSaving: 0.2, minSavingMs: 0 }), true);
});

test("numbers the original computes from data, parameters or sizes are baked when the rewrite writes them", () => {
  const sizes = new Set([30, 2000]);
  assert.deepEqual(bakedNumbers("matrix(0, rows=ncol(X), cols=1)", "matrix(0, rows=30, cols=1)", sizes), [30]);
  assert.deepEqual(bakedNumbers("X %*% matrix(1, rows=ncol(X), cols=1)", "X %*% matrix(1, rows=30, cols=1)", sizes), [30]);
  assert.deepEqual(bakedNumbers("sum(X) / nrow(X)", "sum(X) / 2000", sizes), [2000]);
  assert.deepEqual(bakedNumbers("length(y) * s", "2000 * s", sizes), [2000]);
  // A constant folded from a parameter (tol = ifdef($tol, 1e-6)): not a size, but no literal of the original either.
  assert.deepEqual(bakedNumbers("tol^2 * r", "1e-12 * r", new Set([1e-6, 1e-12])), [1e-12]);
  // A size that happens to be small is still a size.
  assert.deepEqual(bakedNumbers("X * ncol(X)", "X * 2", new Set([2])), [2]);
});

test("the original's own literals and the constants rules introduce are not baked", () => {
  const sizes = new Set([30, 2000]);
  assert.deepEqual(bakedNumbers("sum((X - U %*% t(V))^2)", "sum(X^2) - 2 * as.scalar(t(U) %*% X %*% V) + sum(U^2) * sum(V^2)", sizes), []);
  assert.deepEqual(bakedNumbers("P * Xd - P * rowSums(P) * Xd", "Xd * (P * (1 - P))", sizes), []);
  assert.deepEqual(bakedNumbers("matrix(0, rows=30, cols=1) + X", "X + matrix(0, rows=30, cols=1)", sizes), [], "30 is written in the original");
  assert.deepEqual(bakedNumbers("X * 0.5 + X * 0.5", "X", sizes), []);
  assert.deepEqual(bakedNumbers("-(X - Y)", "Y - X", sizes), []);
});

test("the verifier binds scalars the analysis knows to their values, mapped like the dimensions they are", () => {
  const shapes: VariableShape[] = [
    { name: "X", kind: "matrix", rows: 10000, cols: 30 },
    { name: "d", kind: "scalar", value: 30 },
    { name: "n", kind: "scalar", value: 10000 },
    { name: "lambda", kind: "scalar", value: 0.001 },
  ];
  const inputs = randomInputs(shapes, "dense", 5);
  const x = inputs.get("X")!;
  assert.ok(x.kind === "matrix");
  if (x.kind !== "matrix") return;
  assert.deepEqual(inputs.get("d"), { kind: "scalar", value: x.matrix.cols, type: "double" });
  assert.deepEqual(inputs.get("n"), { kind: "scalar", value: x.matrix.rows, type: "double" });
  assert.deepEqual(inputs.get("lambda"), { kind: "scalar", value: 0.001, type: "double" });
  // matrix(0, rows=d, cols=1) used to fail with "dimensions must be non-negative integers, got 0.789".
  assert.deepEqual(verifyRewrite("t(X) %*% (X %*% matrix(0, rows=d, cols=1))", "matrix(0, rows=d, cols=1)", shapes), { verified: true, trials: 6 });
  assert.equal(verifyRewrite("sum(X) / (n * d) + lambda", "mean(X) + lambda", shapes).verified, true);
  // A wrong rewrite still fails: the bound value matters.
  assert.equal(verifyRewrite("X %*% matrix(1, rows=d, cols=1)", "rowSums(X) * 2", shapes).verified, false);
});

test("a scalar of unknown value used as a dimension gets a positive integer", () => {
  const shapes: VariableShape[] = [
    { name: "k", kind: "scalar", dimension: true },
    { name: "c", kind: "scalar" },
  ];
  for (let seed = 1; seed <= 20; seed++) {
    const k = randomInputs(shapes, "dense", seed).get("k")!;
    assert.ok(k.kind === "scalar" && Number.isInteger(k.value) && (k.value as number) >= 1, JSON.stringify(k));
  }
  assert.equal(verifyRewrite("sum(matrix(c, rows=k, cols=k))", "c * k * k", shapes).verified, true);
});

/** The optimizer on every block of a script; the analysis as `dml explain` does it. */
function optimize(text: string, options: SuggestOptions = {}): BlockOptimization[] {
  const analysis = analyzeText(text);
  return analysis.dags.blocks.flatMap((info) => {
    const sizes = analysis.sizes.blocks.get(info.block);
    return sizes ? [optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, options)] : [];
  });
}

const SIZE_SCRIPT = `
X = rand(rows=2000, cols=30, seed=1)
y = rand(rows=2000, cols=1, seed=2)
d = ncol(X)
n = nrow(X)
w = matrix(0, rows=d, cols=1)
o = matrix(1, rows=n, cols=1)
s = sum(t(o) %*% X)
v = (X %*% matrix(1, rows=ncol(X), cols=1)) * 2
q = sum(X * matrix(1, rows=nrow(X), cols=d))
print(sum(w) + s + sum(v) + q)
`;

test("size expressions stay symbolic: no suggestion writes the data's sizes, none is dropped for a bad dimension", () => {
  for (const options of [{}, { minSaving: 0, minSavingMs: 0 }]) {
    const results = optimize(SIZE_SCRIPT, options);
    for (const r of results) {
      for (const s of r.suggestions) {
        const texts = [s.rewritten, ...(s.temporaries ?? []).map((t) => t.text)];
        for (const text of texts) assert.doesNotMatch(text, /\b(30|2000)\b/, `${s.target} = ${text} bakes a size of X`);
      }
      for (const d of r.dropped) assert.doesNotMatch(d.reason, /dimensions must be/, `${d.target}: ${d.reason}`);
    }
  }
});

test("with the default thresholds, no suggestion saves less than 20 % or 1 ms; looser thresholds let small ones through", () => {
  // The SPORES statements on small data: every saving is far below a millisecond.
  const small = `
X = rand(rows=30, cols=20, sparsity=0.1, seed=1)
U = rand(rows=30, cols=1, seed=2)
V = rand(rows=20, cols=1, seed=3)
W = rand(rows=30, cols=4, seed=4)
H = rand(rows=4, cols=20, seed=5)
l1 = sum((X - U %*% t(V))^2)
s1 = sum(W %*% H)
print(l1 + s1)
`;
  const strict = optimize(small).flatMap((r) => r.suggestions);
  assert.deepEqual(strict.map((s) => s.target), []);
  const loose = optimize(small, { minSaving: 0, minSavingMs: 0 }).flatMap((r) => r.suggestions);
  assert.ok(loose.length >= 1, "the same statements have cheaper forms when any saving counts");
  for (const s of loose) assert.ok(s.costBefore - s.costAfter < 0.001, `${s.target}: ${s.costBefore} -> ${s.costAfter}`);
});

test("a folded size stays symbolic in the printed rewrite, also through a rewrite of the expression around it", () => {
  const script = `
X = rand(rows=150, cols=4, seed=1)
mu = colMeans(X)
Z = X - mu
sigma = sqrt(colSums((X - mu)^2) / (nrow(X) - 1))
C = t(Z) %*% Z / (nrow(Z) - 1)
m = sum(X) / (nrow(X) * ncol(X))
print(sum(sigma) + sum(C) + m)
`;
  const results = optimize(script, { minSaving: 0, minSavingMs: 0 });
  for (const r of results) {
    for (const s of r.suggestions) assert.deepEqual(bakedNumbers(s.original, s.rewritten, new Set()), [], `${s.target} = ${s.rewritten}`);
    for (const d of r.dropped) assert.doesNotMatch(d.reason, /would write|dimensions must be/, `${d.target}: ${d.rewritten}: ${d.reason}`);
  }
});

test("folding the script's own literals does not cost a statement its rewrite: the chain is reordered and the literals are written as spelled", () => {
  // Each statement's product chain costs 281x less as G %*% (t(V) %*% V); the plans with `/ 2000` as
  // `* 5.0E-4` or `3 * ... * 4` as `12 * ...` were extracted first and then dropped for writing new numbers.
  const statements = [
    "Z = G %*% t(V) %*% V / 2000",
    "Z = (G %*% t(V) %*% V) / 4",
    "Z = 3 * (G %*% t(V) %*% V) * 4",
    "Z = -(G %*% t(V) %*% V) / 3",
    "Z = G %*% t(V) %*% V / nrow(V)",
  ];
  for (const statement of statements) {
    const results = optimize(`G = rand(rows=5000, cols=10, seed=1)\nV = rand(rows=2000, cols=10, seed=2)\n${statement}\nprint(sum(Z))\n`);
    const suggestions = results.flatMap((r) => r.suggestions).filter((s) => s.target === "Z");
    assert.equal(suggestions.length, 1, `${statement}: dropped ${JSON.stringify(results.flatMap((r) => r.dropped))}`);
    const s = suggestions[0]!;
    assert.match(s.rewritten, /t\(V\) %\*% V/, `${statement} -> ${s.rewritten}`);
    assert.ok(s.costBefore / s.costAfter > 100, `${statement}: ${s.costBefore} -> ${s.costAfter}`);
    assert.deepEqual(bakedNumbers(s.original, s.rewritten, new Set([5000, 2000, 10])), [], `${statement} -> ${s.rewritten}`);
  }
});
