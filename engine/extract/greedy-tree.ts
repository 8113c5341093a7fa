/** Greedy tree-cost extraction (egg's Extractor): bottom-up, each class takes the member with the least node + children cost. */
import { dagCost, treeCost } from "./costs";
import { childClass, type Extraction, type ExtractionGraph } from "./extraction-graph";

export function extractGreedyTree(graph: ExtractionGraph): Extraction {
  const start = performance.now();
  const cost = new Map<string, number>();
  const choice = new Map<string, string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const [cls, members] of graph.classes) {
      for (const id of members) {
        const node = graph.nodes.get(id)!;
        let total = node.cost;
        for (const child of node.children) total += cost.get(childClass(graph, child)) ?? Infinity;
        if (total < (cost.get(cls) ?? Infinity)) {
          cost.set(cls, total);
          choice.set(cls, id);
          changed = true;
        }
      }
    }
  }
  for (const root of graph.roots) if (!choice.has(root)) throw new Error(`class ${root} cannot be extracted (no finite, acyclic member)`);
  const choices = new Map<string, string>();
  const stack = [...graph.roots];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (choices.has(cls)) continue;
    const id = choice.get(cls)!;
    choices.set(cls, id);
    for (const child of graph.nodes.get(id)!.children) stack.push(childClass(graph, child));
  }
  return { choices, dagCost: dagCost(graph, choices), treeCost: treeCost(graph, choices), ms: performance.now() - start, method: "greedy-tree" };
}
