/**
 * What the editor shows of the analysis and the optimizer: hover text for
 * the expression or variable under the cursor (type, dims, nnz, sparsity,
 * estimated cost, the fused operator that computes it, the cheaper
 * alternative), an information diagnostic on
 * each statement that has a cheaper verified rewrite, and the quick fix
 * that applies it. Plain data in, plain data out: server.ts converts.
 */
import { DEFAULT_MACHINE_CONSTANTS, formatCostEstimate, formatQuantity, formatSeconds, matrixBytes, nodeCost, formatCount, formatDims, formatSparsity } from "../../engine/cost";
import type { BlockDagInfo, DagNode } from "../../engine/program";
import type { NodeStats, ProgramAnalysis, SparsityEstimator } from "../../engine/analysis";
import { safetyNetNote, suggestionEdits, type Suggestion } from "../../engine/suggest";
import { type Diagnostic, type Position, type Range, rangeContains, textInRange, type TextEdit } from "../../engine/syntax";
import type { DocumentOptimizations } from "./block-optimizations";
import { fusionHover } from "./fusion-hover";
import type { CostUnit } from "./settings";

export const CHEAPER_REWRITE_CODE = "cheaper-rewrite";

const size = (r: Range) => (r.end.line - r.start.line) * 100_000 + (r.end.character - r.start.character);

/** The suggestion's cost before → after in `unit` (time when the unit's counts are unknown), with the factor. */
export function costChange(s: Suggestion, unit: CostUnit): string {
  const pair = unit === "flops" ? s.flops : unit === "bytes" ? s.bytes : undefined;
  if (pair && pair.before !== null && pair.after !== null) {
    const symbol = unit === "flops" ? "FLOP" : "B";
    return change(pair.before, pair.after, (x) => formatQuantity(x, symbol));
  }
  return change(s.costBefore, s.costAfter, formatSeconds);
}

function change(before: number, after: number, format: (x: number) => string): string {
  const factor = (a: number, b: number) => {
    const ratio = a / Math.max(b, 1e-15);
    return ratio.toFixed(ratio >= 10 ? 0 : 1);
  };
  const relative = after <= before ? `${factor(before, after)}× less` : `${factor(after, before)}× more`;
  return `${format(before)} → ${format(after)} (${relative})`;
}

function describeStats(stats: NodeStats, estimator: SparsityEstimator): string {
  if (stats.type.dataType === "scalar") return stats.value === undefined ? `scalar ${stats.type.valueType}` : `scalar ${stats.type.valueType} = ${JSON.stringify(stats.value)}`;
  if (stats.type.dataType !== "matrix") return stats.type.dataType;
  const dims = formatDims(stats.rows, stats.cols);
  if (stats.nnz === null) return `matrix ${dims}, nnz unknown`;
  const cells = stats.rows !== null && stats.cols !== null ? stats.rows * stats.cols : null;
  const sparsity = cells ? `, sparsity ${formatSparsity(stats.nnz, cells)}` : "";
  return `matrix ${dims}, nnz ${stats.nnzExact ? `${formatCount(stats.nnz)} (exact)` : `≈ ${formatCount(stats.nnz)} (${estimatorOf(stats, estimator)})`}${sparsity}`;
}

/**
 * Which estimator gave an inexact nnz (engine/stats/sizes/sketch-sizes.ts):
 * the chain bound when the worst case was asked for; else MNC while a sketch
 * is carried, else the uniform rules, lowered to the chain bound when that is
 * smaller.
 */
function estimatorOf(stats: NodeStats, estimator: SparsityEstimator): string {
  if (estimator === "worst-case" && stats.nnzUpperBound !== undefined && stats.nnz === stats.nnzUpperBound) return "worst case, chain bound";
  if (stats.sketch?.mnc) return "MNC sketch";
  const cells = stats.rows !== null && stats.cols !== null ? stats.rows * stats.cols : Infinity;
  if (stats.nnzUpperBound !== undefined && stats.nnzUpperBound < cells && stats.nnz !== null && stats.nnz >= stats.nnzUpperBound) return "chain bound";
  return "uniform estimate";
}

