/** The nodes of a block's DAG that some roots are computed from. */
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
