// The plan view's page (client/src/plan-html.ts, plan-svg.ts) for the
// server's `dmlLens/plan` answer on sum_product.dml: a laid-out SVG box per
// operation with its cost, an edge per input, each rewrite's plan with its
// fused operators marked, and the fusion plan of each statement SystemDS fuses.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { analyzeText } from "../../engine/stats/program-analysis";
import { optimizeBlock } from "../../engine/suggest";
import { planView } from "../../server/src/plan-view";
import { planHtml } from "../../client/src/plan-html";
import { graphSvg } from "../../client/src/plan-svg";
import { repoRoot } from "../repo-root";

test("graphSvg: one box per node, one arrow per edge, every box inside the drawing", () => {
  const svg = graphSvg(
    [
      { id: "a", title: "X", detail: "10 × 5" },
      { id: "b", title: "t", detail: "5 × 10" },
      { id: "c", title: "%*%", detail: "5 × 5, 1.00 ms", fused: true },
    ],
    [
      { from: "a", to: "b" },
      { from: "b", to: "c" },
      { from: "a", to: "c" },
    ],
    "test",
  );
  assert.equal((svg.match(/<rect x=/g) ?? []).length, 3);
  assert.equal((svg.match(/<polyline /g) ?? []).length, 3);
  assert.equal((svg.match(/class="node fused"/g) ?? []).length, 1);
  const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
  for (const m of svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)) {
    const [x, y, w, h] = m.slice(1).map(Number);
    assert.ok(x! >= 0 && y! >= 0 && x! + w! <= width! + 0.5 && y! + h! <= height! + 0.5, `box ${m[0]} outside ${width} x ${height}`);
  }
});

test("the plan page of sum_product.dml's block: before, each rewrite after, fusion", () => {
  const file = path.join(repoRoot, "examples", "sum_product.dml");
  const text = readFileSync(file, "utf8");
  const analysis = analyzeText(text, { scriptPath: file });
  const line = text.split("\n").findIndex((l) => l.startsWith("l1 ="));
  const info = analysis.dags.blocks.find((b) => b.block.range.start.line <= line && line <= b.block.range.end.line)!;
  const optimized = optimizeBlock({ block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: text }, { saturation: { timeLimitMs: 10_000 } });
  const plan = planView(analysis, new Map([[info, optimized]]), { line, character: 0 }, text)!;
  const html = planHtml(plan, "sum_product.dml", "vscode-resource:", "bm9uY2U=");
  const svgs = html.match(/<svg class="plan"/g) ?? [];
  assert.equal(svgs.length, 1 + plan.after.length);
  assert.ok(plan.after.length >= 5, `${plan.after.length} rewrites`);
  const operations = plan.before.filter((n) => !n.op.startsWith("literal")).length;
  assert.ok(operations < plan.before.length, "literals are left out");
  assert.equal((html.split("<h3>Before")[1]!.split("<h3>After")[0]!.match(/<rect x=/g) ?? []).length, operations);
  assert.match(html, /<h3>G = <code>Uk %\*% \(t\(Vk\) %\*% Vk\) - X %\*% Vk<\/code><\/h3><div class="meta">line \d+: estimated [\d.]+ s → [\d.]+ ms<\/div>/);
  // Nodes are named by the DML they stand for and the variable they assign; the internal operator is the tooltip.
  const before = html.split("<h3>Before")[1]!.split("<h3>After")[0]!;
  assert.match(before, /<title>aggregate\[sum,full\], line 18<\/title><rect[^>]*\/><text[^>]*class="op">l1 = sum\(…\)<\/text>/);
  assert.match(before, /class="op">\(…\)\^2<\/text>/);
  assert.match(before, /class="op">X - U %\*% t\(V\)<\/text>/, "no parentheses around a whole label");
  assert.match(before, /class="op">Uk %\*% t\(Vk\) - X<\/text>/, "an operand is not the statement's value");
  assert.match(before, /class="op">U %\*% t\(V\)<\/text>/);
  assert.match(before, /class="op">G = \(…\) %\*% Vk<\/text>/);
  assert.doesNotMatch(before, /class="op">(binary|aggregate|matmul)/);
  assert.match(before, /class="detail">10,000 × 5,000, nnz [\d,]+, /);
  // Each drawing fits the panel and has zoom buttons; the zoom script runs under the page's nonce only.
  assert.equal((html.match(/<div class="zoom" role="toolbar">/g) ?? []).length, svgs.length);
  assert.match(html, /svg\.plan \{ max-width: 100%; height: auto;/);
  assert.match(html, /script-src 'nonce-bm9uY2U='/);
  assert.match(html, /<script nonce="bm9uY2U=">/);
  const g = plan.after.find((s) => s.target === "G")!;
  assert.equal(g.labels[0], "… - …");
  assert.match(html, /class="op">G = … - …<\/text>/);
  // The fused operators of the block as written (the fusion planner's), one section each.
  assert.equal((html.match(/<section class="fusion">/g) ?? []).length, plan.fusion!.asWritten.operators.length);
  assert.match(html, /id="before-cost">\d+ operations, estimated [\d.]+ s( plus operations of unknown size)?; each box: the DML it computes/);
});
