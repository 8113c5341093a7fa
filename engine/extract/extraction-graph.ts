/**
 * The input of every extractor: an e-graph as the community's serialized
 * format sees it (egraph-serialize), independent of any e-graph
 * implementation. Children are node ids; only a child node's class matters.
 */
export interface ExtractionNode {
  id: string;
  op: string;
  eclass: string;
  /** Node ids, as in the serialized format: the child is that node's class. */
  children: string[];
  /** May be Infinity: never chosen. */
  cost: number;
}

export interface ExtractionGraph {
  nodes: Map<string, ExtractionNode>;
  /** Class id → its nodes' ids. */
  classes: Map<string, string[]>;
  /** Classes that must be extracted. */
  roots: string[];
}

export interface Extraction {
  /** Class → chosen node, for every class the roots need. */
  choices: Map<string, string>;
  dagCost: number;
  treeCost: number;
  ms: number;
  method: "greedy-tree" | "greedy-dag" | "ilp";
  /** The ILP proved the result optimal. */
  optimal?: boolean;
  /** The ILP's time limit (its safety net) stopped the solver: the result may differ on a faster machine. */
  timedOut?: boolean;
  /** That time limit, ms (when `timedOut`). */
  timeLimitMs?: number;
}

export function childClass(graph: ExtractionGraph, childNodeId: string): string {
  const node = graph.nodes.get(childNodeId);
  if (!node) throw new Error(`unknown child node ${childNodeId}`);
  return node.eclass;
}
