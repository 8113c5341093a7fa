/**
 * The planner's input: a DAG of operations (the program stage's `DagNode`s:
 * operator, inputs, source range) with the size and sparsity of every node,
 * and the nodes whose values leave it. The block DAG as written and the
 * rewriter's extracted plan are both turned into this form.
 */
import type { DagNode } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";

export interface FusionDag {
  /** Inputs of a node always have smaller ids (a topological order). */
  readonly nodes: readonly DagNode[];
  /** Stats of every node, by id. */
  readonly stats: readonly NodeStats[];
  /** Nodes whose values leave the DAG (live-out variables, effects): always materialized. */
  readonly roots: readonly number[];
  /** Consumers of each node, by id (ascending, a consumer listed once per use). */
  readonly consumers: readonly (readonly number[])[];
}

export function fusionDag(nodes: readonly DagNode[], stats: readonly NodeStats[], roots: readonly number[]): FusionDag {
  const consumers: number[][] = nodes.map(() => []);
  for (const node of nodes) for (const input of node.inputs) consumers[input]!.push(node.id);
  return { nodes, stats, roots: [...new Set(roots)].sort((a, b) => a - b), consumers };
}

/** A short name of a node's operation: `*`, `sum:row`, `matmul`, `ifelse`, `X`, `2` (for memo tables and messages). */
export function nodeLabel(node: DagNode | undefined): string {
  if (!node) return "missing";
  const op = node.op;
  switch (op.kind) {
    case "binary":
    case "unary":
      return op.op;
    case "aggregate":
      return `${op.fn}:${op.direction}`;
    case "call":
      return op.name;
    case "input":
      return op.name;
    case "literal":
      return String(op.value);
    case "cast":
      return `as.${op.to}`;
    default:
      return op.kind;
  }
}
