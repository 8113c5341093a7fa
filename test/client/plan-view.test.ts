// The plan view's page (client/src/plan-html.ts, plan-svg.ts) for the
// server's `dmlLens/plan` answer on sum_product.dml: a laid-out SVG box per
// operation with its cost, an edge per input, each rewrite's plan, and the fusion plan as written (and as rewritten):
// each fused operator a frame around the operations it computes.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock } from "../../engine/suggest";
import { planView } from "../../server/src/plan-view";
import { planHtml } from "../../client/src/plan-html";
import { graphSvg } from "../../client/src/plan-svg";
import { repoRoot } from "../repo-root";
import { analysis as handAnalysis, cell, info as handInfo, optimizationsWith, row, text as handText, viewOf } from "../server/hand-made-fusion";

test("graphSvg: one box per node, one arrow per edge, every box inside the drawing", () => {
  const svg = graphSvg(
    [
      { id: "a", title: "X", detail: "10 × 5" },
      { id: "b", title: "t", detail: "5 × 10" },
      { id: "c", title: "%*%", detail: "5 × 5, 1.00 ms" },
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
  const drawnFusions = [plan.fusion?.asWritten, plan.fusion?.rewritten].filter((d) => d !== undefined && d.operators.length > 0).length;
  assert.equal(svgs.length, 1 + plan.after.length + drawnFusions);
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
  // The fusion planner's plan as written: one frame per fused operator, or the words that there is none.
  const operators = plan.fusion!.asWritten.operators.length + (plan.fusion!.rewritten?.operators.length ?? 0);
  assert.equal((html.match(/<g class="cluster /g) ?? []).length, operators);
  assert.match(html, /<section class="fusion" id="fusion-as-written"><h4>As written<\/h4>/);
  // The planner fuses l1 = sum((X - U %*% t(V))^2) (line 18; with l2 when one multi-aggregate computes both), among others.
  const fusedLines = plan.fusion!.asWritten.operators.map((op) => op.range?.start.line);
  assert.ok(fusedLines.includes(17), JSON.stringify(fusedLines));
  for (const m of html.matchAll(/class="cluster-label">([^<]*)</g)) assert.match(m[1]!, /^(Cell|Row|MAgg|Outer) · [\d.]+ (µs|ms|s)$/);
  assert.match(html, /<li>line 18: <code>sum\(\(X - U %\*% t\(V\)\)\^2\)(; [^<]*)?<\/code> as one (Cell|Row|MAgg|Outer) operator \([^)]+\); reads <code>X<\/code>/);
  assert.doesNotMatch(html, /No fused operators/);
  assert.match(html, /id="before-cost">\d+ operations, estimated [\d.]+ s( plus operations of unknown size)?; each box: the DML it computes/);
});

/** The rectangles of the drawing with their class: frames (`cluster …`) and node boxes. */
function rects(svg: string): { cls: string; x: number; y: number; w: number; h: number; label: string }[] {
  return [...svg.matchAll(/<g class="(cluster[^"]*|node[^"]*)">(?:<title>[^<]*<\/title>)?<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"[^>]*\/><text[^>]*>([^<]*)<\/text>/g)].map((m) => ({ cls: m[1]!, x: Number(m[2]), y: Number(m[3]), w: Number(m[4]), h: Number(m[5]), label: m[6]! }));
}

const inside = (inner: { x: number; y: number; w: number; h: number }, outer: { x: number; y: number; w: number; h: number }) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;

test("graphSvg with clusters: a labelled frame around exactly its member boxes, inside the drawing", () => {
  const svg = graphSvg(
    ["X", "Y", "a", "b", "c"].map((id) => ({ id, title: id, detail: "10 × 10" })),
    [{ from: "X", to: "a" }, { from: "Y", to: "a" }, { from: "a", to: "b" }, { from: "b", to: "c" }],
    "test",
    [{ id: "op0", label: "Cell · 1.00 ms", members: ["a", "b", "nowhere"], className: "cell", tooltip: "one Cell operator" }, { id: "empty", label: "none", members: [] }],
  );
  const all = rects(svg);
  const frames = all.filter((r) => r.cls.startsWith("cluster"));
  assert.equal(frames.length, 1, "a cluster without members is not drawn");
  assert.equal(frames[0]!.cls, "cluster cell");
  assert.equal(frames[0]!.label, "Cell · 1.00 ms");
  const boxes = all.filter((r) => r.cls.startsWith("node"));
  assert.equal(boxes.length, 5);
  const framed = boxes.filter((b) => inside(b, frames[0]!)).map((b) => b.label).sort();
  assert.deepEqual(framed, ["a", "b"]);
  const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
  for (const r of all) assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= width! + 0.5 && r.y + r.h <= height! + 0.5, `${r.label} outside ${width} x ${height}`);
});

test("the fusion section: a Cell and a Row frame around the operations they compute, with template, cost and what they leave unmaterialized", () => {
  const at = { line: 5, character: 0 };
  const plan = planView(handAnalysis, optimizationsWith({ asWritten: viewOf([cell, row]) }), at, handText)!;
  const html = planHtml(plan, "fused.dml", "vscode-resource:", "bm9uY2U=");
  const section = html.split('<section class="fusion" id="fusion-as-written">')[1]!.split("</section>")[0]!;
  assert.match(section, /<div class="meta">2 fused operators: block estimated 5\.20 ms fused, 12\.3 ms unfused \(2\.4× less\); 5 plans costed \(8 without pruning\); each frame: one fused operator around the operations it computes<\/div><div class="zoom"/);
  const svg = section.split("<svg")[1]!.split("</svg>")[0]!;
  const all = rects(svg);
  const frames = all.filter((r) => r.cls.startsWith("cluster"));
  assert.deepEqual(frames.map((f) => `${f.cls}: ${f.label}`), ["cluster cell: Cell · 4.10 ms", "cluster row: Row · 1.20 ms"]);
  // Every operation of the block but its constants is drawn once.
  const boxes = all.filter((r) => r.cls.startsWith("node"));
  const operations = handInfo.dag.nodes.filter((n) => n.op.kind !== "literal").length;
  assert.equal(boxes.length, operations);
  const framedBy = (k: number) => boxes.filter((b) => inside(b, frames[k]!)).map((b) => b.label).sort();
  assert.deepEqual(framedBy(0), ["X * Y", "X * Y * Z", "s = sum(X * Y * Z)"]);
  assert.deepEqual(framedBy(1), ["X %*% u", "t(X)", "v * (X %*% u)", "w = t(X) %*% (…)"]);
  assert.match(svg, /<title>one Cell operator \(full aggregate, sparse-safe over X\): sum\(X \* Y \* Z\); 4\.10 ms fused, 9\.80 ms as 3 separate operations<\/title>/);
  // One line per operator below the drawing.
  assert.match(section, /<li>line 6: <code>sum\(X \* Y \* Z\)<\/code> as one Cell operator \(full aggregate, sparse-safe over X\); reads <code>X<\/code>, <code>Y<\/code>, <code>Z<\/code>; not materialized: <code>X \* Y<\/code>, <code>X \* Y \* Z<\/code>; 4\.10 ms \(9\.80 ms unfused\)<\/li>/);
  assert.match(section, /as one Row operator \(column aggregate, transposed, over the rows of X\); reads <code>X<\/code>, <code>v<\/code>, <code>u<\/code>; not materialized: <code>t\(X\)<\/code>, <code>X %\*% u<\/code>, <code>v \* \(X %\*% u\)<\/code>/);
  assert.doesNotMatch(html, /No fused operators/);
  // Each drawing keeps its zoom buttons.
  assert.equal((html.match(/<div class="zoom" role="toolbar">/g) ?? []).length, (html.match(/<svg class="plan"/g) ?? []).length);

  // As rewritten, when planned: its own drawing, or the words that it has no operator.
  const both = planHtml(planView(handAnalysis, optimizationsWith({ asWritten: viewOf([cell, row]), rewritten: viewOf([cell]) }), at, handText)!, "fused.dml", "vscode-resource:");
  const rewritten = both.split('<section class="fusion" id="fusion-rewritten">')[1]!.split("</section>")[0]!;
  assert.match(rewritten, /<h4>As rewritten \(every cheaper rewrite applied\)<\/h4><div class="meta">1 fused operator: /);
  assert.deepEqual(rects(rewritten).filter((r) => r.cls.startsWith("cluster")).map((r) => r.label), ["Cell · 4.10 ms"]);
  const noneRewritten = planHtml(planView(handAnalysis, optimizationsWith({ asWritten: viewOf([cell]), rewritten: viewOf([]) }), at, handText)!, "fused.dml", "vscode-resource:");
  assert.match(noneRewritten, /<section class="fusion" id="fusion-rewritten"><h4>[^<]*<\/h4><div class="meta no-fusion">No fused operators in the block as rewritten\.<\/div><\/section>/);
});

test("without fused operators the page has no frames and says so", () => {
  const at = { line: 5, character: 0 };
  const none = planHtml(planView(handAnalysis, optimizationsWith({ asWritten: viewOf([]) }), at, handText)!, "plain.dml", "vscode-resource:", "bm9uY2U=");
  assert.match(none, /<div class="meta no-fusion">No fused operators in this block\.<\/div>/);
  assert.doesNotMatch(none, /class="cluster/);
  assert.equal((none.match(/<svg class="plan"/g) ?? []).length, 1, "only the block before optimization is drawn");
  // Before the optimizer answered for the block.
  const early = planHtml(planView(handAnalysis, new Map(), at, handText)!, "plain.dml", "vscode-resource:");
  assert.match(early, /No fused operators in this block \(yet: the optimizer may still be running\)\./);
  assert.doesNotMatch(early, /class="cluster/);
  // The page stays one well-formed document either way.
  for (const page of [none, early]) {
    assert.equal((page.match(/<section/g) ?? []).length, (page.match(/<\/section>/g) ?? []).length);
    assert.match(page, /<\/body><\/html>$/);
  }
});
