/**
 * A plan as an SVG graph for the plan view: operations as boxes (the DML
 * they stand for and the variable they assign, dims, estimated time), data
 * flowing from inputs down to results, laid out by dagre (layered,
 * Sugiyama-style); the internal operator in each box's tooltip. A fused
 * operator is a cluster: a labelled frame around the nodes it computes,
 * laid out by dagre as compound nodes so a frame holds its nodes and no
 * other. The drawing scales to the panel's
 * width (its viewBox keeps the proportions); plan-html.ts adds zoom buttons.
 * Plain strings in, a string out.
 */
import dagre from "@dagrejs/dagre";
import { formatCount, formatDims } from "../../engine/cost";
import { escapeHtml, formatDuration } from "./results-html";

export interface GraphNode {
  id: string;
  /** First line: the operation. */
  title: string;
  /** Second line: dims, nnz, cost. */
  detail: string;
  /** Shown on hover (e.g. the internal operator). */
  tooltip?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
}

/** A frame around nodes (a fused operator around the operations it computes). */
export interface GraphCluster {
  id: string;
  /** Drawn in the frame's top left corner (template and cost). */
  label: string;
  /** The nodes inside (each node in at most one cluster; unknown ids are ignored). */
  members: string[];
  /** Extra CSS class (e.g. the template). */
  className?: string;
  tooltip?: string;
}

/** Room above a cluster's first row of nodes for its label. */
const CLUSTER_LABEL = 14;

const CHAR_WIDTH = 7;
const LINE_HEIGHT = 16;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function graphSvg(nodes: readonly GraphNode[], edges: readonly GraphEdge[], label: string, clusters: readonly GraphCluster[] = []): string {
  const known = new Set(nodes.map((n) => n.id));
  const framed = clusters
    .map((c) => ({ ...c, members: [...new Set(c.members.filter((m) => known.has(m)))] }))
    .filter((c) => c.members.length > 0 && !known.has(c.id));
  // A node is framed by its first cluster only.
  const parent = new Map<string, string>();
  for (const c of framed) for (const m of c.members) if (!parent.has(m)) parent.set(m, c.id);
  const graph = layout(nodes, edges, framed, parent);
  const size = graph.graph();
  const clusterBoxes = framed.map((c) => clusterBox(graph, c, parent));
  const frames = framed.map((c, k) => {
    const box = clusterBoxes[k]!;
    const tooltip = c.tooltip ? `<title>${escapeHtml(c.tooltip)}</title>` : "";
    return `<g class="cluster${c.className ? ` ${escapeHtml(c.className)}` : ""}">${tooltip}<rect x="${box.x.toFixed(1)}" y="${box.y.toFixed(1)}" width="${box.width.toFixed(1)}" height="${box.height.toFixed(1)}" rx="6"/><text x="${(box.x + 6).toFixed(1)}" y="${(box.y + 11).toFixed(1)}" class="cluster-label">${escapeHtml(c.label)}</text></g>`;
  });
  const boxes = nodes.map((node) => {
    const at = graph.node(node.id);
    const x = at.x - at.width / 2;
    const y = at.y - at.height / 2;
    const tooltip = node.tooltip ? `<title>${escapeHtml(node.tooltip)}</title>` : "";
    return `<g class="node">${tooltip}<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${at.width.toFixed(1)}" height="${at.height.toFixed(1)}" rx="4"/><text x="${at.x.toFixed(1)}" y="${(y + LINE_HEIGHT).toFixed(1)}" class="op">${escapeHtml(node.title)}</text><text x="${at.x.toFixed(1)}" y="${(y + 2 * LINE_HEIGHT + 2).toFixed(1)}" class="detail">${escapeHtml(node.detail)}</text></g>`;
  });
  const lines = graph.edges().map((e) => {
    const points = graph.edge(e).points as { x: number; y: number }[];
    return `<polyline points="${points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")}" marker-end="url(#arrow)"/>`;
  });
  // Edges may bend outside dagre's box, and frames grow for their labels: the drawing holds every point.
  const points = graph.edges().flatMap((e) => graph.edge(e).points as { x: number; y: number }[]);
  const corners = clusterBoxes.flatMap((b) => [{ x: b.x + b.width, y: b.y + b.height }, { x: b.x + 6 + b.labelWidth, y: b.y }]);
  const width = Math.ceil(Math.max(size.width ?? 100, ...[...points, ...corners].map((p) => p.x + 8))).toFixed(0);
  const height = Math.ceil(Math.max(size.height ?? 100, ...[...points, ...corners].map((p) => p.y + 8))).toFixed(0);
  // Scales down to the panel's width (CSS max-width: 100%), never up past its own size; zoom changes `width`.
  return `<svg class="plan" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" data-width="${width}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="xMinYMin meet"><defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>${frames.length > 0 ? `<g class="clusters">${frames.join("")}</g>` : ""}<g class="edges">${lines.join("")}</g>${boxes.join("")}</svg>`;
}

