/**
 * The plan view's page: the statement block under the cursor as its DAG
 * before optimization (every operation with dims, nnz and estimated time),
 * each cheaper rewrite's plan after (fused operators marked), and the
 * fusion plan: each statement SystemDS runs with fused operators, drawn as
 * it runs (the fused operators as nodes over what they read), from the
 * server's `dmlLens/plan` answer.
 */
import type { PlanNode } from "../../engine/suggest";
import type { PlanView } from "../../server/src/plan-view";
import { graphSvg, nodeDetail, type GraphNode } from "./plan-svg";
import { escapeHtml, formatDuration } from "./results-html";
import { webviewPage } from "./webview-page";

export function planHtml(plan: PlanView, title: string, cspSource: string): string {
  // Constants are left out of the drawing (they would outnumber the operations).
  const literals = new Set(plan.before.filter((n) => n.op.startsWith("literal")).map((n) => n.id));
  const shown = plan.before.filter((n) => !literals.has(n.id));
  const before = graphSvg(
    shown.map((n) => ({ id: String(n.id), title: n.op, detail: nodeDetail(n.rows, n.cols, n.nnz, n.cost) })),
    shown.flatMap((n) => n.inputs.filter((input) => !literals.has(input)).map((input) => ({ from: String(input), to: String(n.id) }))),
    "the block's plan before optimization",
  );
  const totalBefore = plan.before.reduce((sum, n) => sum + (n.cost ?? 0), 0);
  const after = plan.after
    .map((s, k) => `<section class="rewrite"><h3>${escapeHtml(s.target)} = <code>${escapeHtml(s.rewritten)}</code></h3><div class="meta">line ${s.range.start.line + 1}: ${formatDuration(s.costBefore)} → ${formatDuration(s.costAfter)}</div>${planGraph(s.plan, `after${k}`, `the plan of ${s.target} after optimization`)}</section>`)
    .join("");
  const fusion = plan.fusion
    .map(
      (f, k) =>
        `<section class="fusion"><div class="meta">line ${f.range.start.line + 1}, ${escapeHtml(f.target)}: ${f.fused.map((p) => `<code>${escapeHtml(p.text)}</code> as one ${escapeHtml(p.op)} operator`).join("; ")}</div>${planGraph(f.plan, `fusion${k}`, `the fusion plan of ${f.target}`)}</section>`,
    )
    .join("");
  return webviewPage("DML plan", cspSource, `svg.plan .node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-panel-border, #888); }
svg.plan .node.fused rect { stroke: var(--vscode-charts-orange, #d18616); stroke-width: 2; }
svg.plan text { fill: var(--vscode-foreground); font-size: 12px; text-anchor: middle; font-family: var(--vscode-editor-font-family); }
svg.plan text.detail { fill: var(--vscode-descriptionForeground); font-size: 11px; }
svg.plan .edges polyline { fill: none; stroke: var(--vscode-descriptionForeground, #888); } svg.plan marker path { fill: var(--vscode-descriptionForeground, #888); }`, `<h2>${escapeHtml(title)}</h2>
<h3>Before: the block as written</h3>
<div class="meta" id="before-cost">${shown.length} operations, estimated ${formatDuration(totalBefore)}${plan.before.some((n) => n.cost === null) ? " plus operations of unknown size" : ""}</div>
${before}
<h3>After: cheaper rewrites</h3>
${after || `<div class="meta" id="no-rewrites">No cheaper equivalent found for this block (yet: the optimizer may still be running).</div>`}
<h3>Fusion</h3>
${fusion ? `<div id="fusion">${fusion}</div>` : `<div class="meta">No fused operators in this block.</div>`}`);
}

/** An optimizer plan (root first) as a graph; `prefix` keeps node ids apart between drawings. */
function planGraph(plan: readonly PlanNode[], prefix: string, label: string): string {
  const nodes: GraphNode[] = plan.map((n, i) => ({ id: `${prefix}.${i}`, title: n.op.replace(/^name:/, ""), detail: nodeDetail(n.rows, n.cols, n.nnz, n.cost), fused: n.op.startsWith("fused:") }));
  const edges = plan.flatMap((n, i) => n.children.map((child) => ({ from: `${prefix}.${child}`, to: `${prefix}.${i}` })));
  return graphSvg(nodes, edges, label);
}
