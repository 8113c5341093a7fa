/**
 * The results view's page for one run (plain HTML, no scripts): what was
 * run and how long it took next to the estimate, the printed output, the
 * error, per block that ran its estimated vs measured time with the plan
 * that ran and the operation farthest from its estimate, and every session variable with its kind, dims, nnz and sparsity;
 * for each matrix the top-left values, its sparsity pattern (the share of
 * non-zeros per tile) and a heatmap of its values (each tile's mean), as SVG.
 */
import type { VariablePreview } from "../../engine/runtime/interpreter";
import { blockRatio, type BlockReport } from "../../engine/execution";
import { formatCount, formatDims, formatSparsity, formatValue } from "../../engine/cost";
import { estimateNote, type RunEstimateReply } from "./estimate-note";
import { matrixFigure, patternOpacity } from "./matrix-picture";
import type { RunReply } from "./runtime-protocol";
import { webviewPage } from "./webview-page";

export interface ResultsPage {
  title: string;
  reply: RunReply;
  /** The server's estimate for what ran (seconds, one pass through loops), when it has one. */
  estimate?: RunEstimateReply;
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
    const sparsity = cells > 0 && v.nnz !== undefined ? `, sparsity ${formatSparsity(v.nnz, cells)}` : "";
    return `${formatDims(v.rows, v.cols)}, nnz ${formatCount(v.nnz)}${sparsity}`;
  }
  return formatDims(v.rows, v.cols);
}

function cornerTable(v: VariablePreview): string {
  if (!v.corner || v.corner.length === 0) return "";
  const more = (v.rows ?? 0) > v.corner.length || (v.cols ?? 0) > (v.corner[0]?.length ?? 0);
  const rows = v.corner.map((row) => `<tr>${row.map((x) => `<td>${escapeHtml(formatValue(x))}</td>`).join("")}</tr>`).join("");
  const caption = more ? `first ${formatDims(v.corner.length, v.corner[0]!.length)} of ${formatDims(v.rows, v.cols)}` : `all ${formatDims(v.rows, v.cols)} values`;
  return `<figure class="corner"><figcaption class="title">values of ${escapeHtml(v.name)}</figcaption><table class="values">${rows}</table><figcaption class="note">${escapeHtml(caption)}</figcaption></figure>`;
}

/** The sparsity pattern: a square per tile, coloured when a non-zero falls in it, darker the denser. */
export function densitySvg(v: VariablePreview): string {
  const grid = v.density;
  if (!grid) return "";
  const tiles = grid.shares.map((share) => (share > 0 ? { className: "nonzero", opacity: patternOpacity(share) } : undefined));
  return matrixFigure({
    title: `sparsity pattern of ${v.name}`,
    svgClass: "pattern",
    rows: v.rows ?? grid.rows,
    cols: v.cols ?? grid.cols,
    grid,
    tiles,
    legend: [
      { className: "nonzero", opacity: patternOpacity(1e-4), text: "some non-zeros (at least one)" },
      { className: "nonzero", opacity: patternOpacity(1), text: "all non-zero" },
      { className: "empty", opacity: 1, text: "all zero" },
    ],
  });
}

/**
 * The values: each tile's mean, positive ones red and negative ones blue,
 * stronger the larger their magnitude against the largest; NaN tiles apart.
 * The legend gives the range of the means.
 */
