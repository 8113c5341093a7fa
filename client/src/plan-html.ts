/**
 * The plan view's page: the statement block under the cursor as its DAG
 * before optimization (every operation named by the DML it stands for and
 * the variable it assigns, with dims, nnz and estimated time), each cheaper
 * rewrite's plan after, and the fusion planner's
 * plan of the block as written and as rewritten, each fused operator a
 * frame around the operations it computes (fusion-html.ts), from the
 * server's `dmlLens/plan` answer. Each drawing fits the panel's width when the page
 * opens; its buttons (or Ctrl + mouse wheel) zoom in, out and back to fit.
 */
import type { PlanNode } from "../../engine/suggest";
import type { PlanView, PlanViewNode } from "../../server/src/plan-view";
import { FUSION_STYLE, fusionSection } from "./fusion-html";
import { graphSvg, nodeDetail, type GraphNode } from "./plan-svg";
import { escapeHtml, formatDuration } from "./results-html";
import { webviewPage } from "./webview-page";

/** `G = (…) %*% Vk` for a node that a statement assigns, else its DML. */
export function nodeTitle(node: Pick<PlanViewNode, "label" | "assigns">): string {
  return node.assigns !== undefined ? `${node.assigns} = ${node.label}` : node.label;
}

/** The page's script: fit each drawing to the panel, zoom with the buttons or Ctrl + wheel. */
const ZOOM_SCRIPT = `(() => {
  for (const graph of document.querySelectorAll(".graph")) {
    const svg = graph.querySelector("svg.plan");
    const shown = graph.parentElement.querySelector(".zoom .scale");
    const natural = Number(svg.dataset.width);
    let scale = 1;
    const fit = () => Math.min(1, Math.max(0.05, (graph.clientWidth - 4) / natural));
    const apply = (s) => {
      scale = Math.min(4, Math.max(0.05, s));
      svg.style.maxWidth = "none";
      svg.setAttribute("width", String(Math.round(natural * scale)));
      svg.removeAttribute("height");
      shown.textContent = Math.round(scale * 100) + " %";
    };
    let fitted = true;
    apply(fit());
    graph.parentElement.querySelector(".zoom").addEventListener("click", (event) => {
      const action = event.target.closest("button")?.dataset.zoom;
      if (!action) return;
      fitted = action === "fit";
      apply(action === "in" ? scale * 1.25 : action === "out" ? scale / 1.25 : fit());
    });
    graph.addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      fitted = false;
      apply(scale * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
    }, { passive: false });
    window.addEventListener("resize", () => { if (fitted) apply(fit()); });
  }
})();`;

/** A drawing with its zoom buttons. */
function zoomable(svg: string): string {
  return `<div class="zoom" role="toolbar"><button data-zoom="out" title="Zoom out">−</button><button data-zoom="in" title="Zoom in">+</button><button data-zoom="fit" title="Fit to the panel">fit</button> <span class="scale"></span></div><div class="graph">${svg}</div>`;
}

export function planHtml(plan: PlanView, title: string, cspSource: string, nonce?: string): string {
  // Constants are left out of the drawing (they would outnumber the operations).
  const literals = new Set(plan.before.filter((n) => n.op.startsWith("literal")).map((n) => n.id));
  const shown = plan.before.filter((n) => !literals.has(n.id));
  const before = graphSvg(
    shown.map((n) => ({ id: String(n.id), title: nodeTitle(n), detail: nodeDetail(n.rows, n.cols, n.nnz, n.cost), tooltip: `${n.op}, line ${n.range.start.line + 1}` })),
    shown.flatMap((n) => n.inputs.filter((input) => !literals.has(input)).map((input) => ({ from: String(input), to: String(n.id) }))),
    "the block's plan before optimization",
  );
  const totalBefore = plan.before.reduce((sum, n) => sum + (n.cost ?? 0), 0);
  const after = plan.after
    .map(
      (s, k) =>
        `<section class="rewrite"><h3>${escapeHtml(s.target)} = <code>${escapeHtml(s.rewritten)}</code></h3><div class="meta">line ${s.range.start.line + 1}: estimated ${formatDuration(s.costBefore)} → ${formatDuration(s.costAfter)}</div>${zoomable(planGraph(s.plan, s.labels, s.target, `after${k}`, `the plan of ${s.target} after optimization`))}</section>`,
    )
    .join("");
  const fusion = fusionSection(plan.fusion, zoomable);
  return webviewPage(
    "DML plan",
    cspSource,
    `svg.plan { max-width: 100%; height: auto; display: block; }
.graph { overflow: auto; border: 1px solid var(--vscode-panel-border, #8884); }
.zoom { margin: 4px 0; } .zoom button { min-width: 28px; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: none; padding: 2px 6px; cursor: pointer; } .zoom .scale { color: var(--vscode-descriptionForeground); font-size: 11px; }
svg.plan .node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-panel-border, #888); }
svg.plan text { fill: var(--vscode-foreground); font-size: 12px; text-anchor: middle; font-family: var(--vscode-editor-font-family); }
svg.plan text.detail { fill: var(--vscode-descriptionForeground); font-size: 11px; }
svg.plan .edges polyline { fill: none; stroke: var(--vscode-descriptionForeground, #888); } svg.plan marker path { fill: var(--vscode-descriptionForeground, #888); }
h4 { font-size: 0.95em; margin: 10px 0 4px; }
${FUSION_STYLE}`,
    `<h2>${escapeHtml(title)}</h2>
<h3>Before: the block as written</h3>
<div class="meta" id="before-cost">${shown.length} operations, estimated ${formatDuration(totalBefore)}${plan.before.some((n) => n.cost === null) ? " plus operations of unknown size" : ""}; each box: the DML it computes (the variable it assigns), its size and estimated time; arrows from inputs to results</div>
${zoomable(before)}
<h3>After: cheaper rewrites</h3>
${after || `<div class="meta" id="no-rewrites">No cheaper equivalent found for this block (yet: the optimizer may still be running).</div>`}
<h3>Fusion</h3>
${fusion}`,
    nonce ? { nonce, code: ZOOM_SCRIPT } : undefined,
  );
}

/** An optimizer plan (root first) as a graph, the root named by its target; `prefix` keeps node ids apart between drawings. */
function planGraph(plan: readonly PlanNode[], labels: readonly string[], target: string, prefix: string, label: string): string {
  const nodes: GraphNode[] = plan.map((n, i) => ({
    id: `${prefix}.${i}`,
    title: i === 0 ? `${target} = ${labels[i] ?? n.op}` : (labels[i] ?? n.op),
    detail: nodeDetail(n.rows, n.cols, n.nnz, n.cost),
    tooltip: n.op,
  }));
  const edges = plan.flatMap((n, i) => n.children.map((child) => ({ from: `${prefix}.${child}`, to: `${prefix}.${i}` })));
  return graphSvg(nodes, edges, label);
}
