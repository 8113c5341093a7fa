/**
 * The hover on an expression that a fused operator of the block's fusion
 * plan (as written) computes: the operator's template and variant, what it
 * reads, which intermediates it does not materialize, and the block's cost
 * with and without fusion:
 *
 *   **Fused operator**: `sum(X * Y * Z)` runs as one Cell operator (full aggregate, sparse-safe over X)
 *   inputs: X, Y, Z
 *   `X * Y` and `X * Y * Z` are not materialized
 *   this operator: 1.20 ms (3.40 ms as 3 separate operations)
 *   block: 4.10 ms fused, 9.80 ms unfused
 *
 * The hovered expression is the innermost operation written at the
 * position (a variable or constant there stands for the operation it is an
 * operand of); only an operation the operator computes gets the hover.
 */
import { formatSeconds } from "../../engine/cost";
import type { BlockDagInfo, DagNode } from "../../engine/program";
import type { BlockFusion, FusionOperatorView, FusionView } from "../../engine/suggest";
import { type Position, type Range, rangeContains, sameRange, textInRange } from "../../engine/syntax";
import { isLeaf } from "./dml-labels";
import { nodeExpression, viewNodes, withoutEnclosingParentheses, type NodeTexts } from "./fusion-expressions";
import { listWords, operatorPhrase } from "./fusion-words";

/** Inputs named in a hover (an operator may read many). */
const MAX_INPUTS = 10;

const rangeSize = (r: Range) => (r.end.line - r.start.line) * 100_000 + (r.end.character - r.start.character);

/** A name or number stays as is; other DML is shown as code. */
function quote(text: string): string {
  return /^[A-Za-z_.][\w.]*$|^-?[\d.]+(e-?\d+)?$/.test(text) ? text : `\`${text.replace(/`/g, "'")}\``;
}

/**
 * The operation written at `position`: the innermost non-leaf node of the
 * block's DAG whose range holds it; on a statement's target variable, the
 * value the statement assigns.
 */
function operationAt(info: BlockDagInfo, position: Position, word: string | undefined): DagNode | undefined {
  const around = info.dag.nodes.filter((n) => !isLeaf(n) && rangeContains(n.range, position)).sort((a, b) => rangeSize(a.range) - rangeSize(b.range));
  if (around.length > 0) return around[0];
  const assigned = word === undefined ? undefined : info.dag.outputs.get(word);
  const node = assigned === undefined ? undefined : info.dag.nodes[assigned];
  return node && !isLeaf(node) && node.range.start.line === position.line ? node : undefined;
}

/** The operators of `view` that compute node `id` (one, or several when they recompute a shared value). */
export function operatorsComputing(view: FusionView, id: number): FusionOperatorView[] {
  return view.operators.filter((op) => op.covered.includes(id));
}

/**
 * The DML of the view's node `id` as the document writes it (when the
 * view's node is the document's node at the same place), else printed
 * from the plan; a node that is a variable's value in the block, by the
 * variable's name.
 */
function documentTexts(text: string, info: BlockDagInfo, view: FusionView): NodeTexts {
  const nodes = viewNodes(view);
  const nameOf = new Map<number, string>();
  for (const [name, id] of info.dag.outputs) if (!nameOf.has(id) && !isLeaf(info.dag.nodes[id]!)) nameOf.set(id, name);
  const isWritten = (id: number) => {
    const planned = nodes.get(id);
    const node = info.dag.nodes[id];
    return planned?.range !== undefined && node !== undefined && sameRange(planned.range, node.range);
  };
  return {
    written: (id) => (isWritten(id) ? withoutEnclosingParentheses(textInRange(text, info.dag.nodes[id]!.range).replace(/\s+/g, " ")) : undefined),
    named: (id) => (isWritten(id) ? nameOf.get(id) : undefined),
  };
}

/** The intermediates the operator computes without writing them out: its covered nodes other than its results (a variable's value by its name). */
export function notMaterialized(view: FusionView, op: FusionOperatorView, texts: NodeTexts = {}): string[] {
  const nodes = viewNodes(view);
  const roots = new Set(op.roots);
  // A value assigned to a variable is named by it (`P`), others by their DML.
  return [...new Set(op.covered.filter((id) => !roots.has(id)).map((id) => texts.named?.(id) ?? nodeExpression(nodes, id, texts)))];
}

/** One operator's hover paragraph. */
export function operatorHover(view: FusionView, op: FusionOperatorView, texts: NodeTexts = {}): string {
  const lines = [`**Fused operator**: ${quote(op.text)} ${op.template === "magg" ? "run" : "runs"} as ${operatorPhrase(op, quote)}`];
  if (op.inputs.length > 0) lines.push(`inputs: ${op.inputs.slice(0, MAX_INPUTS).map(quote).join(", ")}${op.inputs.length > MAX_INPUTS ? ` and ${op.inputs.length - MAX_INPUTS} more` : ""}`);
  const hidden = notMaterialized(view, op, texts);
  if (hidden.length > 0) lines.push(`${listWords(hidden.map((t) => `\`${t.replace(/`/g, "'")}\``))} ${hidden.length === 1 ? "is" : "are"} not materialized`);
  lines.push(`this operator: ${formatSeconds(op.seconds)} (${formatSeconds(op.unfusedSeconds)} as ${op.covered.length} separate operation${op.covered.length === 1 ? "" : "s"})`);
  return lines.join("  \n");
}

/** "block: 4.10 ms fused, 9.80 ms unfused" (and the same of the block as rewritten, when planned). */
export function blockCostLine(fusion: BlockFusion): string {
  const cost = (view: FusionView) => `${formatSeconds(view.cost.fused)} fused, ${formatSeconds(view.cost.unfused)} unfused`;
  const rewritten = fusion.rewritten ? `  \nblock with the cheaper rewrites applied: ${cost(fusion.rewritten)}` : "";
  return `block: ${cost(fusion.asWritten)}${rewritten}`;
}

/** The hover parts for `position` in the block `info`, or none when no fused operator computes the operation there. */
export function fusionHover(text: string, info: BlockDagInfo, fusion: BlockFusion | undefined, position: Position, word?: string): string[] {
  const view = fusion?.asWritten;
  if (!fusion || !view || view.operators.length === 0) return [];
  const node = operationAt(info, position, word);
  if (!node) return [];
  const operators = operatorsComputing(view, node.id);
  if (operators.length === 0) return [];
  const texts = documentTexts(text, info, view);
  return [...operators.map((op) => operatorHover(view, op, texts)), blockCostLine(fusion)];
}