export function valuesSvg(v: VariablePreview): string {
  const grid = v.density;
  if (!grid) return "";
  const finite = grid.means.filter((x) => Number.isFinite(x));
  const largest = finite.reduce((a, x) => Math.max(a, Math.abs(x)), 0);
  const tiles = grid.means.map((mean) => {
    if (Number.isNaN(mean)) return { className: "nan", opacity: 1 };
    if (mean === 0) return undefined;
    const strength = Number.isFinite(mean) ? Math.abs(mean) / largest : 1;
    return { className: mean > 0 ? "positive" : "negative", opacity: Math.max(0.15, strength) };
  });
  const low = finite.length > 0 ? Math.min(...finite) : 0;
  const high = finite.length > 0 ? Math.max(...finite) : 0;
  const legend = [];
  if (high > 0) legend.push({ className: "positive", opacity: 1, text: `positive, up to ${formatValue(high)}` });
  if (low < 0) legend.push({ className: "negative", opacity: 1, text: `negative, down to ${formatValue(low)}` });
  legend.push({ className: "empty", opacity: 1, text: "zero" });
  if (grid.means.some((x) => Number.isNaN(x))) legend.push({ className: "nan", opacity: 1, text: "holds a NaN" });
  const figure = matrixFigure({ title: `values of ${v.name} (mean per square)`, svgClass: "heatmap", rows: v.rows ?? grid.rows, cols: v.cols ?? grid.cols, grid, tiles, legend });
  return figure.replace("</figure>", `<figcaption class="range">mean per square from ${escapeHtml(formatValue(low))} to ${escapeHtml(formatValue(high))}</figcaption></figure>`);
}

/** Blocks listed in the table (the ones that took longest, shown in source order). */
export const BLOCKS_SHOWN = 40;

/** `measured / estimated` as `65×` slower or `0.2×` (faster), `—` without an estimate. */
function ratioText(ratio: number): string {
  if (!Number.isFinite(ratio)) return "—";
  return ratio >= 10 ? `${Math.round(ratio)}×` : `${ratio.toFixed(ratio >= 1 ? 1 : 2)}×`;
}

function planText(b: BlockReport): string {
  const parts = [`${b.rewrites} rewritten`, `${b.fusedOperators} fused`];
  if (b.unfused.length > 0) parts.push(`${b.unfused.length} unfused`);
  return parts.join(", ");
}

/**
 * Per block that ran: line, runs, estimated, measured, their ratio, the plan
 * (statements rewritten, fused operators, operators left unfused, with why
 * in the tooltip), compilations and their time; under the table, for the
 * blocks whose time was off by BLOCK_OFF_BY_FACTOR or more, the operation farthest
 * from its estimate.
 */
export function blocksHtml(blocks: readonly BlockReport[] | undefined, plan: string | undefined): string {
  if (!blocks || blocks.length === 0) return "";
  const shown = [...blocks].sort((a, b) => b.measuredSeconds - a.measuredSeconds).slice(0, BLOCKS_SHOWN).sort((a, b) => a.startLine - b.startLine);
  const rows = shown
    .map((b) => {
      const lines = b.startLine === b.endLine ? `${b.startLine + 1}` : `${b.startLine + 1}-${b.endLine + 1}`;
      const unfused = b.unfused.length > 0 ? ` title="${escapeHtml(b.unfused.join("\n"))}"` : "";
      return `<tr><td>${lines}</td><td>${b.runs}</td><td>${formatDuration(b.estimatedSeconds)}</td><td>${formatDuration(b.measuredSeconds)}</td><td>${ratioText(blockRatio(b))}</td><td${unfused}>${escapeHtml(planText(b))}</td><td>${b.compilations}× ${formatDuration(b.compileMs / 1000)}</td></tr>`;
    })
    .join("");
  const more = blocks.length > shown.length ? `<div class="note">${blocks.length - shown.length} more blocks (the ${shown.length} that took longest are shown)</div>` : "";
  const off = shown.filter((b) => b.worst && offBy(blockRatio(b)) >= BLOCK_OFF_BY_FACTOR && Math.abs(b.measuredSeconds - b.estimatedSeconds) >= BLOCK_OFF_BY_SECONDS);
  const worst = off.length > 0 ? `<ul id="block-worst">${off.map((b) => `<li>block at line ${b.startLine + 1} (${ratioText(blockRatio(b))}): ${escapeHtml(b.worst!)}</li>`).join("")}</ul>` : "";
  const title = "estimated: the cost model's time for the plan that ran, with this machine's constants and the corrections observed by earlier runs; measured: the time the block's operations took (compilation excluded)";
  return `<h3>Blocks${plan ? ` <span class="dims">plan: ${escapeHtml(plan)}</span>` : ""}</h3>
<table id="blocks" title="${escapeHtml(title)}"><tr><th>line</th><th>runs</th><th>estimated</th><th>measured</th><th>ratio</th><th>plan</th><th>compiled</th></tr>${rows}</table>${more}${worst}`;
}

