/**
 * The results view's page for one run (plain HTML, no scripts): what was
 * run and how long it took next to the estimate, the printed output, the
 * error, and every session variable with its kind, dims, nnz and sparsity;
 * for each matrix the top-left values, its sparsity pattern (the share of
 * non-zeros per tile) and a heatmap of its values (each tile's mean), as SVG.
 */
import type { VariablePreview } from "../../engine/runtime/interpreter/variable-preview";
import type { RunReply } from "./runtime-protocol";
import { webviewPage } from "./webview-page";

export interface ResultsPage {
  title: string;
  reply: RunReply;
  /** The server's estimate for what ran (seconds, one pass through loops), when it has one. */
  estimate?: { seconds: number; unknown: number };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function formatDuration(seconds: number): string {
  if (seconds < 1e-3) return `${(seconds * 1e6).toFixed(0)} µs`;
  if (seconds < 1) return `${(seconds * 1e3).toFixed(seconds < 0.01 ? 2 : 1)} ms`;
  return `${seconds.toFixed(2)} s`;
}

function sizeText(v: VariablePreview): string {
  if (v.kind === "scalar") return `${v.valueType ?? "scalar"} = ${v.value ?? ""}`;
  if (v.kind === "matrix") {
    const cells = (v.rows ?? 0) * (v.cols ?? 0);
    const sparsity = cells > 0 && v.nnz !== undefined ? `, sparsity ${(v.nnz / cells).toPrecision(3)}` : "";
    return `${v.rows} × ${v.cols}, nnz ${v.nnz}${sparsity}`;
  }
  return `${v.rows ?? "?"} × ${v.cols ?? "?"}`;
}

function cornerTable(v: VariablePreview): string {
  if (!v.corner || v.corner.length === 0) return "";
  const more = (v.rows ?? 0) > v.corner.length || (v.cols ?? 0) > (v.corner[0]?.length ?? 0);
  const rows = v.corner.map((row) => `<tr>${row.map((x) => `<td>${escapeHtml(formatNumber(x))}</td>`).join("")}</tr>`).join("");
  return `<table class="values">${rows}</table>${more ? `<div class="note">first ${v.corner.length} × ${v.corner[0]!.length} of ${v.rows} × ${v.cols}</div>` : ""}`;
}

function formatNumber(x: number): string {
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 1e-3 && Math.abs(x) < 1e6 ? x.toPrecision(4) : x.toExponential(2);
}

/** The sparsity pattern: one rect per tile, darker where more of it is non-zero. */
export function densitySvg(v: VariablePreview, size = 160): string {
  const grid = v.density;
  if (!grid) return "";
  const tiles = grid.shares.map((share) => (share > 0 ? { className: "nonzero", opacity: Math.max(0.08, share) } : undefined));
  return tileSvg(grid, tiles, "pattern", `sparsity pattern of ${v.name}`, size);
}

/**
 * The values: each tile's mean, positive ones red and negative ones blue,
 * stronger the larger their magnitude against the largest; NaN tiles apart.
 * With the range of the means under it.
 */
export function valuesSvg(v: VariablePreview, size = 160): string {
  const grid = v.density;
  if (!grid) return "";
  const finite = grid.means.filter((x) => Number.isFinite(x));
  const largest = finite.reduce((a, x) => Math.max(a, Math.abs(x)), 0);
  const tiles = grid.means.map((mean) => {
    if (Number.isNaN(mean)) return { className: "nan", opacity: 1 };
    if (mean === 0) return undefined;
    const strength = Number.isFinite(mean) ? Math.abs(mean) / largest : 1;
    return { className: mean > 0 ? "positive" : "negative", opacity: Math.max(0.08, strength) };
  });
  const low = finite.length > 0 ? Math.min(...finite) : 0;
  const high = finite.length > 0 ? Math.max(...finite) : 0;
  const caption = `tile means ${formatNumber(low)} … ${formatNumber(high)}`;
  return `<figure class="values">${tileSvg(grid, tiles, "heatmap", `value heatmap of ${v.name}`, size)}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

/** One rect per tile that has a look (`undefined`: background only). */
function tileSvg(grid: NonNullable<VariablePreview["density"]>, tiles: readonly ({ className: string; opacity: number } | undefined)[], svgClass: string, label: string, size: number): string {
  const cell = size / Math.max(grid.rows, grid.cols);
  const rects: string[] = [];
  tiles.forEach((tile, k) => {
    if (!tile) return;
    const x = (k % grid.cols) * cell;
    const y = Math.floor(k / grid.cols) * cell;
    rects.push(`<rect x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${cell.toFixed(2)}" height="${cell.toFixed(2)}" class="${tile.className}" fill-opacity="${tile.opacity.toFixed(3)}"/>`);
  });
  const width = grid.cols * cell;
  const height = grid.rows * cell;
  return `<svg class="${svgClass}" role="img" aria-label="${escapeHtml(label)}" width="${width.toFixed(0)}" height="${height.toFixed(0)}" viewBox="0 0 ${width.toFixed(2)} ${height.toFixed(2)}"><rect width="100%" height="100%" class="empty"/>${rects.join("")}</svg>`;
}

