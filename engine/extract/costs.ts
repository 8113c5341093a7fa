/** DAG cost (each chosen node once) and tree cost (once per use) of a choice, and its validity. */
import { childClass, type ExtractionGraph } from "./extraction-graph";

/** The nodes the roots reach through the choices. */
function reachable(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...graph.roots];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (seen.has(cls)) continue;
    seen.add(cls);
    const node = graph.nodes.get(choices.get(cls) ?? "");
    if (node) for (const child of node.children) stack.push(childClass(graph, child));
  }
  return seen;
}

export function dagCost(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): number {
  let total = 0;
  for (const cls of reachable(graph, choices)) total += graph.nodes.get(choices.get(cls)!)?.cost ?? Infinity;
  return total;
}

export function treeCost(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): number {
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const cost = (cls: string): number => {
    const known = memo.get(cls);
    if (known !== undefined) return known;
    if (visiting.has(cls)) return Infinity;
    visiting.add(cls);
    const node = graph.nodes.get(choices.get(cls) ?? "");
    let total = node ? node.cost : Infinity;
    if (node) for (const child of node.children) total += cost(childClass(graph, child));
    visiting.delete(cls);
    memo.set(cls, total);
    return total;
  };
  return graph.roots.reduce((sum, root) => sum + cost(root), 0);
}

/** Problems of an extraction: unchosen classes, dangling choices, cycles. Empty when valid. */
export function validateExtraction(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (cls: string, path: string[]): void => {
    const s = state.get(cls);
    if (s === "done") return;
    if (s === "visiting") {
      problems.push(`cycle through class ${cls}`);
      return;
    }
    const nodeId = choices.get(cls);
    const node = nodeId === undefined ? undefined : graph.nodes.get(nodeId);
    if (!node) {
      problems.push(`class ${cls} has no chosen node`);
      state.set(cls, "done");
      return;
    }
    if (node.eclass !== cls) problems.push(`node ${nodeId} chosen for class ${cls} belongs to ${node.eclass}`);
    state.set(cls, "visiting");
    for (const child of node.children) visit(childClass(graph, child), [...path, cls]);
    state.set(cls, "done");
  };
  for (const root of graph.roots) visit(root, []);
  return problems;
}
