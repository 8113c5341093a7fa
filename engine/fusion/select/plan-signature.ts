/**
 * The plan cache's key (paper section 4.3): a partition described with its
 * own node numbering (nodes in order, inputs by first use), so that two
 * partitions of the same shape, operations, sizes, memo entries and
 * interesting points in the same search order get the same key, and the
 * best assignment of one is the best of the other. The key is exact (the
 * whole description, not a hash), so a hit is never a collision. An input
 * outside the partition is described by its operation and its operands'
 * sizes too (a template's binding may look one step past the operator).
 */
import type { FusionDag } from "../fusion-dag";
import type { MemoTable } from "../memo-table";
import type { InterestingPoint } from "./interesting-points";
import type { PlanPartition } from "./partitions";

export function partitionSignature(dag: FusionDag, memo: MemoTable, part: PlanPartition, searchSpace: readonly InterestingPoint[]): string {
  const local = new Map<number, string>();
  part.nodes.forEach((n, i) => local.set(n, `n${i}`));
  let inputs = 0;
  const label = (n: number) => {
    let l = local.get(n);
    if (l === undefined) {
      l = `i${inputs++}`;
      local.set(n, l);
    }
    return l;
  };
  const roots = new Set(part.roots);
  const always = new Set(part.alwaysMaterialized);
  const nodes = part.nodes.map((n) => {
    const node = dag.nodes[n]!;
    const ins = node.inputs.map((i) => [label(i), statsKey(dag, i), part.members.has(i) ? null : outsideKey(dag, i)]);
    const entries = memo.get(n).map((e) => [e.template, e.status, e.inputs.map((r) => (r < 0 ? "-" : label(r)))]);
    return [opKey(node.op), statsKey(dag, n), ins, entries, roots.has(n), always.has(n)];
  });
  const points = searchSpace.map((p) => [label(p.consumer), label(p.target), p.kind]);
  return JSON.stringify([nodes, points]);
}

/** An input outside the partition as a template may look at it: its operation and its own operands' sizes. */
function outsideKey(dag: FusionDag, node: number): unknown[] {
  return [opKey(dag.nodes[node]!.op), dag.nodes[node]!.inputs.map((i) => statsKey(dag, i))];
}

/** The operation (a read variable by kind only: its name does not change a plan). */
function opKey(op: FusionDag["nodes"][number]["op"]): string {
  return op.kind === "input" || op.kind === "parameter" ? op.kind : JSON.stringify(op);
}

function statsKey(dag: FusionDag, node: number): unknown[] {
  const s = dag.stats[node]!;
  return [s.type, s.rows, s.cols, s.nnz, s.value ?? null];
}
