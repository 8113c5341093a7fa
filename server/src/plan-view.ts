/**
 * The `dmlLens/plan` request behind the client's plan view: the statement
 * block at a position as its DAG before optimization (each node with dims,
 * nnz and estimated seconds), and after: each suggestion's rewritten plan
 * with its costs; and the block's fusion plan as written and as rewritten
 * (fusion-plan-view.ts). Each node carries a label in DML (`sum(…)`,
 * `X ^ 2`) and the variable it assigns, when the document's text is given.
 */
import { DEFAULT_MACHINE_CONSTANTS, nodeCost } from "../../engine/cost";
import { dagOpLabel } from "../../engine/program";
import type { ProgramAnalysis } from "../../engine/analysis";
import type { PlanNode } from "../../engine/suggest";
import { type Position, type Range, rangeContains, textInRange } from "../../engine/syntax";
import type { DocumentOptimizations } from "./block-optimizations";
import { assignedNames, dagNodeLabels, planNodeLabels } from "./dml-labels";
import { withoutEnclosingParentheses } from "./fusion-expressions";
import { planFusion, type PlanFusion, type WrittenNode } from "./fusion-plan-view";

export interface PlanViewNode {
  id: number;
  /** The internal operator (`binary[^]`, `aggregate[sum,full]`). */
  op: string;
  /** The DML it stands for, operands abbreviated (`(…)^2`, `sum(…)`); the operator without the document's text. */
  label: string;
  /** The variable this value is assigned to where it is written. */
  assigns?: string;
  inputs: number[];
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  /** Estimated seconds of this operation (null when its sizes are unknown). */
  cost: number | null;
  range: Range;
}

export interface PlanView {
  block: Range;
  before: PlanViewNode[];
  /** Each rewrite's plan, with a DML label per plan node. */
  after: { target: string; range: Range; rewritten: string; costBefore: number; costAfter: number; plan: PlanNode[]; labels: string[] }[];
  /** The block's fusion plans as written and rewritten, each operator with the nodes it covers (absent until the block is optimized). */
  fusion?: PlanFusion;
}


export function planView(analysis: ProgramAnalysis, optimizations: DocumentOptimizations, position: Position, text?: string): PlanView | null {
  const info = analysis.dags.blocks.find((b) => rangeContains(b.block.range, position));
  const sizes = info ? analysis.sizes.blocks.get(info.block) : undefined;
  if (!info || !sizes) return null;
  const labels = text === undefined ? info.dag.nodes.map(dagOpLabel) : dagNodeLabels(text, info.dag.nodes);
  const assigned = text === undefined ? [] : assignedNames(text, info.dag.nodes);
  const before = info.dag.nodes.map((node): PlanViewNode => {
    const stats = sizes.nodes[node.id]!;
    const matrix = stats.type.dataType === "matrix";
    const estimate = node.inputs.length > 0 ? nodeCost(node.op, node.inputs.map((i) => sizes.nodes[i]!), stats, DEFAULT_MACHINE_CONSTANTS) : undefined;
    return {
      id: node.id,
      op: dagOpLabel(node),
      label: labels[node.id]!,
      ...(assigned[node.id] !== undefined ? { assigns: assigned[node.id]! } : {}),
      inputs: node.inputs,
      rows: matrix ? stats.rows : null,
      cols: matrix ? stats.cols : null,
      nnz: matrix && stats.nnz !== null ? Math.round(stats.nnz) : null,
      cost: estimate === undefined ? 0 : estimate.known ? estimate.cost.seconds : null,
      range: node.range,
    };
  });
  const after = (optimizations.get(info)?.suggestions ?? []).map((s) => ({ target: s.target, range: s.range, rewritten: s.rewritten, costBefore: s.costBefore, costAfter: s.costAfter, plan: s.plan, labels: planNodeLabels(s.plan) }));
  const planned = optimizations.get(info)?.fusion;
  const written = new Map(before.map((n): [number, WrittenNode] => [n.id, { ...n, ...(text !== undefined ? { text: withoutEnclosingParentheses(textInRange(text, n.range).replace(/\s+/g, " ")) } : {}) }]));
  const fusion = planned?.asWritten ? planFusion(planned, written) : undefined;
  return { block: info.block.range, before, after, ...(fusion ? { fusion } : {}) };
}
