/**
 * The e-graph's rebuild always settles: analysis merges compare data as
 * values (NaN = NaN, -0 = +0, arrays and objects by their elements), and
 * a rebuild's analysis repairs are bounded by counts, so even an analysis
 * that calls every merge a change stops with "rebuildLimit" instead of
 * spinning. The optimizer on NaN, Inf and -0 constants (in scalars and
 * matrices, through several operations) saturates or stops at a work bound.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ANALYSIS_REPAIR_BASE, EGraph, runRewrites, rewrite, sameValue, type Analysis } from "../../engine/egraph";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock } from "../../engine/suggest";

test("sameValue: NaN equals NaN, -0 equals +0, arrays and objects by value", () => {
  assert.equal(sameValue(Number.NaN, Number.NaN), true);
  assert.equal(sameValue(0, -0), true);
  assert.equal(sameValue(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY), true);
  assert.equal(sameValue(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), false);
  assert.equal(sameValue(1, 2), false);
  assert.equal(sameValue(Number.NaN, undefined), false);
  assert.equal(sameValue([1, Number.NaN], [1, Number.NaN]), true);
  assert.equal(sameValue([1, 2], [1, 2, 3]), false);
  assert.equal(sameValue({ a: Number.NaN, b: [0] }, { a: Number.NaN, b: [-0] }), true);
  assert.equal(sameValue({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(sameValue({ a: 1, b: undefined }, { a: 1 }), true);
  assert.equal(sameValue(null, {}), false);
});

/** An analysis that claims every merge changed both sides: the worst case a buggy merge (NaN !== NaN) produces. */
const restless: Analysis<number> = {
  make: () => Number.NaN,
  merge: (a) => ({ data: a, changedA: true, changedB: true }),
};

test("a restless analysis on a cyclic graph: rebuild stops at its repair bound and the run says rebuildLimit", () => {
  const egraph = new EGraph<number>(restless, { analysisRepairsPerNode: 4, checkInvariants: true });
  const x = egraph.addTerm({ op: "x", children: [] });
  const fx = egraph.add({ op: "f", children: [x] });
  const gfx = egraph.add({ op: "g", children: [fx] });
  egraph.union(x, gfx);
  egraph.union(fx, egraph.add({ op: "h", children: [x, fx] }));
  egraph.rebuild();
  assert.equal(egraph.analysisCutoffs, 1);
  const report = runRewrites(egraph, [rewrite("f-h", "(f ?a)", "(h ?a (f ?a))")], { iterationLimit: 10 });
  assert.equal(report.stopReason, "rebuildLimit");
  assert.equal(report.iterations.length, 0);
  assert.ok(ANALYSIS_REPAIR_BASE + 4 * egraph.nodeCount < 1e6);
});

test("a settling analysis is never cut off", () => {
  const settled: Analysis<number> = { make: () => Number.NaN, merge: (a, b) => ({ data: a, changedA: false, changedB: !sameValue(a, b) }) };
  const egraph = new EGraph<number>(settled, { checkInvariants: true });
  const x = egraph.addTerm({ op: "x", children: [] });
  egraph.union(x, egraph.add({ op: "f", children: [x] }));
  egraph.rebuild();
  assert.equal(egraph.analysisCutoffs, 0);
});

/** Each block of the script optimized with the default work budget: how saturation stopped. */
function stopReasons(text: string): string[] {
  const analysis = analyzeText(text);
  const reasons: string[] = [];
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block)!;
    const result = optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, { verify: false, saturation: { nodeLimit: 1500 } });
    assert.equal(result.safetyNet, undefined, `${text}: the time safety net fired (${JSON.stringify(result.safetyNet)})`);
    reasons.push(result.stopReason);
  }
  return reasons;
}

const WORK_BOUNDS = ["saturated", "nodeLimit", "iterationLimit", "applyLimit", "nothing to optimize"];

const nonFiniteScripts = [
  "R = matrix(NaN, rows=10, cols=1)\nprint(sum(R))",
  "x = 0/0\ny = x + x\nprint(y)",
  "x = 0/0\ny = x * 2 - x / 3\nz = y ^ 2 + x\nprint(z)",
  "i = 1/0\nj = i - i\nk = j * 0 + i\nprint(k)",
  "n = -0\nm = n * -1 + n\nprint(m)",
  "X = matrix(1/0, rows=4, cols=4)\nY = t(X) + X * 0\nprint(sum(Y))",
  "X = rand(rows=5, cols=5)\nN = matrix(0/0, rows=5, cols=5)\nY = X * N + N %*% X\nprint(sum(Y))",
  "X = matrix(-0, rows=3, cols=3)\nY = X - t(X) + X * X\nprint(sum(Y))",
  "x = NaN\nX = matrix(x, rows=3, cols=2)\nY = colSums(X) + x\nprint(sum(Y))",
  "a = -1/0\nb = 1/0\nc = a + b\nd = c * c\nprint(d)",
];

for (const text of nonFiniteScripts) {
  test(`NaN / Inf / -0 constants: saturation stops at a work bound, not by spinning: ${text.split("\n").slice(0, 2).join("; ")}`, () => {
    for (const reason of stopReasons(text)) assert.ok(WORK_BOUNDS.includes(reason), `${text}: stopped by ${reason}`);
  });
}
