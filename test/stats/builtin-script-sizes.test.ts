import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { writeInstallation } from "./builtin-fixture";
import { at } from "../checked-access";

/** `name: dims` of the variables the main program's block at `line` (1-based) assigns. */
function sizesAt(analysis: ProgramAnalysis, line: number): Record<string, string> {
  const block = analysis.dags.blocks.find((b) => !b.functionName && b.block.range.start.line + 1 <= line && line <= b.block.range.end.line + 1);
  assert.ok(block, `no block at line ${line}`);
  const sizes = analysis.sizes.blocks.get(block.block)!;
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => [name, formatStats(at(sizes.nodes, id))]));
}

const { installation } = writeInstallation();

/** Unknown dims: "unknown" where the call's result type is not known either, "? x ?, nnz ?" where it is a matrix (the builtin's declared result). */
const UNKNOWN_DIMS = /^(unknown|\? x \?, nnz \?)$/;

describe("sizes through the builtin scripts of an installation", () => {
  it("[C, Y] = kmeans(X=X, k=5): C is k x ncol(X) and Y nrow(X) x 1, from the body (a helper function, table/sample, the best run's block)", () => {
    const text = "X = rand(rows=100, cols=7)\nwhile (FALSE) {}\n[C, Y] = kmeans(X=X, k=5)\n";
    const a = analyzeText(text, { installation });
    const found = sizesAt(a, 3);
    assert.match(found.C!, /^5 x 7,/);
    assert.equal(found.Y, "100 x 1, nnz 100");
    const other = sizesAt(analyzeText("X = rand(rows=40, cols=3)\nwhile (FALSE) {}\n[C, Y] = kmeans(X, 4, 2)\n", { installation }), 3);
    assert.match(other.C!, /^4 x 3,/, "positional arguments bind in order");
    assert.match(other.Y!, /^40 x 1,/);
  });

  it("B = lmCG(X=X, y=y) is ncol(X) x 1 (through a CG loop); with icpt=1 one row more", () => {
    const text = "X = rand(rows=200, cols=12)\ny = rand(rows=200, cols=1)\nwhile (FALSE) {}\nB = lmCG(X=X, y=y)\nB1 = lmCG(X=X, y=y, icpt=1)\n";
    const found = sizesAt(analyzeText(text, { installation }), 4);
    assert.match(found.B!, /^12 x 1,/);
    assert.match(found.B1!, /^13 x 1,/);
  });

  it("a builtin calls another builtin and a function of a library it source()s from the installation's scripts/", () => {
    const text = "X = rand(rows=50, cols=4)\ny = rand(rows=50, cols=1)\nwhile (FALSE) {}\nB = lm(X=X, y=y, icpt=1)\n";
    const a = analyzeText(text, { installation });
    assert.match(sizesAt(a, 4).B!, /^5 x 1,/);
    const reached = a.sizes.calls.map((c) => `${c.builtin ?? "-"} ${c.functionName} from line ${c.site.start.line + 1}`);
    assert.deepEqual(reached, ["lm m_lm from line 4", "lmCG m_lmCG from line 4", "- firstColumn from line 4"]);
  });

  it("the first argument's type picks m_ or s_", () => {
    const text = "X = rand(rows=9, cols=4)\nwhile (FALSE) {}\nA = scale(X)\nB = scale(3.5)\n";
    const found = sizesAt(analyzeText(text, { installation }), 3);
    assert.match(found.A!, /^9 x 4,/);
    assert.match(found.B!, /^2 x 3,/);
  });

  it("without an installation, or where a user function of that name hides the builtin, the body is not the builtin's", () => {
    const text = "X = rand(rows=100, cols=7)\nwhile (FALSE) {}\n[C, Y] = kmeans(X=X, k=5)\n";
    const without = sizesAt(analyzeText(text), 3);
    assert.match(without.C!, UNKNOWN_DIMS);
    assert.match(without.Y!, UNKNOWN_DIMS);
    const hidden = "kmeans = function(Matrix[Double] X, Integer k) return (Matrix[Double] C, Matrix[Double] Y) { C = X[1:2, ]; Y = X }\nX = rand(rows=100, cols=7)\nwhile (FALSE) {}\n[C, Y] = kmeans(X=X, k=5)\n";
    const found = sizesAt(analyzeText(hidden, { installation }), 4);
    assert.match(found.C!, /^2 x 7,/);
    assert.match(found.Y!, /^100 x 7,/);
  });

  it("one analysis per distinct signature: two calls with the same argument sizes share it; each keeps its body's block sizes", () => {
    const text = "X = rand(rows=30, cols=3)\ny = rand(rows=30, cols=1)\nZ = rand(rows=30, cols=6)\nwhile (FALSE) {}\nB1 = lmCG(X=X, y=y)\nB2 = lmCG(X=X, y=y)\nB3 = lmCG(X=Z, y=y)\n";
    const a = analyzeText(text, { installation });
    const lmcg = a.sizes.calls.filter((c) => c.builtin === "lmCG");
    assert.deepEqual(lmcg.map((c) => c.site.start.line + 1), [5, 7]);
    // In the body analysed for Z, the CG step q = t(X) %*% (X %*% p) is 6 x 1.
    const loop = lmcg[1]!.dags.blocks.find((b) => b.dag.outputs.has("q"))!;
    assert.match(formatStats(lmcg[1]!.blocks.get(loop.block)!.nodes[loop.dag.outputs.get("q")!]!), /^6 x 1,/);
  });

  it("the call work bound holds through builtin scripts: past it, results are unknown and one warning says so", () => {
    const text = "X = rand(rows=30, cols=3)\ny = rand(rows=30, cols=1)\nwhile (FALSE) {}\nB = lm(X=X, y=y)\nC = lm(X=t(X), y=y[1:3, ])\n";
    const a = analyzeText(text, { installation, callSizingNodes: 5 });
    const warnings = a.diagnostics.filter((d) => d.code === "call-sizing-limit");
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.range.start.line + 1, 4);
    assert.match(sizesAt(a, 5).C!, UNKNOWN_DIMS);
  });
});

describe("pathological builtin scripts", () => {
  it("builtins that call each other with growing arguments stop at the depth bound, without a crash", () => {
    const { installation: looping } = writeInstallation({
      "scripts/builtin/ping.dml": "m_ping = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = pong(cbind(X, X)) }\n",
      "scripts/builtin/pong.dml": "m_pong = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = ping(rbind(X, X)) }\n",
    });
    const a = analyzeText("X = rand(rows=2, cols=2)\nwhile (FALSE) {}\nY = ping(X)\n", { installation: looping });
    assert.match(sizesAt(a, 3).Y!, UNKNOWN_DIMS);
    assert.ok(a.sizes.calls.length <= 20, `${a.sizes.calls.length} analyses`);
  });

  it("a builtin script with a syntax error or without its m_ function leaves the result unknown (the checker reports it)", () => {
    const { installation: broken } = writeInstallation({
      "scripts/builtin/lmCG.dml": "m_lmCG = function(Matrix[Double] X return (Matrix[Double] B) { B = X }\n",
      "scripts/builtin/kmeans.dml": "other = function(Matrix[Double] X) return (Matrix[Double] B) { B = X }\n",
    });
    const a = analyzeText("X = rand(rows=2, cols=2)\nwhile (FALSE) {}\nB = lmCG(X=X, y=X)\n[C, Y] = kmeans(X=X)\n", { installation: broken });
    assert.match(sizesAt(a, 3).B!, UNKNOWN_DIMS);
    assert.deepEqual(a.sizes.calls, []);
  });
});
