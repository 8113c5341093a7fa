/**
 * Hover with inter-procedural sizes (server/src/optimizer-views.ts, in
 * process): inside the body of a user function, the stats and cost of a
 * variable or expression with the sizes of each call site; on the targets of
 * a builtin script's call, the dims its body returns (a fixture
 * installation: test/stats/builtin-fixture.ts).
 */
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { hoverText, MAX_HOVER_CALL_SITES } from "../../server/src/optimizer-views";
import { writeInstallation } from "../stats/builtin-fixture";

const none = new Map();

describe("hover with the sizes of call sites", () => {
  const text = [
    "gram = function(matrix[double] A) return (matrix[double] G) {",
    "  G = t(A) %*% A",
    "}",
    "X = rand(rows=1000, cols=20)",
    "Z = rand(rows=50, cols=300)",
    "while (FALSE) {}",
    "G1 = gram(X)",
    "G2 = gram(Z)",
    "",
  ].join("\n");
  const analysis = analyzeText(text);

  test("on an expression in a function body: dims, nnz and cost with each call site's sizes", () => {
    const hover = hoverText(text, analysis, none, { line: 1, character: text.split("\n")[1]!.indexOf("%*%") });
    assert.ok(hover);
    assert.match(hover, /with the sizes of the call at line 7: `t\(A\) %\*% A` is matrix 20 × 20, nnz ≈ 400 \([^)]*\), sparsity 1\.00; estimated cost of this expression: /);
    assert.match(hover, /with the sizes of the call at line 8: `t\(A\) %\*% A` is matrix 300 × 300, nnz ≈ 90,000/);
    const line7 = hover.indexOf("call at line 7");
    assert.ok(line7 > 0 && line7 < hover.indexOf("call at line 8"), "in the order the program reaches them");
  });

  test("on a variable in a function body: its stats at each call site", () => {
    const hover = hoverText(text, analysis, none, { line: 1, character: 2 });
    assert.ok(hover);
    assert.match(hover, /\n\nwith the sizes of the call at line 7: matrix 20 × 20/);
    assert.match(hover, /\n\nwith the sizes of the call at line 8: matrix 300 × 300/);
  });

  test("at most MAX_HOVER_CALL_SITES call sites, then a count of the others", () => {
    const calls = Array.from({ length: MAX_HOVER_CALL_SITES + 2 }, (_, k) => `G${k} = gram(rand(rows=10, cols=${k + 2}))`);
    const many = ["gram = function(matrix[double] A) return (matrix[double] G) {", "  G = t(A) %*% A", "}", "while (FALSE) {}", ...calls, ""].join("\n");
    const hover = hoverText(many, analyzeText(many), none, { line: 1, character: 2 })!;
    assert.equal(hover.match(/with the sizes of the call at line/g)?.length, MAX_HOVER_CALL_SITES);
    assert.match(hover, /\(and 2 more call sites with other sizes\)/);
  });

  test("outside function bodies nothing changes; the targets of a builtin script's call show the dims its body returns", () => {
    const { installation } = writeInstallation();
    const script = "X = rand(rows=100, cols=7)\ny = rand(rows=100, cols=1)\nwhile (FALSE) {}\n[C, Y] = kmeans(X=X, k=5)\nB = lmCG(X=X, y=y)\n";
    const a = analyzeText(script, { installation });
    assert.match(hoverText(script, a, none, { line: 3, character: 1 })!, /^\*\*C\*\*: matrix 5 × 7/);
    assert.match(hoverText(script, a, none, { line: 3, character: 4 })!, /^\*\*Y\*\*: matrix 100 × 1/);
    const b = hoverText(script, a, none, { line: 4, character: 0 })!;
    assert.match(b, /^\*\*B\*\*: matrix 7 × 1/);
    assert.doesNotMatch(b, /with the sizes of the call/);
  });
});