/** The innermost DAG node written at `position`, with its block. */
function nodeAt(analysis: ProgramAnalysis, position: Position): { info: BlockDagInfo; node: DagNode } | undefined {
  let best: { info: BlockDagInfo; node: DagNode } | undefined;
  for (const info of analysis.dags.blocks) {
    if (!rangeContains(info.block.range, position)) continue;
    for (const node of info.dag.nodes) {
      if (node.op.kind === "literal" || !rangeContains(node.range, position)) continue;
      if (!best || size(node.range) < size(best.node.range)) best = { info, node };
    }
  }
  return best;
}

/** The identifier under the cursor. */
function wordAt(text: string, position: Position): string | undefined {
  const line = text.split("\n")[position.line] ?? "";
  const before = /[A-Za-z_][A-Za-z0-9_.]*$/.exec(line.slice(0, position.character))?.[0] ?? "";
  const after = /^[A-Za-z0-9_.]*/.exec(line.slice(position.character))?.[0] ?? "";
  const word = before + after;
  return /^[A-Za-z_]/.test(word) ? word : undefined;
}

/** Hover markdown, or undefined when nothing is known at the position. */
/** What hover text depends on besides the document: the settings' cost unit and sparsity estimate. */
export interface HoverSettings {
  costUnit: CostUnit;
  sparsityEstimator: SparsityEstimator;
}

export function hoverText(text: string, analysis: ProgramAnalysis, optimizations: DocumentOptimizations, position: Position, view: HoverSettings = { costUnit: "time", sparsityEstimator: "mnc" }): string | undefined {
  const parts: string[] = [];
  const word = wordAt(text, position);
  const block = analysis.dags.blocks.find((b) => rangeContains(b.block.range, position));
  const sizes = block ? analysis.sizes.blocks.get(block.block) : undefined;
  const variable = word !== undefined && block ? (block.dag.outputs.get(word) ?? block.dag.inputs.get(word)) : undefined;
  const found = nodeAt(analysis, position);
  if (variable !== undefined && sizes && (!found || found.node.op.kind === "input" || found.node.id === variable)) {
    parts.push(`**${word}**: ${describeStats(sizes.nodes[variable]!, view.sparsityEstimator)}`);
  } else if (found) {
    const nodeSizes = analysis.sizes.blocks.get(found.info.block);
    const stats = nodeSizes?.nodes[found.node.id];
    if (stats) {
      parts.push(`**${textOf(text, found.node.range)}**: ${describeStats(stats, view.sparsityEstimator)}`);
      const inputs = found.node.inputs.map((i) => nodeSizes!.nodes[i]!);
      if (inputs.length > 0) parts.push(`estimated cost of this expression: ${formatCostEstimate(nodeCost(found.node.op, inputs, stats, DEFAULT_MACHINE_CONSTANTS))}`);
    }
  }
  if (block?.functionName !== undefined) parts.push(...callSiteHover(text, analysis, block, variable, found, view));
  if (block) parts.push(...fusionHover(text, block, optimizations.get(block)?.fusion, position, word));
  for (const result of optimizations.values()) {
    for (const s of result.suggestions) {
      if (!rangeContains(s.range, position) && !(word === s.target && position.line === s.range.start.line)) continue;
      parts.push(
        `**Cheaper equivalent** of the statement assigning ${s.target} (verified): \`${s.rewritten}\`  \nestimated cost of the whole statement: ${costChange(s, view.costUnit)}${s.rows !== null ? `; result ${formatDims(s.rows, s.cols)}, nnz ≈ ${formatCount(s.nnz)}` : ""}`,
      );
      for (const t of s.temporaries ?? []) parts.push(`with \`${t.name} = ${t.text}\` before the statement`);
    }
  }
  const net = block ? optimizations.get(block)?.safetyNet : undefined;
  if (net && parts.length > 0) parts.push(`_Note: ${safetyNetNote(net)}._`);
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

/** Call sites whose sizes a hover in a function body shows (the first ones the main program reaches). */
export const MAX_HOVER_CALL_SITES = 3;

/**
 * In the body of one of the script's functions: the variable's or
 * expression's stats and estimated cost with the sizes of each call site the
 * size analysis analysed the body for (engine/stats/sizes/program-sizes.ts
 * `calls`), the first MAX_HOVER_CALL_SITES of them.
 */
function callSiteHover(text: string, analysis: ProgramAnalysis, block: BlockDagInfo, variable: number | undefined, found: { info: BlockDagInfo; node: DagNode } | undefined, view: HoverSettings): string[] {
  const sites = analysis.sizes.calls.filter((c) => c.file === undefined && c.blocks.has(block.block));
  const parts: string[] = [];
  for (const call of sites.slice(0, MAX_HOVER_CALL_SITES)) {
    const where = `with the sizes of the call at line ${call.site.start.line + 1}`;
    if (variable !== undefined && (!found || found.node.op.kind === "input" || found.node.id === variable)) {
      const stats = call.blocks.get(block.block)!.nodes[variable];
      if (stats) parts.push(`${where}: ${describeStats(stats, view.sparsityEstimator)}`);
      continue;
    }
    const sizes = found && call.blocks.get(found.info.block);
    const stats = found && sizes?.nodes[found.node.id];
    if (!found || !sizes || !stats) continue;
    const inputs = found.node.inputs.map((i) => sizes.nodes[i]!);
    const cost = inputs.length > 0 ? `; estimated cost of this expression: ${formatCostEstimate(nodeCost(found.node.op, inputs, stats, DEFAULT_MACHINE_CONSTANTS))}` : "";
    parts.push(`${where}: \`${textOf(text, found.node.range)}\` is ${describeStats(stats, view.sparsityEstimator)}${cost}`);
  }
  if (sites.length > MAX_HOVER_CALL_SITES) parts.push(`(and ${sites.length - MAX_HOVER_CALL_SITES} more call site${sites.length - MAX_HOVER_CALL_SITES === 1 ? "" : "s"} with other sizes)`);
  return parts;
}

function textOf(text: string, range: Range): string {
  const written = textInRange(text, range).replace(/\s+/g, " ").trim();
  return written.length > 60 ? `${written.slice(0, 57)}…` : written;
}

/** The largest dense intermediate a statement's original plan materializes, in bytes. */
function largestIntermediate(analysis: ProgramAnalysis, range: Range): number {
  let largest = 0;
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    for (const node of info.dag.nodes) {
      const s = sizes.nodes[node.id];
      if (!s || s.type.dataType !== "matrix" || s.rows === null || s.cols === null || s.nnz === null || node.op.kind === "input") continue;
      if (!rangeContains(range, node.range.start) || !rangeContains(range, node.range.end)) continue;
      largest = Math.max(largest, matrixBytes({ kind: "matrix", rows: s.rows, cols: s.cols, nnz: Math.round(s.nnz) }));
    }
  }
  return largest;
}

