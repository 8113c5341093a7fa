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
 *
 * What opens at a node depends only on the points whose consumer the
 * node's entries can reach through fusion references, so it is memoized
 * across plans under the node and those points' values (OpenedOperators).
 */
import { operatorAt } from "../construct";
import type { FusionDag } from "../fusion-dag";
import { fusedInputs, type MemoTable } from "../memo-table";
import type { FusionTemplate, TemplateType } from "../types";
import type { FusedCostModel } from "./operator-cost";
import type { PlanPartition } from "./partitions";
import { PlanEntries } from "./plan-entries";

export interface CostContext {
  dag: FusionDag;
  byType: ReadonlyMap<TemplateType, FusionTemplate>;
  model: FusedCostModel;
}

/** What opening a materialized node costs and leads to. */
interface Opened {
  seconds: number;
  /** Values it reads inside the partition (opened next). */
  reads: readonly number[];
  /** Covered nodes that must be materialized as well (they leave the DAG or are read outside the partition). */
  alsoMaterialized: readonly number[];
}

/**
 * The most points a memo key covers: a node whose entries reach more (deep
 * in a long fusable chain) is opened again for every plan instead, so
 * neither the keys nor the walks that find them grow with the partition.
 */
const MEMO_KEY_POINTS = 30;

/** The operators opened at each node of one partition, memoized across plans. */
export class OpenedOperators {
  /** Per node: the indices of its relevant points, or null when there are more than MEMO_KEY_POINTS. */
  private readonly relevant = new Map<number, number[] | null>();
  private readonly opened = new Map<number, Map<number, Opened>>();
  private readonly always: ReadonlySet<number>;
  private readonly pointsByConsumer = new Map<number, number[]>();

  constructor(
    private readonly ctx: CostContext,
    private readonly memo: MemoTable,
    private readonly part: PlanPartition,
  ) {
    this.always = new Set(part.alwaysMaterialized);
    part.points.forEach((p, i) => {
      const list = this.pointsByConsumer.get(p.consumer) ?? [];
      list.push(i);
      this.pointsByConsumer.set(p.consumer, list);
    });
  }

  /** `flags`: per point of the partition (in `part.points` order), 1 when assigned true. */
  at(node: number, flags: Uint8Array, entries: PlanEntries): Opened {
    const relevant = this.relevantPoints(node);
    if (relevant === null) return this.open(node, entries);
    let key = 0;
    for (const i of relevant) key = key * 2 + flags[i]!;
    let byKey = this.opened.get(node);
    if (!byKey) this.opened.set(node, (byKey = new Map()));
    let result = byKey.get(key);
    if (!result) {
      result = this.open(node, entries);
      byKey.set(key, result);
    }
    return result;
  }

  private open(node: number, entries: PlanEntries): Opened {
    const { dag, byType, model } = this.ctx;
    const inPartition = (n: number) => this.part.members.has(n);
    const op = operatorAt(dag, entries, byType, node);
    if (op && op.covered.length > 1) {
      return {
        seconds: model.operatorSeconds(op),
        reads: op.inputs.filter(inPartition),
        alsoMaterialized: op.covered.filter((n) => n !== node && this.always.has(n)),
      };
    }
    // One node without fusion is the basic operation itself (as plan-fusion keeps it).
    return { seconds: model.nodeSeconds(node), reads: [...new Set(dag.nodes[node]!.inputs)].filter(inPartition), alsoMaterialized: [] };
  }

  /**
   * Indices of the points whose consumer is reachable from `node` through
   * fusion references; null as soon as there are more than MEMO_KEY_POINTS
   * (the walk stops there).
   */
  private relevantPoints(node: number): number[] | null {
    const known = this.relevant.get(node);
    if (known !== undefined) return known;
    const reach = new Set([node]);
    const stack = [node];
    const edges: number[] = [...(this.pointsByConsumer.get(node) ?? [])];
    let result: number[] | null = edges;
    while (stack.length > 0 && result !== null) {
      for (const entry of this.memo.get(stack.pop()!)) {
        for (const ref of fusedInputs(entry)) {
          if (reach.has(ref)) continue;
          reach.add(ref);
          stack.push(ref);
          edges.push(...(this.pointsByConsumer.get(ref) ?? []));
        }
      }
      if (edges.length > MEMO_KEY_POINTS) result = null;
    }
    if (result !== null) result.sort((a, b) => a - b);
    this.relevant.set(node, result);
    return result;
  }
}

/** The partition's cost with the points flagged in `flags` (`part.points` order) true, or Infinity once it reaches `bound`. */
export function partitionPlanCost(operators: OpenedOperators, memo: MemoTable, part: PlanPartition, flags: Uint8Array, bound = Infinity): number {
  const index = pointIndex(part);
  const entries = new PlanEntries(memo, (consumer, target) => {
    const i = index.get(consumer)?.get(target);
    return i !== undefined && flags[i] === 1;
  });
  const visited = new Set<number>();
  const stack = [...part.roots].reverse();
  let cost = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visited.has(node)) continue;
    visited.add(node);
    const opened = operators.at(node, flags, entries);
    cost += opened.seconds;
    if (cost >= bound) return Infinity;
    for (const inner of opened.alsoMaterialized) stack.push(inner);
    for (let k = opened.reads.length - 1; k >= 0; k--) stack.push(opened.reads[k]!);
  }
  return cost;
}

const pointIndexes = new WeakMap<PlanPartition, Map<number, Map<number, number>>>();

/** Consumer -> target -> index of the point in `part.points`. */
function pointIndex(part: PlanPartition): Map<number, Map<number, number>> {
  let index = pointIndexes.get(part);
  if (!index) {
    index = new Map();
    part.points.forEach((p, i) => {
      let byTarget = index!.get(p.consumer);
      if (!byTarget) index!.set(p.consumer, (byTarget = new Map()));
      byTarget.set(p.target, i);
    });
    pointIndexes.set(part, index);
  }
  return index;
}
