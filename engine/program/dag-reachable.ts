/** The nodes of a block's DAG that some roots are computed from. */
import { isVolatile } from "./dag-purity";
import type { BlockDag } from "./dag-types";

/** The ids of `roots` and of every node they read, directly or through other nodes. */
export function nodesReachableFrom(dag: BlockDag, roots: readonly number[]): Set<number> {
  const reached = new Set<number>();
  const todo = [...roots];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (reached.has(id)) continue;
    const node = dag.nodes[id];
    if (!node) continue;
    reached.add(id);
    todo.push(...node.inputs);
  }
  return reached;
}

/**
 * The nodes a run of the block must compute: those its outputs and effects
 * (sinks) are computed from, and every volatile node with what it reads
 * (dag-purity.ts: reads, unseeded random numbers, user-function calls,
 * builtins with effects), so effects and random streams happen as written
 * even when the value is not used.
 */
export function nodesNeeded(dag: BlockDag): Set<number> {
  const roots = [...dag.outputs.values(), ...dag.sinks.map((s) => s.node)];
  for (const node of dag.nodes) if (isVolatile(node.op, node.argNames, node.inputs.flatMap((i) => dag.nodes[i] ?? []))) roots.push(node.id);
  return nodesReachableFrom(dag, roots);
}
