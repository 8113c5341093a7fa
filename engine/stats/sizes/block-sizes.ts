/** Sizes of every node of one block DAG, in topological (id) order. */
import type { Diagnostic } from "../../syntax/ast";
import type { BlockDag } from "../../program/dag-types";
import { type NodeSizeContext, nodeStats } from "./node-sizes";
import type { NodeStats } from "./node-stats";

export interface BlockSizes {
  /** Stats per node id. */
  nodes: NodeStats[];
  /** Stats of each variable the block assigns, by name. */
  outputs: Map<string, NodeStats>;
  diagnostics: Diagnostic[];
}

export function blockSizes(dag: BlockDag, context: NodeSizeContext): BlockSizes {
  const nodes: NodeStats[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const node of dag.nodes) {
    const result = nodeStats(node, node.inputs.map((id) => nodes[id]), context);
    nodes[node.id] = result.stats;
    diagnostics.push(...result.diagnostics);
  }
  const outputs = new Map<string, NodeStats>();
  for (const [name, id] of dag.outputs) outputs.set(name, nodes[id]);
  return { nodes, outputs, diagnostics };
}
