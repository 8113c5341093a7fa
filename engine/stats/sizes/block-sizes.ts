/** Sizes of every node of one block DAG, in topological (id) order. */
import type { Diagnostic } from "../../syntax";
import type { BlockDag, DagNode } from "../../program";
import { type NodeSizeContext, nodeStats } from "./node-sizes";
import type { NodeStats } from "./node-stats";
import { affineSpan } from "./affine-bounds";

export interface BlockSizes {
  /** Stats per node id. */
  nodes: NodeStats[];
  /** Stats of each variable the block assigns, by name. */
  outputs: Map<string, NodeStats>;
  diagnostics: Diagnostic[];
  /** Nodes whose size rule found an error (a dimension mismatch, an index out of range, ...): running them fails. */
  failing: Set<number>;
}

/**
 * `declared` gives the sizes the user declared for a node (an `@size`
 * annotation on the assignment whose value it is); they replace what the
 * analysis found, for the node and everything computed from it.
 */
export function blockSizes(dag: BlockDag, context: NodeSizeContext, declared?: (node: DagNode, found: NodeStats) => NodeStats | undefined): BlockSizes {
  const nodes: NodeStats[] = [];
  const diagnostics: Diagnostic[] = [];
  const failing = new Set<number>();
  const withSpans: NodeSizeContext = { ...context, span: (lower, upper) => affineSpan(dag, nodes, lower, upper) };
  for (const node of dag.nodes) {
    const result = nodeStats(node, node.inputs.map((id) => computed(nodes, id)), withSpans);
    nodes[node.id] = declared?.(node, result.stats) ?? result.stats;
    diagnostics.push(...result.diagnostics);
    if (result.diagnostics.some((d) => d.severity === "error")) failing.add(node.id);
  }
  const outputs = new Map<string, NodeStats>();
  for (const [name, id] of dag.outputs) outputs.set(name, computed(nodes, id));
  return { nodes, outputs, diagnostics, failing };
}

/** The stats of node `id`, computed before its users (a DAG's nodes come in topological order, so a missing one is a programming error). */
function computed(nodes: readonly NodeStats[], id: number): NodeStats {
  const stats = nodes[id];
  if (stats === undefined) throw new Error(`block sizes: node #${id} is used before its stats are computed (the DAG's nodes are not in topological order)`);
  return stats;
}
