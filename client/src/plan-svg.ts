/**
 * A plan as an SVG graph for the plan view: operations as boxes (the DML
 * they stand for and the variable they assign, dims, estimated time), data
 * flowing from inputs down to results, laid out by dagre (layered,
 * Sugiyama-style); the internal operator in each box's tooltip. Fused
 * operators are drawn apart. The drawing scales to the panel's width (its
 * viewBox keeps the proportions); plan-html.ts adds zoom buttons. Plain
 * strings in, a string out.
 */
import dagre from "@dagrejs/dagre";
import { formatCount, formatDims } from "../../engine/cost/format-number";
import { escapeHtml, formatDuration } from "./results-html";

export interface GraphNode {
  id: string;
  /** First line: the operation. */
  title: string;
  /** Second line: dims, nnz, cost. */
  detail: string;
  fused?: boolean;
  /** Shown on hover (e.g. the internal operator). */
  tooltip?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
}

const CHAR_WIDTH = 7;
const LINE_HEIGHT = 16;

export function graphSvg(nodes: readonly GraphNode[], edges: readonly GraphEdge[], label: string): string {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 10, ranksep: 28, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) {
    const width = Math.max(node.title.length, node.detail.length) * CHAR_WIDTH + 16;
    graph.setNode(node.id, { width, height: 2 * LINE_HEIGHT + 10 });
  }
  for (const edge of edges) graph.setEdge(edge.from, edge.to);
  dagre.layout(graph);
  const size = graph.graph();
  const boxes = nodes.map((node) => {
    const at = graph.node(node.id);
    const x = at.x - at.width / 2;
    const y = at.y - at.height / 2;
    const tooltip = node.tooltip ? `<title>${escapeHtml(node.tooltip)}</title>` : "";
    return `<g class="node${node.fused ? " fused" : ""}">${tooltip}<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${at.width.toFixed(1)}" height="${at.height.toFixed(1)}" rx="4"/><text x="${at.x.toFixed(1)}" y="${(y + LINE_HEIGHT).toFixed(1)}" class="op">${escapeHtml(node.title)}</text><text x="${at.x.toFixed(1)}" y="${(y + 2 * LINE_HEIGHT + 2).toFixed(1)}" class="detail">${escapeHtml(node.detail)}</text></g>`;
  });
  const lines = graph.edges().map((e) => {
    const points = graph.edge(e).points as { x: number; y: number }[];
    return `<polyline points="${points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")}" marker-end="url(#arrow)"/>`;
  });
  // Edges may bend outside dagre's box: the drawing holds every point.
  const points = graph.edges().flatMap((e) => graph.edge(e).points as { x: number; y: number }[]);
  const width = Math.ceil(Math.max(size.width ?? 100, ...points.map((p) => p.x + 8))).toFixed(0);
  const height = Math.ceil(Math.max(size.height ?? 100, ...points.map((p) => p.y + 8))).toFixed(0);
  // Scales down to the panel's width (CSS max-width: 100%), never up past its own size; zoom changes `width`.
  return `<svg class="plan" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" data-width="${width}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="xMinYMin meet"><defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs><g class="edges">${lines.join("")}</g>${boxes.join("")}</svg>`;
}

/** `1,000 × 50, nnz 500, 1.20 ms` (the parts that are known). */
export function nodeDetail(rows: number | null, cols: number | null, nnz: number | null, seconds: number | null): string {
  const parts: string[] = [];
  if (rows !== null && cols !== null) parts.push(formatDims(rows, cols));
  if (nnz !== null && rows !== null && cols !== null && nnz < rows * cols) parts.push(`nnz ${formatCount(nnz)}`);
  if (seconds !== null && seconds > 0) parts.push(formatDuration(seconds));
  else if (seconds === null) parts.push("cost ?");
  return parts.join(", ");
}
