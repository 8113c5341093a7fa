/**
 * A rewrite is compared with its original after both are fused: each
 * statement's original plan and rewritten plan are costed with the fused
 * operators the fusion planner picks for them, so a rewrite that only wins
 * because the original was costed operation by operation is not offered.
 * The block's fusion plan is also made for the block as rewritten.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeCost } from "../../engine/cost";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, type BlockOptimization, type SuggestOptions } from "../../engine/suggest";

function optimizeLast(text: string, options: SuggestOptions = {}): BlockOptimization {
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[analysis.dags.blocks.length - 1]!;
  return optimizeBlock({ block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: text }, options);
}

const data = "X = rand(rows=2000, cols=1000, seed=1)\nwhile (FALSE) {}\n";

test("rowSums(X * 2): rowSums(X) * 2 saves 39 % against the unfused original but 20 % against the fused one", () => {
  const text = `${data}r = rowSums(X * 2)\nprint(sum(r))\n`;
  // At a 10 % threshold the rewrite is offered; its cost before is the original with its fused operator.
  const offered = optimizeLast(text, { minSaving: 0.1 });
  assert.equal(offered.suggestions.length, 1);
  const s = offered.suggestions[0]!;
  assert.equal(s.rewritten, "rowSums(X) * 2");
  // The original's operations on their own: X * 2 (writing a 2000 x 1000 intermediate), then rowSums of it.
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[1]!;
  const stats = analysis.sizes.blocks.get(info.block)!.nodes;
  const unfusedBefore = info.dag.nodes
    .filter((n) => (n.op.kind === "binary" && n.op.op === "*") || (n.op.kind === "aggregate" && n.op.direction === "row"))
    .reduce((sum, n) => sum + (nodeCost(n.op, n.inputs.map((i) => stats[i]!), stats[n.id]!) as { cost: { seconds: number } }).cost.seconds, 0);
  assert.ok((unfusedBefore - s.costAfter) / unfusedBefore > 0.35, `against the unfused original: ${(unfusedBefore - s.costAfter) / unfusedBefore}`);
  assert.ok(s.costBefore < unfusedBefore * 0.8, `fused ${s.costBefore} vs unfused ${unfusedBefore}`);
  assert.ok((s.costBefore - s.costAfter) / s.costBefore < 0.21, `against the fused original: ${(s.costBefore - s.costAfter) / s.costBefore}`);
  // As written, the block runs X * 2, rowSums and the sum as one fused operator over X.
  const op = offered.fusion.asWritten.operators[0]!;
  assert.deepEqual([offered.fusion.asWritten.operators.length, op.mainInput, op.covered.length], [1, "X", 3]);
  // At 30 % the rewrite would pass against the unfused original; against the fused one it does not, and is not offered.
  const strict = optimizeLast(text, { minSaving: 0.3 });
  assert.deepEqual(strict.suggestions, []);
  assert.equal(strict.fusion.rewritten, undefined);
});

test("the block as rewritten is planned: the rewrite's nodes in place of the statement's, costs from the same model", () => {
  const text = `${data}P = rand(rows=2000, cols=1, seed=3)\nQ = P * X - P * rowSums(P) * X\nprint(sum(Q))\n`;
  const result = optimizeLast(text);
  assert.equal(result.suggestions.length, 1);
  const { asWritten, rewritten } = result.fusion;
  assert.ok(rewritten);
  // As written: one Row operator reads X and P; the two products and the difference are inside it.
  assert.ok(asWritten.operators.length >= 1);
  // Rewritten: Q = X * (P * (1 - P)) (or an equal order): one matrix product with X, the rest on the vector.
  const labels = rewritten.nodes.map((n) => n.label);
  assert.equal(labels.filter((l) => l === "rowSums").length, 0, labels.join(" "));
  const big = rewritten.nodes.filter((n) => n.rows === 2000 && n.cols === 1000 && n.label !== "rand");
  assert.ok(big.length <= 2, `${big.length} X-sized values: ${big.map((n) => n.label).join(" ")}`);
  assert.ok(rewritten.cost.unfused < asWritten.cost.unfused);
  assert.ok(rewritten.cost.fused <= rewritten.cost.unfused && asWritten.cost.fused <= asWritten.cost.unfused);
  // Ranges: the block's own nodes keep where they are written; the rewrite's new nodes (1 - P) have none.
  for (const node of asWritten.nodes) assert.ok(node.range, `${node.label} has a range`);
  const minus = rewritten.nodes.find((n) => n.label === "-")!;
  assert.equal(minus.range, undefined);
  assert.equal(rewritten.nodes.find((n) => n.label === "rand")!.range!.start.line, 2);
  // Every node's inputs come first; every operator's covered nodes are nodes of the view.
  for (const node of rewritten.nodes) for (const c of node.children) assert.ok(rewritten.nodes.some((n) => n.id === c) && c < node.id);
});

test("statements with a shared temporary: the rewritten block computes it once", () => {
  const text = `${data}U = rand(rows=2000, cols=1, seed=2)\nV = rand(rows=1000, cols=1, seed=3)\nl1 = sum((X - U %*% t(V))^2)\nl2 = sum((X + U %*% t(V))^2)\nprint(l1 + l2)\n`;
  const result = optimizeLast(text.replace("seed=1)", "seed=1, sparsity=0.001)"));
  assert.deepEqual(result.suggestions.map((s) => s.target), ["l1", "l2"]);
  assert.ok((result.suggestions[0]!.temporaries ?? []).length > 0, "shared temporaries");
  const rewritten = result.fusion.rewritten!;
  // sum(X^2) once: one square of X in the whole rewritten block.
  const squares = rewritten.nodes.filter((n) => n.label === "^" && rewritten.nodes.find((c) => c.id === n.children[0])!.label === "X");
  assert.equal(squares.length, 1, rewritten.nodes.map((n) => `${n.id}:${n.label}(${n.children})`).join(" "));
  assert.ok(!rewritten.nodes.some((n) => n.rows === 2000 && n.cols === 1000 && n.label === "%*%"), "no outer product U %*% t(V)");
});

test("a later statement reads the rewritten value: the original's nodes are gone from the rewritten block", () => {
  const text = `${data}P = rand(rows=2000, cols=1, seed=8)\nW = rand(rows=2000, cols=20, seed=6)\nQ = P * X - P * rowSums(P) * X\nR = sum(t(Q) %*% W %*% t(W))\nprint(R)\n`;
  const result = optimizeLast(text);
  assert.deepEqual(result.suggestions.map((s) => s.target), ["Q"]);
  const nodes = result.fusion.rewritten!.nodes;
  const label = (id: number) => nodes.find((n) => n.id === id)!.label;
  assert.equal(nodes.filter((n) => n.label === "rowSums").length, 0, "P * rowSums(P) * X is replaced");
  // t(Q) reads the rewritten Q: a product with X (X * (P * (1 - P)) or an equal order).
  const transposeOfQ = nodes.find((n) => n.label === "t" && label(n.children[0]!) === "*")!;
  const q = nodes.find((n) => n.id === transposeOfQ.children[0])!;
  assert.ok(q.children.some((c) => label(c) === "X"), nodes.map((n) => `${n.id}:${n.label}(${n.children})`).join(" "));
  assert.equal(nodes.filter((n) => n.label === "*" && n.rows === 2000 && n.cols === 1000).length, 1, "Q once");
});

test("without the rewritten view (the runtime plans its own), the suggestions and the executable block are the same", () => {
  const text = `${data}U = rand(rows=2000, cols=1, seed=2)\nV = rand(rows=1000, cols=1, seed=3)\nl1 = sum((X - U %*% t(V))^2)\nprint(l1)\n`;
  const sparse = text.replace("seed=1)", "seed=1, sparsity=0.001)");
  const withView = optimizeLast(sparse, { executable: true });
  const withoutView = optimizeLast(sparse, { executable: true, rewrittenView: false });
  assert.equal(withView.suggestions.length, 1);
  assert.ok(withView.fusion.rewritten, "the editor's result has the rewritten view");
  assert.equal(withoutView.fusion.rewritten, undefined);
  assert.deepEqual(withoutView.suggestions.map((s) => s.rewritten), withView.suggestions.map((s) => s.rewritten));
  assert.deepEqual(withoutView.executable!.dag.nodes.map((n) => n.op), withView.executable!.dag.nodes.map((n) => n.op));
});
