import type { DagNode } from "./dag-types";

/** Node `id` of a DAG (or of a DAG being built), which must exist: ids come from the DAG itself. */
export function dagNode(dag: { readonly nodes: readonly DagNode[] }, id: number): DagNode {
  const node = dag.nodes[id];
  if (!node) throw new Error(`DAG node ${id} does not exist (the DAG has ${dag.nodes.length} nodes)`);
  return node;
}
