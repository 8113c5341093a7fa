/**
 * Work the optimizer no longer repeats (engine/suggest): a plan's fused
 * cost is planned once per block e-graph and chosen nodes (fused-plan-cost.ts),
 * the as-written fusion view is planned when first read (optimize-block.ts),
 * and a statement whose cheapest plan is the original is not priced
 * (statement-plan.ts `extractsOriginal`), and the runtime's compilation
 * keeps no proofs for explanations it never shows. None changes a result.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildBlockEGraph, saturate } from "../../engine/rewrite";
import { analyzeText } from "../../engine/analysis";
import { optimizeBlock, statementRoots } from "../../engine/suggest";
import { fusedPlanCost } from "../../engine/suggest/fused-plan-cost";
import { extractsOriginal, originalPlanFilter, planStatement } from "../../engine/suggest/statement-plan";
import { extractedTerm } from "../../engine/suggest/plan-graph";

const text = ["X = rand(rows=2000, cols=300, seed=1)", "v = rand(rows=300, cols=1, seed=2)", "while (FALSE) {}", "q = sum(X * X) + sum((X %*% v)^2)", "r = t(X) %*% (X %*% v)", "print(q + sum(r))"].join("\n");

function block() {
  const analysis = analyzeText(text);
  // The block after the loop: q and r.
  const info = analysis.dags.blocks.find((b) => b.block.range.start.line === 3)!;
  return { info, stats: analysis.sizes.blocks.get(info.block)!.nodes };
}

/** Each statement's plans as written and cheapest, in a freshly saturated e-graph of the block. */
function plans() {
  const { info, stats } = block();
  const egraph = buildBlockEGraph(info.dag, stats, { explanations: true });
  saturate(egraph.egraph, egraph.attributes, { nodeLimit: 800 });
  const isOriginal = originalPlanFilter(egraph);
  return { egraph, plans: statementRoots(info.block, info.dag).map((root) => planStatement(egraph, root, isOriginal)!) };
}

test("fusedPlanCost: a plan costed again in its block is the same cost, whatever was costed before", () => {
  const a = plans();
  const forward = a.plans.map((p) => [fusedPlanCost(a.egraph, p.before), fusedPlanCost(a.egraph, p.after)]);
  const b = plans();
  const backward = [...b.plans].reverse().map((p) => [fusedPlanCost(b.egraph, p.after), fusedPlanCost(b.egraph, p.before)]).reverse().map(([after, before]) => [before, after]);
  assert.deepEqual(forward, backward);
  for (const [before, after] of forward) assert.ok(before !== undefined && after !== undefined && before.fused > 0 && after.fused <= before.unfused);
  // Asked again for the same plan: the block's stored cost.
  const first = a.plans[0]!;
  assert.equal(fusedPlanCost(a.egraph, first.before), forward[0]![0]);
});

test("the as-written fusion view: enumerable, planned once, carried by JSON and structured clone", () => {
  const { info, stats } = block();
  const result = optimizeBlock({ block: info.block, dag: info.dag, stats, sourceText: text }, { verify: false });
  assert.ok(Object.keys(result).includes("fusion"));
  const view = result.fusion.asWritten;
  assert.equal(result.fusion.asWritten, view);
  assert.ok(view.nodes.length > 0, JSON.stringify({ line: info.block.range, view, n: info.dag.nodes.length }).slice(0, 600));
  assert.deepEqual(structuredClone(result).fusion.asWritten, view);
  assert.deepEqual(JSON.parse(JSON.stringify(result)).fusion.asWritten.nodes.length, view.nodes.length);
  assert.deepEqual({ ...result }.fusion, result.fusion);
});

test("extractsOriginal: a statement whose cheapest plan is the one written is not priced again (it costs the same), others are", () => {
  const sources = [text, ["X = rand(rows=2000, cols=300, seed=1)", "while (FALSE) {}", "s = sum(X %*% t(X))", "print(s)"].join("\n")];
  const kinds = new Set<boolean>();
  for (const source of sources) {
    const analysis = analyzeText(source);
    for (const info of analysis.dags.blocks) {
      const egraph = buildBlockEGraph(info.dag, analysis.sizes.blocks.get(info.block)!.nodes, { explanations: true });
      saturate(egraph.egraph, egraph.attributes, { nodeLimit: 800 });
      const isOriginal = originalPlanFilter(egraph);
      for (const root of statementRoots(info.block, info.dag)) {
        const plan = planStatement(egraph, root, isOriginal);
        if (!plan) continue;
        const same = extractsOriginal(plan);
        kinds.add(same);
        const [before, after] = [fusedPlanCost(egraph, plan.before), fusedPlanCost(egraph, plan.after)];
        if (same) assert.deepEqual(after, before, `${root.target}: the original plan costs what it costs`);
        else assert.notDeepEqual(extractedTerm(plan.after.graph, plan.after.extraction), extractedTerm(plan.before.graph, plan.before.extraction), root.target);
      }
    }
  }
  // Both kinds occur: sum(X %*% t(X)) has a cheaper plan (colSums(X) %*% t(colSums(X))).
  assert.deepEqual([...kinds].sort(), [false, true]);
});

test("explanations off (the runtime's compilation): the same suggestions, work and executable plan, without the rule steps", () => {
  const sources = [
    text,
    ["X = rand(rows=500, cols=200, sparsity=0.01, seed=1)", "U = rand(rows=500, cols=10, seed=2)", "V = rand(rows=200, cols=10, seed=3)", "while (FALSE) {}", "s = sum((X - U %*% t(V))^2)", "print(s)"].join("\n"),
    ["X = rand(rows=3000, cols=200, seed=1)", "Y = rand(rows=3000, cols=100, seed=2)", "v = rand(rows=200, cols=1, seed=3)", "while (FALSE) {}", "a = sum(t(X) %*% Y)", "r = t(X) %*% X %*% v", "print(a + sum(r))"].join("\n"),
  ];
  let suggested = 0;
  for (const source of sources) {
    const analysis = analyzeText(source);
    const info = analysis.dags.blocks.find((b) => b.block.range.start.line === source.split("\n").indexOf("while (FALSE) {}") + 1)!;
    const input = { block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: source };
    const on = optimizeBlock(input, { executable: true, rewrittenView: false });
    const off = optimizeBlock(input, { executable: true, rewrittenView: false, explanations: false });
    assert.deepEqual({ ...off.work, nodes: off.nodes, classes: off.classes, stop: off.stopReason }, { ...on.work, nodes: on.nodes, classes: on.classes, stop: on.stopReason });
    assert.deepEqual(
      off.suggestions.map((s) => ({ ...s, explanation: [] })),
      on.suggestions.map((s) => ({ ...s, explanation: [] })),
    );
    for (const s of on.suggestions) assert.ok(s.explanation.length > 0, `${s.rewritten}: explained with explanations on`);
    for (const s of off.suggestions) assert.deepEqual(s.explanation, []);
    assert.deepEqual(off.executable?.dag.nodes, on.executable?.dag.nodes);
    suggested += on.suggestions.length;
  }
  assert.ok(suggested >= 3, `${suggested} suggestions: the check compares rewrites, not only blocks without one`);
});
