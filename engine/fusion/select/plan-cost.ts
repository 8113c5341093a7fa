/**
 * GETPLANCOST (paper section 4.2): the cost of a partition under one
 * assignment of its interesting points. A traversal from the partition's
 * roots opens an operator at every materialized node: the fused operator
 * construction would build there (construct.ts `operatorAt` over the
 * plan's entries), whose cost vector is what it covers (compute, counted
 * again in every operator that covers a node: redundant compute), the
 * distinct values it reads (a shared read counted once) and its root's
 * write; or the node as a single operation when no operator forms. The
 * values an operator reads inside the partition are materialized and
 * opened in turn; a covered node that leaves the DAG or is read outside
 * the partition is opened as well. Each materialized node is costed once
 * (memoized per plan). Costing stops at `bound`: a plan that reaches it
 * cannot be better than the best one known, its cost is Infinity.
 */
import { operatorAt } from "../construct";
import type { FusionDag } from "../fusion-dag";
import type { FusionTemplate, TemplateType } from "../types";
import type { FusedCostModel } from "./operator-cost";
import type { PlanPartition } from "./partitions";
import type { PlanEntries } from "./plan-entries";

export interface CostContext {
  dag: FusionDag;
  byType: ReadonlyMap<TemplateType, FusionTemplate>;
  model: FusedCostModel;
}

export function partitionPlanCost(ctx: CostContext, part: PlanPartition, entries: PlanEntries, bound = Infinity): number {
  const always = new Set(part.alwaysMaterialized);
  const opened = new Set<number>();
  const stack = [...part.roots].reverse();
  let cost = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (opened.has(node)) continue;
    opened.add(node);
    const op = operatorAt(ctx.dag, entries, ctx.byType, node);
    let reads: readonly number[];
    if (op && op.covered.length > 1) {
      cost += ctx.model.operatorSeconds(op);
      reads = op.inputs;
      for (const inner of op.covered) if (inner !== node && always.has(inner)) stack.push(inner);
    } else {
      // One node without fusion is the basic operation itself (as plan-fusion keeps it).
      cost += ctx.model.nodeSeconds(node);
      reads = ctx.dag.nodes[node]!.inputs;
    }
    if (cost >= bound) return Infinity;
    for (let k = reads.length - 1; k >= 0; k--) if (part.members.has(reads[k]!)) stack.push(reads[k]!);
  }
  return cost;
}
