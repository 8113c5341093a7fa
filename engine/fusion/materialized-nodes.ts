/**
 * The values a fusion plan computes apart: walking from the DAG's roots, a
 * node that roots a fused operator is computed by it (its covered nodes are
 * not computed apart) and the walk continues at the operator's inputs; any
 * other node is computed on its own and the walk continues at its inputs.
 */
import type { FusionDag } from "./fusion-dag";
import type { FusedOperator } from "./types";

/** Each operator under each of its roots. */
export function operatorsByRoot(operators: readonly FusedOperator[]): Map<number, FusedOperator> {
  const byRoot = new Map<number, FusedOperator>();
  for (const op of operators) for (const root of op.roots) byRoot.set(root, op);
  return byRoot;
}

/** The nodes computed as operator roots or on their own, ascending. */
export function materializedNodes(dag: FusionDag, byRoot: ReadonlyMap<number, FusedOperator>): number[] {
  const seen = new Set<number>();
  const stack = [...dag.roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const op = byRoot.get(node);
    stack.push(...(op ? op.inputs : dag.nodes[node]!.inputs));
  }
  return [...seen].sort((a, b) => a - b);
}
