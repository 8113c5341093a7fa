/**
 * The hover on an expression a fused operator computes (server/src/
 * fusion-hover.ts through hoverText): the operator's template and variant,
 * its inputs, the intermediates it does not materialize, its cost and the
 * block's cost with and without fusion. The block's fusion plan is made by
 * hand (a Cell and a Row operator over the block's real DAG), so the texts
 * are exact whatever the planner picks; the last test takes the planner's
 * own plan of the same block.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { formatSeconds } from "../../engine/cost";
import { optimizeBlock } from "../../engine/suggest";
import type { FusionView } from "../../engine/suggest/block-fusion";
import { nodeExpression, nodeLabel, viewNodes } from "../../server/src/fusion-expressions";
import { fusionHover, notMaterialized } from "../../server/src/fusion-hover";
import { listWords, operatorPhrase, variantWords } from "../../server/src/fusion-words";
import { hoverText } from "../../server/src/optimizer-views";
import { analysis, cell, info, lines, optimizationsWith, row, text, viewOf } from "./hand-made-fusion";

const planned = optimizationsWith({ asWritten: viewOf([cell, row]) });
const hoverAt = (line: number, character: number, optimizations = planned) => hoverText(text, analysis, optimizations, { line, character });

test("a hover inside sum(X * Y * Z): one Cell operator, its inputs, X * Y and X * Y * Z not materialized, both block costs", () => {
  const star = lines[5]!.indexOf("*");
  const hover = hoverAt(5, star);
  assert.ok(hover);
  assert.match(hover, /\*\*Fused operator\*\*: `sum\(X \* Y \* Z\)` runs as one Cell operator \(full aggregate, sparse-safe over X\) {2}\n/);
  assert.match(hover, /\ninputs: X, Y, Z {2}\n/);
  assert.match(hover, /\n`X \* Y` and `X \* Y \* Z` are not materialized {2}\n/);
  assert.match(hover, /\nthis operator: 4\.10 ms \(9\.80 ms as 3 separate operations\)/);
  assert.match(hover, /\n\nblock: 5\.20 ms fused, 12\.3 ms unfused(\n|$)/);
  assert.doesNotMatch(hover, /Row operator/);
  // The expression's own hover (dims, cost) stays first.
  assert.match(hover, /^\*\*X \* Y\*\*: matrix 2,000 × 1,000/);
  // On `sum` and on the statement's target: the same operator.
  assert.match(hoverAt(5, lines[5]!.indexOf("sum"))!, /runs as one Cell operator/);
  assert.match(hoverAt(5, 0)!, /runs as one Cell operator/);
});

test("a hover inside t(X) %*% (v * (X %*% u)): one Row operator over the rows of X with its three intermediates", () => {
  const inner = lines[6]!.lastIndexOf("%*%") + 1;
  const hover = hoverAt(6, inner)!;
  assert.match(hover, /\*\*Fused operator\*\*: `t\(X\) %\*% \(v \* \(X %\*% u\)\)` runs as one Row operator \(column aggregate, transposed, over the rows of X\)/);
  assert.match(hover, /\ninputs: X, v, u {2}\n/);
  assert.match(hover, /\n`t\(X\)`, `X %\*% u` and `v \* \(X %\*% u\)` are not materialized {2}\n/);
  assert.match(hover, /\nthis operator: 1\.20 ms \(2\.50 ms as 4 separate operations\)/);
  assert.match(hover, /block: 5\.20 ms fused, 12\.3 ms unfused/);
  assert.doesNotMatch(hover, /Cell operator/);
});

test("no fused-operator hover where no operator computes the operation, or without operators", () => {
  assert.doesNotMatch(hoverAt(0, lines[0]!.indexOf("rand")) ?? "", /Fused operator|block: /);
  assert.doesNotMatch(hoverAt(7, lines[7]!.indexOf("+")) ?? "", /Fused operator|block: /);
  const none = optimizationsWith({ asWritten: viewOf([]) });
  assert.doesNotMatch(hoverAt(5, lines[5]!.indexOf("*"), none) ?? "", /Fused operator|block: /);
  assert.deepEqual(fusionHover(text, info, undefined, { line: 5, character: 9 }), []);
});

test("the block as rewritten adds its own costs", () => {
  const rewritten = optimizationsWith({ asWritten: viewOf([cell, row]), rewritten: { ...viewOf([]), nodes: [], cost: { fused: 0.002, unfused: 0.003 } } });
  assert.match(hoverAt(5, lines[5]!.indexOf("*"), rewritten)!, /block: 5\.20 ms fused, 12\.3 ms unfused {2}\nblock with the cheaper rewrites applied: 2\.00 ms fused, 3\.00 ms unfused/);
});

test("without source ranges (a stale or rewritten plan) the intermediates are printed from the plan", () => {
  // sum((X - 2 * Y)^2) over inputs X, Y: covered -, *, ^, sum.
  const leaf = (id: number, label: string) => ({ id, label, children: [], rows: 10, cols: 10, nnz: 100 });
  const view: FusionView = {
    nodes: [
      leaf(0, "X"), leaf(1, "2"), leaf(2, "Y"),
      { id: 3, label: "*", children: [1, 2], rows: 10, cols: 10, nnz: 100, operator: 0 },
      { id: 4, label: "-", children: [0, 3], rows: 10, cols: 10, nnz: 100, operator: 0 },
      { id: 5, label: "^", children: [4, 1], rows: 10, cols: 10, nnz: 100, operator: 0 },
      { id: 6, label: "sum", children: [5], rows: null, cols: null, nnz: null, operator: 0 },
      { id: 7, label: "-", children: [6], rows: null, cols: null, nnz: null },
    ],
    operators: [{ ...cell, text: "sum((X - 2 * Y)^2)", roots: [6], covered: [3, 4, 5, 6], inputs: ["X", "Y", "2"] }],
    cost: { fused: 1, unfused: 2 },
    search: viewOf([]).search,
  };
  assert.deepEqual(notMaterialized(view, view.operators[0]!), ["2 * Y", "X - 2 * Y", "(X - 2 * Y)^2"]);
  assert.equal(nodeExpression(viewNodes(view), 7), "-sum((X - 2 * Y)^2)");
  // Short labels: operands of up to 12 characters written out, longer ones as `…`.
  assert.equal(nodeLabel(viewNodes(view), 5), "(X - 2 * Y)^2");
  assert.equal(nodeLabel(viewNodes(view), 6), "sum(…)");
  assert.equal(nodeLabel(viewNodes(view), 7), "-…");
  assert.equal(nodeLabel(viewNodes(view), 3), "2 * Y");
});

test("printed operations are parenthesized by DML's own precedence (%*% binds tighter than %%, a prefix looser than ^)", () => {
  const leaf = (id: number, label: string) => ({ id, label, children: [], rows: 10, cols: 10, nnz: 100 });
  const op = (id: number, label: string, children: number[]) => ({ id, label, children, rows: 10, cols: 10, nnz: 100 });
  const view: FusionView = {
    nodes: [leaf(0, "A"), leaf(1, "B"), leaf(2, "C"), op(3, "%%", [0, 1]), op(4, "%*%", [3, 2]), op(5, "-", [0]), op(6, "^", [5, 1]), op(7, "==", [0, 1]), op(8, "!", [7]), op(9, "!", [0]), op(10, "==", [9, 1])],
    operators: [],
    cost: { fused: 0, unfused: 0 },
    search: viewOf([]).search,
  };
  const nodes = viewNodes(view);
  assert.equal(nodeExpression(nodes, 4), "(A %% B) %*% C");
  assert.equal(nodeExpression(nodes, 6), "(-A)^B");
  assert.equal(nodeExpression(nodes, 8), "!A == B");
  assert.equal(nodeExpression(nodes, 10), "(!A) == B");
});

test("variants and main inputs in words", () => {
  assert.equal(variantWords("full-agg"), "full aggregate");
  assert.equal(variantWords("no-agg"), "no aggregation");
  assert.equal(variantWords("col-agg-b1-t"), "column aggregate, one side matrix, transposed");
  assert.equal(variantWords("right"), "right product");
  assert.equal(operatorPhrase({ template: "outer", variant: "agg", mainInput: "X", sparseSafe: true }), "one Outer operator (full aggregate, over the non-zeros of X)");
  assert.equal(operatorPhrase({ template: "magg", variant: "full-agg", mainInput: "X", sparseSafe: false }), "one MAgg operator (full aggregate, over every cell of X)");
  assert.equal(operatorPhrase({ template: "cell", variant: "no-agg", mainInput: null, sparseSafe: false }), "one Cell operator (no aggregation, over the cells of its result)");
});

test("a hover at every position of the document never throws", () => {
  for (const [line, content] of lines.entries()) {
    for (let character = 0; character <= content.length; character++) {
      const hover = hoverAt(line, character);
      assert.ok(hover === undefined || typeof hover === "string");
    }
  }
});

test("end to end: the planner's own plan of the block gives the Cell hover on sum(X * Y * Z) and the Row hover on t(X) %*% (v * (X %*% u))", () => {
  const sizes = analysis.sizes.blocks.get(info.block)!;
  const optimized = optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, {});
  const optimizations = new Map([[info, optimized]]);
  const { cost } = optimized.fusion.asWritten;
  assert.ok(cost.fused > 0 && cost.fused < cost.unfused, `block ${cost.fused} s fused, ${cost.unfused} s unfused`);
  const block = `block: ${formatSeconds(cost.fused)} fused, ${formatSeconds(cost.unfused)} unfused`;
  const sumHover = hoverAt(5, lines[5]!.indexOf("*"), optimizations)!;
  assert.match(sumHover, /\*\*Fused operator\*\*: `sum\(X \* Y \* Z\)` runs as one Cell operator \(full aggregate, sparse-safe over X\) {2}\ninputs: X, Y, Z {2}\n`X \* Y` and `X \* Y \* Z` are not materialized {2}\nthis operator: [\d.]+ [µm]?s \([\d.]+ [µm]?s as 3 separate operations\)/);
  assert.ok(sumHover.includes(block), sumHover);
  const rowHover = hoverAt(6, lines[6]!.lastIndexOf("%*%") + 1, optimizations)!;
  assert.match(rowHover, /\*\*Fused operator\*\*: `t\(X\) %\*% \(v \* \(X %\*% u\)\)` runs as one Row operator \(column aggregate, transposed, over the rows of X(, sparse-safe)?\) {2}\ninputs: X, v, u {2}\n`t\(X\)`, `X %\*% u` and `v \* \(X %\*% u\)` are not materialized/);
  assert.ok(rowHover.includes(block));
  // The operator's own cost is below its operations run one by one.
  for (const op of optimized.fusion.asWritten.operators) assert.ok(op.seconds < op.unfusedSeconds, `${op.text}: ${op.seconds} vs ${op.unfusedSeconds}`);
});

test("long lists are cut: at most 10 inputs and 6 intermediates are named", () => {
  const many = { ...cell, inputs: Array.from({ length: 14 }, (_, k) => `A${k}`) };
  const hover = hoverAt(5, lines[5]!.indexOf("*"), optimizationsWith({ asWritten: viewOf([many]) }))!;
  assert.match(hover, /\ninputs: A0, A1, A2, A3, A4, A5, A6, A7, A8, A9 and 4 more {2}\n/);
  assert.equal(listWords(["`a`", "`b`", "`c`", "`d`", "`e`", "`f`", "`g`", "`h`"]), "`a`, `b`, `c`, `d`, `e`, `f` and 2 more");
  assert.equal(listWords(["`a`"]), "`a`");
});

test("an intermediate that is a variable's value is named by the variable", () => {
  const plus = info.dag.nodes.find((n) => n.range.start.line === 7 && n.op.kind === "binary" && n.op.op === "+")!.id;
  const wider = { ...cell, text: "s + sum(w)", roots: [plus], covered: [...cell.covered, plus] };
  const hover = hoverAt(5, lines[5]!.indexOf("*"), optimizationsWith({ asWritten: viewOf([wider]) }))!;
  assert.match(hover, /\n`X \* Y`, `X \* Y \* Z` and `s` are not materialized {2}\n/);
});
