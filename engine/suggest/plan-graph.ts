/**
 * The part of a block's e-graph one statement can be extracted from, as an
 * extraction graph: the classes reachable from the statement's class, with
 * each node's cost from the cost model. Values that variables hold before
 * the statement are leaves named by the variable (cost 0: already computed);
 * `allowed` restricts the nodes (e.g. to the original plan).
 */
import type { ClassId, ENode, Term, EGraph } from "../egraph";
import { extractionGraphOf, type Extraction, type ExtractionGraph } from "../extract";
import type { OptimizerData } from "../rewrite";
import { enodeCost } from "../rewrite";

export interface PlanGraphOptions {
  /** Class → the variable that holds its value before the statement (undefined: none). */
  nameOf: (cls: ClassId) => string | undefined;
  /** Which nodes may be chosen (default: all). */
  allowed?: (node: ENode, id: ClassId) => boolean;
  /** Cost of a node (default: the cost model). */
  cost?: (node: ENode, id: ClassId) => number;
}

export const NAME_PREFIX = "name:";

export function planGraph(egraph: EGraph<OptimizerData>, root: ClassId, options: PlanGraphOptions): ExtractionGraph {
  const cost = options.cost ?? ((node: ENode, id: ClassId) => enodeCost(egraph, node, id));
  const rootId = egraph.find(root);
  return extractionGraphOf(egraph, [rootId], (node, id) => (options.allowed && !options.allowed(node, id) ? Number.POSITIVE_INFINITY : cost(node, id)), {
    leaf: (cls) => {
      const name = cls === rootId ? undefined : options.nameOf(cls);
      return name === undefined ? undefined : NAME_PREFIX + name;
    },
  });
}

/** The extracted term of the graph's root. */
export function extractedTerm(graph: ExtractionGraph, extraction: Extraction, cls: string = graph.roots[0]!): Term {
  const nodeId = extraction.choices.get(cls);
  if (nodeId === undefined) throw new Error(`extraction chose nothing for class ${cls}`);
  const node = graph.nodes.get(nodeId)!;
  return { op: node.op, children: node.children.map((child) => extractedTerm(graph, extraction, graph.nodes.get(child)!.eclass)) };
}