/** A block this many times off its estimate (either way) names its operation farthest from its estimate... */
export const BLOCK_OFF_BY_FACTOR = 3;
/** ...when the two also differ by this many seconds (microseconds are noise). */
export const BLOCK_OFF_BY_SECONDS = 1e-3;

function offBy(ratio: number): number {
  return !Number.isFinite(ratio) ? Infinity : ratio >= 1 ? ratio : 1 / ratio;
}

/** Escaped text with `code` spans. */
function codeSpans(text: string): string {
  return text.split("`").map((part, k) => (k % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part))).join("");
}

export function resultsHtml(page: ResultsPage, cspSource: string): string {
  const { reply } = page;
  const status = reply.ok ? "done" : reply.interrupted ? "interrupted" : "failed";
  const estimate = page.estimate ? ` · estimated ${formatDuration(page.estimate.seconds)}${page.estimate.unknown > 0 ? ` (+${page.estimate.unknown} operations of unknown size)` : ""}` : "";
  const estimateTitle = "measured: the run's wall-clock time; estimated: the cost model's time for the operations written in what ran, one pass through loops";
  const note = page.estimate ? estimateNote(reply, page.estimate) : undefined;
  const planChange = reply.previousPlan && reply.plan ? `<div class="meta" id="plan-change">plan: ${escapeHtml(reply.plan)} (was ${escapeHtml(reply.previousPlan)}; the session's variables were kept)</div>` : "";
  const noteHtml = note
    ? `<div class="meta" id="estimate-note">Why the estimate was off: ${escapeHtml(note.summary)}<ul>${note.reasons.map((r) => `<li>${codeSpans(r)}</li>`).join("")}</ul></div>`
    : "";
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
.matrix-body { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
figure { margin: 0; } figure figcaption { font-size: 11px; color: var(--vscode-descriptionForeground); } figure figcaption.title { color: var(--vscode-foreground); font-size: 12px; }
svg .empty { fill: var(--vscode-editor-background); stroke: var(--vscode-descriptionForeground, #888); stroke-width: 0.5; } svg.pattern .nonzero { fill: var(--vscode-charts-blue, #3794ff); }
svg.heatmap .positive { fill: var(--vscode-charts-red, #f14c4c); } svg.heatmap .negative { fill: var(--vscode-charts-blue, #3794ff); } svg.heatmap .nan { fill: var(--vscode-charts-yellow, #cca700); }
svg text { fill: var(--vscode-foreground); font-size: 11px; font-family: var(--vscode-font-family); } svg text.title { font-size: 12px; } svg text.axis, svg text.note { fill: var(--vscode-descriptionForeground); }
#estimate-note ul { margin: 2px 0 0; padding-left: 18px; }`, `<h2>${escapeHtml(page.title)}</h2>
<div class="meta" id="status" title="${escapeHtml(estimateTitle)}">${status} in ${formatDuration(reply.ms / 1000)}${estimate}</div>
${planChange}${noteHtml}
<h3>Output</h3>
<pre id="output">${escapeHtml(reply.output.join("\n")) || "(nothing printed)"}</pre>
${reply.errors.length > 0 ? `<pre class="error" id="errors">${escapeHtml(reply.errors.join("\n"))}</pre>` : ""}
${blocksHtml(reply.blocks, reply.plan)}
<h3>Variables</h3>
<table id="variables"><tr><th>name</th><th>kind</th><th>size</th></tr>${variables}</table>
${matrices}`);
}
