/**
 * The plan view's fusion section: the block's fusion plan as written and,
 * when the rewriter suggested changes, as rewritten. Each is the planned
 * DAG drawn with every fused operator as a frame around the operations it
 * computes, labelled with its template and estimated time, followed by the
 * block's estimated time with and without fusion, how many plans the search
 * costed, and one line per operator (what it computes, what it reads, the
 * intermediates it does not materialize). Without fused operators it says so.
 */
import type { FusionDrawing, PlanFusion } from "../../server/src/fusion-plan-view";
import { graphSvg, nodeDetail, type GraphCluster, type GraphNode } from "./plan-svg";
import { escapeHtml, formatDuration } from "./results-html";

export const FUSION_STYLE = `svg.plan .cluster rect { fill: var(--vscode-charts-orange, #d18616); fill-opacity: 0.08; stroke: var(--vscode-charts-orange, #d18616); stroke-width: 1.5; }
svg.plan .cluster.row rect { fill: var(--vscode-charts-blue, #3794ff); stroke: var(--vscode-charts-blue, #3794ff); }
svg.plan .cluster.magg rect { fill: var(--vscode-charts-purple, #b180d7); stroke: var(--vscode-charts-purple, #b180d7); }
svg.plan .cluster.outer rect { fill: var(--vscode-charts-green, #89d185); stroke: var(--vscode-charts-green, #89d185); }
svg.plan text.cluster-label { text-anchor: start; font-size: 10px; font-weight: bold; fill: var(--vscode-foreground); }
.fusion ol { margin: 4px 0; padding-left: 20px; } .fusion li { margin: 2px 0; }`;

/** `G = (…) %*% Vk` for a node that a statement assigns, else its DML. */
const titleOf = (n: { label: string; assigns?: string }) => (n.assigns !== undefined ? `${n.assigns} = ${n.label}` : n.label);

/** The planned DAG (constants left out) with one frame per fused operator; `prefix` keeps node ids apart between drawings. */
export function fusionSvg(drawing: FusionDrawing, prefix: string, label: string): string {
  const shown = drawing.nodes.filter((n) => !n.literal);
  const ids = new Set(shown.map((n) => n.id));
  const id = (node: number) => `${prefix}.${node}`;
  const nodes: GraphNode[] = shown.map((n) => {
    const op = n.operator === undefined ? undefined : drawing.operators[n.operator];
    return {
      id: id(n.id),
      title: titleOf(n),
      detail: nodeDetail(n.rows, n.cols, n.nnz, undefined),
      ...(op ? { tooltip: `computed inside the ${op.name} operator of ${op.text}` } : {}),
    };
  });
  const edges = shown.flatMap((n) => n.inputs.filter((input) => ids.has(input)).map((input) => ({ from: id(input), to: id(n.id) })));
  const clusters: GraphCluster[] = drawing.operators.map((op, k) => ({
    id: `${prefix}.operator${k}`,
    label: `${op.name} · ${formatDuration(op.seconds)}`,
    // A node computed by several operators (recomputed) is framed by the one the plan names.
    members: shown.filter((n) => n.operator === k).map((n) => id(n.id)),
    className: op.template,
    tooltip: `${op.summary}: ${op.text}; ${formatDuration(op.seconds)} fused, ${formatDuration(op.unfusedSeconds)} as ${op.covered.length} separate operations`,
  }));
  return graphSvg(nodes, edges, label, clusters);
}

/** "2 fused operators: block estimated 5.20 ms fused, 12.3 ms unfused (2.4× less); 5 plans costed (8 without pruning)" ("(4 % less)" below 1.5×). */
function summary(drawing: FusionDrawing): string {
  const { fused, unfused } = drawing.cost;
  const count = drawing.operators.length;
  const ratio = !(fused > 0 && unfused > fused) ? "" : unfused >= 1.5 * fused ? ` (${(unfused / fused).toFixed(1)}× less)` : ` (${Math.round(100 * (1 - fused / unfused))} % less)`;
  const s = drawing.search;
  const search = s.plansWithoutPruning > 0 ? `; ${s.plansEvaluated.toLocaleString("en-US")} plans costed (${s.plansWithoutPruning.toLocaleString("en-US")} without pruning)` : "";
  const approximated = s.approximated > 0 ? `; ${s.approximated} partition${s.approximated === 1 ? "" : "s"} beyond the exact search's limit planned by a heuristic` : "";
  return `${count} fused operator${count === 1 ? "" : "s"}: block estimated ${formatDuration(fused)} fused, ${formatDuration(unfused)} unfused${ratio}${search}${approximated}`;
}

function operatorItems(drawing: FusionDrawing): string {
  const code = (t: string) => `<code>${escapeHtml(t)}</code>`;
  const items = drawing.operators.map((op) => {
    const line = op.range ? `line ${op.range.start.line + 1}: ` : "";
    const reads = op.inputs.length > 0 ? `; reads ${op.inputs.map(code).join(", ")}` : "";
    const hidden = op.notMaterialized.length > 0 ? `; not materialized: ${op.notMaterialized.map(code).join(", ")}` : "";
    return `<li>${line}${code(op.text)} as ${escapeHtml(op.summary)}${reads}${hidden}; ${formatDuration(op.seconds)} (${formatDuration(op.unfusedSeconds)} unfused)</li>`;
  });
  return `<ol class="operators">${items.join("")}</ol>`;
}

function drawingSection(drawing: FusionDrawing, key: string, heading: string, none: string, zoomable: (svg: string) => string): string {
  if (drawing.operators.length === 0) return `<section class="fusion" id="fusion-${key}"><h4>${heading}</h4><div class="meta no-fusion">${none}</div></section>`;
  return `<section class="fusion" id="fusion-${key}"><h4>${heading}</h4><div class="meta">${escapeHtml(summary(drawing))}; each frame: one fused operator around the operations it computes</div>${zoomable(fusionSvg(drawing, `fusion-${key}`, `the fusion plan of the block ${heading.toLowerCase()}`))}${operatorItems(drawing)}</section>`;
}

/** The section's HTML (drawings wrapped by `zoomable`, the page's zoom buttons). */
export function fusionSection(fusion: PlanFusion | undefined, zoomable: (svg: string) => string): string {
  if (!fusion) return `<div class="meta" id="no-fusion">No fused operators in this block (yet: the optimizer may still be running).</div>`;
  const written = drawingSection(fusion.asWritten, "as-written", "As written", "No fused operators in this block.", zoomable);
  const rewritten = fusion.rewritten ? drawingSection(fusion.rewritten, "rewritten", "As rewritten (every cheaper rewrite applied)", "No fused operators in the block as rewritten.", zoomable) : "";
  return `<div id="fusion">${written}${rewritten}</div>`;
}