export function resultsHtml(page: ResultsPage, cspSource: string): string {
  const { reply } = page;
  const status = reply.ok ? "done" : reply.interrupted ? "interrupted" : "failed";
  const estimate = page.estimate ? ` · estimated ${formatDuration(page.estimate.seconds)}${page.estimate.unknown > 0 ? ` (+${page.estimate.unknown} operations of unknown size)` : ""}` : "";
  const variables = reply.variables
    .map((v) => `<tr><td class="name">${escapeHtml(v.name)}</td><td>${escapeHtml(v.kind)}</td><td>${escapeHtml(sizeText(v))}</td></tr>`)
    .join("");
  const matrices = reply.variables
    .filter((v) => v.kind === "matrix")
    .map((v) => `<section class="matrix"><h3>${escapeHtml(v.name)} <span class="dims">${escapeHtml(sizeText(v))}</span></h3><div class="matrix-body">${densitySvg(v)}${valuesSvg(v)}${cornerTable(v)}</div></section>`)
    .join("");
  return webviewPage("DML results", cspSource, `pre { background: var(--vscode-textCodeBlock-background); padding: 6px; white-space: pre-wrap; }
.error { color: var(--vscode-errorForeground); }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid var(--vscode-panel-border); }
table.values td { text-align: right; font-family: var(--vscode-editor-font-family); }
.matrix-body { display: flex; gap: 16px; align-items: flex-start; }
svg.pattern .empty, svg.heatmap .empty { fill: var(--vscode-editor-background); stroke: var(--vscode-panel-border); } svg.pattern .nonzero { fill: var(--vscode-charts-blue, #3794ff); }
svg.heatmap .positive { fill: var(--vscode-charts-red, #f14c4c); } svg.heatmap .negative { fill: var(--vscode-charts-blue, #3794ff); } svg.heatmap .nan { fill: var(--vscode-charts-yellow, #cca700); }
figure.values { margin: 0; } figure.values figcaption { font-size: 11px; color: var(--vscode-descriptionForeground); }`, `<h2>${escapeHtml(page.title)}</h2>
<div class="meta" id="status">${status} in ${formatDuration(reply.ms / 1000)}${estimate}</div>
<h3>Output</h3>
<pre id="output">${escapeHtml(reply.output.join("\n")) || "(nothing printed)"}</pre>
${reply.errors.length > 0 ? `<pre class="error" id="errors">${escapeHtml(reply.errors.join("\n"))}</pre>` : ""}
<h3>Variables</h3>
<table id="variables"><tr><th>name</th><th>kind</th><th>size</th></tr>${variables}</table>
${matrices}`);
}
