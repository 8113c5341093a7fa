// The sizes the analysis gives the results of the decompositions, quantile,
// moment, cov and the distribution functions, as SystemDS's validator sizes
// them (BuiltinFunctionExpression): `[e, V] = eigen(A)` n x 1 and n x n, svd's
// U m x p, S p x p, V n x p (p = min(m, n)), qr's H and R m x n, lu's P, L, U
// n x n, quantile with a vector of probabilities one row per probability.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { at } from "../checked-access";

/** `name: dims` of every variable the main program's blocks assign (a multi-assignment is a block of its own). */
function sizes(analysis: ProgramAnalysis): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of analysis.dags.blocks.filter((b) => !b.functionName)) {
    const stats = analysis.sizes.blocks.get(block.block)!;
    for (const [name, id] of block.dag.outputs) out[name] = formatStats(at(stats.nodes, id));
  }
  return out;
}

describe("sizes of the decompositions and statistics", () => {
  it("eigen, svd, qr and lu results have SystemDS's dims", () => {
    const a = analyzeText(
      "A = rand(rows=6, cols=6)\nB = rand(rows=10, cols=4)\n[e, V] = eigen(A)\n[U, S, W] = svd(B)\n[U2, S2, W2] = svd(t(B))\n[H, R] = qr(B)\n[P, L, UU] = lu(A)\n",
    );
    const s = sizes(a);
    assert.deepEqual(
      [s.e, s.V, s.U, s.S, s.W, s.U2, s.S2, s.W2, s.H, s.R, s.P, s.L, s.UU].map((x) => x!.split(",")[0]),
      ["6 x 1", "6 x 6", "10 x 4", "4 x 4", "4 x 4", "4 x 4", "4 x 4", "10 x 4", "10 x 4", "10 x 4", "6 x 6", "6 x 6", "6 x 6"],
    );
    assert.equal(s.P, "6 x 6, nnz 6");
    assert.deepEqual(a.diagnostics.filter((d) => d.severity === "error"), []);
  });

  it("quantile of a vector of probabilities is a column, of one probability a scalar; moment, cov, median and cdf are scalars", () => {
    const a = analyzeText(
      'X = rand(rows=50, cols=1)\nP = matrix("0.1 0.5 0.9", rows=3, cols=1)\nQ = quantile(X, P)\nq = quantile(X, 0.5)\nm = moment(X, 2)\nc = cov(X, X)\nd = median(X)\np = pnorm(target=1.5)\nk = icdf(target=0.5, dist="t", df=4)\n',
    );
    const s = sizes(a);
    assert.equal(s.Q!.split(",")[0], "3 x 1");
    for (const name of ["q", "m", "c", "d", "p", "k"]) assert.match(s[name]!, /^scalar/, name);
  });
});

describe("shape checks of the decompositions and statistics", () => {
  const errors = (text: string) => analyzeText(text).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);

  it("reports eigen and lu of a known non-square matrix once, at the call", () => {
    assert.deepEqual(errors("A = rand(rows=3, cols=4)\n[e, V] = eigen(A)\n[P, L, U] = lu(A)\n"), ["2:10 eigen needs a square matrix, but this one is 3 x 4", "3:13 lu needs a square matrix, but this one is 3 x 4"]);
  });

  it("reports the statistics of a known matrix with several columns; a column vector or unknown shape is fine", () => {
    assert.deepEqual(errors("X = rand(rows=10, cols=2)\nm = median(X)\nq = quantile(X[, 1], 0.5)\n"), ["2:5 median needs a column vector, but this one is 10 x 2"]);
    assert.deepEqual(errors('X = read("x.csv")\nm = moment(X, 2)\n'), []);
  });
});
