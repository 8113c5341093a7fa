/**
 * For soundness property tests: an expression's e-graph seeded and saturated
 * as the optimizer does (bounded by counts), and plans extracted from its
 * root class under random per-operator costs, so different plans of one
 * class can be evaluated against each other.
 */
import type { ClassId, EGraph, ENode, Term } from "../../engine/egraph";
import { extractGreedyTree, extractionGraphOf, type ExtractionGraph, type Extraction } from "../../engine/extract";
import { bindRoot, expressionEGraph, opFamily, saturate, seedChainOrders, seedSumProductForm, termToDml, type OptimizerData, type TermShapes } from "../../engine/rewrite";
import { expressionNodes } from "./expression-nodes";

export function saturatedExpression(expression: string, shapes: TermShapes): { egraph: EGraph<OptimizerData>; root: ClassId } {
  const { egraph, attributes, root } = expressionEGraph(expression, shapes);
  const nodeOf = expressionNodes(egraph);
  seedChainOrders(egraph, nodeOf, [root]);
  const bind = bindRoot(egraph, attributes, root);
  if (bind !== undefined) seedSumProductForm(egraph, attributes, nodeOf, root, bind);
  egraph.rebuild();
  // Work bounds (counts), so a seed reproduces the same graphs on any machine; the time limit is only a safety net.
  saturate(egraph, attributes, { nodeLimit: 1000, iterationLimit: 10, liftingIterationLimit: 10, timeLimitMs: 5000 });
  return { egraph, root };
}

function termOf(graph: ExtractionGraph, extraction: Extraction, cls: string): Term {
  const node = graph.nodes.get(extraction.choices.get(cls)!)!;
  return { op: node.op, children: node.children.map((c) => termOf(graph, extraction, graph.nodes.get(c)!.eclass)) };
}

/** A plan of the root's class under random per-operator costs (valid LA nodes only), in DML. */
export function randomPlan(egraph: EGraph<OptimizerData>, root: ClassId, seed: number): string {
  let state = seed >>> 0;
  const costs = new Map<string, number>();
  const cost = (node: ENode) => {
    if (opFamily(node.op) !== "la") return Infinity;
    const data = egraph.data(egraph.lookup(node)!);
    if (data.family !== "la" || data.invalid) return Infinity;
    let c = costs.get(node.op);
    if (c === undefined) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      costs.set(node.op, (c = 1 + (state % 100)));
    }
    return c;
  };
  const graph = extractionGraphOf(egraph, [root], cost);
  const extraction = extractGreedyTree(graph);
  return termToDml(termOf(graph, extraction, graph.roots[0]!), () => undefined);
}
