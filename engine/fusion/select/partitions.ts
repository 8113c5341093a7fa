/**
 * Plan partitions (paper section 4.1): the connected components of the memo
 * table's fusion references. No fused operator spans two partitions, so
 * each is optimized on its own. Of a partition:
 * - roots: its nodes no entry of it references (always materialized);
 * - inputs: nodes outside it that its nodes read;
 * - always materialized: its non-root nodes that leave the DAG or are read
 *   by a node outside it;
 * - materialization points: its non-root matrix nodes with several
 *   consumers (a DAG root counts as one more consumer), where fusing means
 *   computing the node again in each consumer's operator.
 * Only nodes reachable from the DAG's roots count (dead consumers are not
 * consumers).
 */
import { reachableAscending } from "../explore";
import type { FusionDag } from "../fusion-dag";
import { fusedInputs, type MemoTable } from "../memo-table";
import { interestingPoints, type InterestingPoint } from "./interesting-points";

export interface PlanPartition {
  /** Its nodes, ascending. */
  nodes: number[];
  members: ReadonlySet<number>;
  roots: number[];
  inputs: number[];
  /** Non-root nodes that are DAG roots or read outside the partition. */
  alwaysMaterialized: number[];
  materializationPoints: number[];
  /** The partition's search space: each point true (materialized) or false (fusable). */
  points: InterestingPoint[];
}

export function analyzePartitions(dag: FusionDag, memo: MemoTable): PlanPartition[] {
  const reachable = new Set(reachableAscending(dag));
  const consumers = (node: number) => [...new Set(dag.consumers[node]!)].filter((c) => reachable.has(c));
  const dagRoots = new Set(dag.roots);
  const parent = new Map<number, number>();
  const find = (n: number): number => {
    let r = n;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(n, r);
    return r;
  };
  for (const node of memo.nodes()) parent.set(node, node);
  for (const node of memo.nodes()) {
    for (const entry of memo.get(node)) {
      for (const ref of fusedInputs(entry)) {
        if (!parent.has(ref)) continue;
        const a = find(node);
        const b = find(ref);
        if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
      }
    }
  }
  const components = new Map<number, number[]>();
  for (const node of memo.nodes()) {
    const root = find(node);
    const list = components.get(root) ?? [];
    list.push(node);
    components.set(root, list);
  }
  return [...components.values()].map((nodes) => describePartition(dag, memo, nodes, consumers, dagRoots));
}

function describePartition(
  dag: FusionDag,
  memo: MemoTable,
  nodes: number[],
  consumers: (node: number) => number[],
  dagRoots: ReadonlySet<number>,
): PlanPartition {
  const members = new Set(nodes);
  const referenced = new Set<number>();
  for (const node of nodes) for (const entry of memo.get(node)) for (const ref of fusedInputs(entry)) referenced.add(ref);
  const roots = nodes.filter((n) => !referenced.has(n));
  const inputs = [...new Set(nodes.flatMap((n) => dag.nodes[n]!.inputs).filter((i) => !members.has(i)))].sort((a, b) => a - b);
  const isRoot = new Set(roots);
  const alwaysMaterialized = nodes.filter((n) => !isRoot.has(n) && (dagRoots.has(n) || consumers(n).some((c) => !members.has(c))));
  const materializationPoints = nodes.filter(
    (n) => !isRoot.has(n) && dag.stats[n]?.type.dataType === "matrix" && consumers(n).length + (dagRoots.has(n) ? 1 : 0) >= 2,
  );
  const points = interestingPoints(memo, nodes, members, materializationPoints, consumers);
  return { nodes, members, roots, inputs, alwaysMaterialized, materializationPoints, points };
}
