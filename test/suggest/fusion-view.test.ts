/**
 * The block's fusion plan as the surfaces show it (engine/suggest
 * fusion-view.ts): every computed node labelled in DML notation with its
 * sizes and source range, the fused operator that computes it, and each
 * operator with its template, the DML it computes and the DML of the values
 * it reads (variables by name, main input first).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, shiftFusionView } from "../../engine/suggest";

const text = [
  "X = rand(rows=1000, cols=500, seed=1)",
  "v = rand(rows=500, cols=1, seed=2)",
  "w = rand(rows=1000, cols=1, seed=3)",
  "while (FALSE) {}",
  "q = X %*% v",
  "g = t(X) %*% (w * q)",
  "m = rowMaxs(X)",
  "s = colSums(abs(X - 2) * m)",
  "print(sum(g) + sum(s))",
].join("\n");

function asWritten() {
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[1]!;
  return optimizeBlock({ block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: text }, {}).fusion.asWritten;
}

test("nodes: DML labels, sizes, source lines, and the operator that computes each", () => {
  const view = asWritten();
  assert.deepEqual(
    view.nodes.map((n) => `${n.label}${n.rows === null ? "" : `[${n.rows}x${n.cols}]`}@${n.range!.start.line + 1}${n.operator === undefined ? "" : `#${n.operator}`}`),
    ["X[1000x500]@5", "v[500x1]@5", "%*%[1000x1]@5#0", "t[500x1000]@6#0", "w[1000x1]@6", "*[1000x1]@6#0", "%*%[500x1]@6#0", "rowMaxs[1000x1]@7#1", "2@8", "-[1000x500]@8#1", "abs[1000x500]@8#1", "*[1000x500]@8#1", "colSums[1x500]@8#1", "sum@9", "sum@9", "+@9", "print@9"],
  );
  for (const node of view.nodes) for (const c of node.children) assert.ok(c < node.id);
});

test("operators: t(X) %*% (w * (X %*% v)) is one Row operator over X; the column aggregate another", () => {
  const [g, s, ...rest] = asWritten().operators;
  assert.equal(rest.length, 0);
  assert.deepEqual(
    { template: g!.template, variant: g!.variant, text: g!.text, inputs: g!.inputs, mainInput: g!.mainInput, line: g!.range!.start.line, sparseSafe: g!.sparseSafe },
    { template: "row", variant: "col-agg-t", text: "t(X) %*% (w * q)", inputs: ["X", "w", "v"], mainInput: "X", line: 5, sparseSafe: true },
  );
  // q = X %*% v is computed inside the operator: it is covered, not read.
  assert.deepEqual(g!.covered.length, 4);
  assert.deepEqual(
    { template: s!.template, variant: s!.variant, text: s!.text, mainInput: s!.mainInput, covered: s!.covered.length },
    { template: "row", variant: "col-agg", text: "colSums(abs(X - 2) * m)", mainInput: "X", covered: 5 },
  );
  for (const op of [g!, s!]) assert.ok(op.seconds > 0 && op.seconds < op.unfusedSeconds, `${op.text}: ${op.seconds} vs ${op.unfusedSeconds}`);
});

test("a view moved by lines: every range shifts, nothing else changes", () => {
  const view = asWritten();
  const moved = shiftFusionView(view, 3);
  assert.deepEqual(moved.nodes.map((n) => n.range!.start.line), view.nodes.map((n) => n.range!.start.line + 3));
  assert.deepEqual(moved.operators.map((o) => o.range!.end.line), view.operators.map((o) => o.range!.end.line + 3));
  assert.deepEqual({ ...moved, nodes: [], operators: [] }, { ...view, nodes: [], operators: [] });
  assert.deepEqual(moved.operators.map((o) => ({ ...o, range: undefined })), view.operators.map((o) => ({ ...o, range: undefined })));
});
