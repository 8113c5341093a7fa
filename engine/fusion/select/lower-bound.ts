/**
 * The lower bound of cost-based pruning (paper section 4.3): no plan of a
 * partition costs less than
 *
 *   W + W_mp + max(R + R_mp, C_min)
 *
 * - W: writes of the nodes every plan materializes (partition roots, nodes
 *   that leave the DAG or are read outside the partition);
 * - R: one read of every partition input;
 * - C_min: each partition node's smallest possible compute (it is computed
 *   at least once; no redundancy, the best sparsity exploitation);
 * - W_mp, R_mp (GETMPCOST): one write and one read of each distinct target
 *   of the points assigned true that is not already in W.
 * It is a bound because Σ_op (T_w + max(T_r, T_c)) ≥ Σ T_w + max(Σ T_r, Σ T_c);
 * it grows with the set of true points, so when it reaches the best cost
 * known at a plan, the plans that only add true points after the plan's
 * last true point (2^(|M|-x-1) of them) are skipped as well. Terms for a
 * node whose cost engine/cost cannot estimate count 0 (a single operation
 * of unknown cost costs 0 in every plan).
 */
import type { FusionDag } from "../fusion-dag";
import type { MemoTable } from "../memo-table";
import type { InterestingPoint } from "./interesting-points";
import { sparsity, type FusedCostModel } from "./operator-cost";
import type { PlanPartition } from "./partitions";

export interface StaticCosts {
  writeSeconds: number;
  readSeconds: number;
  computeSeconds: number;
  /** Nodes whose write is in `writeSeconds`. */
  written: ReadonlySet<number>;
}

export function staticCosts(dag: FusionDag, memo: MemoTable, part: PlanPartition, model: FusedCostModel): StaticCosts {
  const c = model.constants;
  const written = new Set([...part.roots, ...part.alwaysMaterialized]);
  let writeSeconds = 0;
  for (const node of written) writeSeconds += writeBound(model, node) / c.writeBandwidthBytesPerSecond;
  let readSeconds = 0;
  for (const input of part.inputs) readSeconds += readBound(dag, part, model, input) / c.memoryBandwidthBytesPerSecond;
  const candidates = [...part.nodes, ...part.inputs];
  const minFraction = Math.min(1, ...candidates.map((n) => sparsity(dag, n)));
  let computeSeconds = 0;
  // Only an operator of a template other than Row scales a node's FLOPs by its driver's sparsity, and it covers
  // the node through the node's entry of its template or its Cell entry: a node with Row entries only is never scaled.
  for (const node of part.nodes) computeSeconds += model.minComputeSeconds(node, minFraction, memo.get(node).some((e) => e.template !== "row"));
  return { writeSeconds, readSeconds, computeSeconds, written };
}

/** GETMPCOST: write and read seconds of the distinct targets of the true points (writes not already counted). */
export function materializationCost(dag: FusionDag, part: PlanPartition, model: FusedCostModel, statics: StaticCosts, truePoints: readonly InterestingPoint[]): { write: number; read: number } {
  const c = model.constants;
  const targets = new Set(truePoints.map((p) => p.target));
  let write = 0;
  let read = 0;
  for (const t of targets) {
    if (!statics.written.has(t)) write += writeBound(model, t) / c.writeBandwidthBytesPerSecond;
    read += readBound(dag, part, model, t) / c.memoryBandwidthBytesPerSecond;
  }
  return { write, read };
}

export function lowerBound(statics: StaticCosts, mp: { write: number; read: number }): number {
  return statics.writeSeconds + mp.write + Math.max(statics.readSeconds + mp.read, statics.computeSeconds);
}

/** Bytes a materialized node's write costs at least: its value, when its own cost is known. */
function writeBound(model: FusedCostModel, node: number): number {
  return model.nodeWork(node) ? model.valueBytes(node) : 0;
}

/** Bytes a read of `node` by a partition operator costs at least: its value, when every partition consumer's own cost is known. */
function readBound(dag: FusionDag, part: PlanPartition, model: FusedCostModel, node: number): number {
  const readers = dag.consumers[node]!.filter((c) => part.members.has(c));
  return readers.every((r) => model.nodeWork(r) !== undefined) ? model.valueBytes(node) : 0;
}