/** An information diagnostic on each statement with a cheaper verified rewrite. */
export function optimizerDiagnostics(analysis: ProgramAnalysis, optimizations: DocumentOptimizations, unit: CostUnit = "time"): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const result of optimizations.values()) {
    for (const s of result.suggestions) {
      const bytes = largestIntermediate(analysis, s.range);
      const materializes = bytes >= 1e8 ? `materializes a ${formatQuantity(bytes, "B")} intermediate; ` : "";
      diagnostics.push({ severity: "information", message: `${materializes}a cheaper equivalent exists: ${costChange(s, unit)}`, range: s.range, code: CHEAPER_REWRITE_CODE });
    }
  }
  return diagnostics;
}

/** ` (result 10000 × 20, sparsity 1.00)` for a matrix result of known size. */
function resultShape(s: Suggestion): string {
  if (s.rows === null || s.cols === null || s.nnz === null) return "";
  const cells = s.rows * s.cols;
  return ` (result ${formatDims(s.rows, s.cols)}${cells > 0 ? `, sparsity ${formatSparsity(s.nnz, cells)}` : ""})`;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  suggestion: Suggestion;
}

/** "Apply cheaper rewrite" for every suggestion whose statement's lines overlap `range` (the cursor may be on the target). */
export function cheaperRewriteFixes(text: string, optimizations: DocumentOptimizations, range: Range, unit: CostUnit = "time"): QuickFix[] {
  const fixes: QuickFix[] = [];
  for (const result of optimizations.values()) {
    for (const s of result.suggestions) {
      if (range.end.line < s.range.start.line || range.start.line > s.range.end.line) continue;
      const shown = s.rewritten.length > 60 ? `${s.rewritten.slice(0, 57)}…` : s.rewritten;
      fixes.push({ title: `Apply cheaper rewrite: ${costChange(s, unit)}: ${shown}${resultShape(s)}`, edits: suggestionEdits(s, text), suggestion: s });
    }
  }
  return fixes;
}