type Layout = ReturnType<typeof newGraph>;
const newGraph = (compound: boolean) => new dagre.graphlib.Graph({ compound });

/** Dagre's layout, clusters as compound nodes; should dagre fail on the compound graph, the plain graph (frames drawn around their nodes). */
function layout(nodes: readonly GraphNode[], edges: readonly GraphEdge[], clusters: readonly GraphCluster[], parent: ReadonlyMap<string, string>): Layout {
  const build = (compound: boolean): Layout => {
    const graph = newGraph(compound);
    graph.setGraph({ rankdir: "TB", nodesep: 10, ranksep: compound ? 32 : 28, marginx: 8, marginy: 8 + (clusters.length > 0 ? CLUSTER_LABEL : 0) });
    graph.setDefaultEdgeLabel(() => ({}));
    for (const node of nodes) {
      const width = Math.max(node.title.length, node.detail.length) * CHAR_WIDTH + 16;
      graph.setNode(node.id, { width, height: 2 * LINE_HEIGHT + 10 });
    }
    if (compound) {
      for (const c of clusters) graph.setNode(c.id, {});
      for (const [member, cluster] of parent) graph.setParent(member, cluster);
    }
    for (const edge of edges) graph.setEdge(edge.from, edge.to);
    dagre.layout(graph);
    return graph;
  };
  if (clusters.length === 0) return build(false);
  try {
    return build(true);
  } catch {
    return build(false);
  }
}

/** A cluster's frame: around its members with room for the label on top. */
function clusterBox(graph: Layout, cluster: GraphCluster, parent: ReadonlyMap<string, string>): Box & { labelWidth: number } {
  const inside = cluster.members.filter((m) => parent.get(m) === cluster.id).map((m) => graph.node(m));
  const shown = inside.length > 0 ? inside : cluster.members.map((m) => graph.node(m));
  const left = Math.min(...shown.map((n) => n.x - n.width / 2)) - 6;
  const right = Math.max(...shown.map((n) => n.x + n.width / 2)) + 6;
  const top = Math.min(...shown.map((n) => n.y - n.height / 2)) - 6 - CLUSTER_LABEL;
  const bottom = Math.max(...shown.map((n) => n.y + n.height / 2)) + 6;
  return { x: left, y: Math.max(0, top), width: right - left, height: bottom - Math.max(0, top), labelWidth: cluster.label.length * 6 };
}

/** `1,000 × 50, nnz 500, 1.20 ms` (the parts that are known; `seconds` undefined: no time shown). */
export function nodeDetail(rows: number | null, cols: number | null, nnz: number | null, seconds: number | null | undefined): string {
  const parts: string[] = [];
  if (rows !== null && cols !== null) parts.push(formatDims(rows, cols));
  if (nnz !== null && rows !== null && cols !== null && nnz < rows * cols) parts.push(`nnz ${formatCount(nnz)}`);
  if (seconds !== null && seconds !== undefined && seconds > 0) parts.push(formatDuration(seconds));
  else if (seconds === null) parts.push("cost ?");
  return parts.join(", ");
}
