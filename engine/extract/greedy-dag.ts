/**
 * Greedy DAG-aware extraction (extraction-gym's greedy-dag): bottom-up, each
 * class keeps the cheapest *set* of nodes that computes it, where a shared
 * sub-expression is paid once (the union of the children's sets). Results
 * are acyclic: a node whose children's sets contain its own class is skipped.
 */
import { dagCost, treeCost } from "./costs";
import { childClass, type Extraction, type ExtractionGraph } from "./extraction-graph";
import { UnextractableClassError } from "./unextractable-class-error";

interface Solution {
  total: number;
  /** Class → chosen node, for the class and everything below it. */
  choices: Map<string, string>;
}

export function extractGreedyDag(graph: ExtractionGraph): Extraction {
  const start = performance.now();
  const parents = new Map<string, string[]>();
  for (const node of graph.nodes.values()) {
    for (const child of node.children) {
      const cls = childClass(graph, child);
      let list = parents.get(cls);
      if (!list) parents.set(cls, (list = []));
      list.push(node.id);
    }
  }
  const best = new Map<string, Solution>();
  const queue: string[] = [];
  const queued = new Set<string>();
  for (const node of graph.nodes.values()) {
    if (node.children.length === 0) {
      queue.push(node.id);
      queued.add(node.id);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    queued.delete(id);
    const node = graph.nodes.get(id)!;
    if (!Number.isFinite(node.cost)) continue;
    const kids = node.children.map((c) => best.get(childClass(graph, c)));
    if (kids.some((k) => k === undefined)) continue;
    const choices = new Map<string, string>();
    let cyclic = false;
    for (const kid of kids as Solution[]) {
      for (const [cls, chosen] of kid.choices) {
        if (cls === node.eclass) cyclic = true;
        choices.set(cls, chosen);
      }
    }
    if (cyclic) continue;
    choices.set(node.eclass, id);
    let total = 0;
    for (const chosen of choices.values()) total += graph.nodes.get(chosen)!.cost;
    const current = best.get(node.eclass);
    if (current !== undefined && current.total <= total) continue;
    best.set(node.eclass, { total, choices });
    for (const parent of parents.get(node.eclass) ?? []) {
      if (!queued.has(parent)) {
        queued.add(parent);
        queue.push(parent);
      }
    }
  }
  const choices = new Map<string, string>();
  for (const root of graph.roots) {
    const solution = best.get(root);
    if (!solution) throw new UnextractableClassError(root);
    for (const [cls, chosen] of solution.choices) if (!choices.has(cls)) choices.set(cls, chosen);
  }
  return { choices, dagCost: dagCost(graph, choices), treeCost: treeCost(graph, choices), ms: performance.now() - start, method: "greedy-dag" };
}
