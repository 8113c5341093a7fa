/** DAG cost (each chosen node once) and tree cost (once per use) of a choice, and its validity. */
import { childClass, type ExtractionGraph } from "./extraction-graph";

/** The classes the roots reach through the choices, each with its chosen node (undefined: none chosen). */
function reach(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): Map<string, string | undefined> {
  const reached = new Map<string, string | undefined>();
  const stack = [...graph.roots];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (reached.has(cls)) continue;
    const id = choices.get(cls);
    reached.set(cls, id);
    const node = id === undefined ? undefined : graph.nodes.get(id);
    if (node) for (const child of node.children) stack.push(childClass(graph, child));
  }
  return reached;
}

/** The choices the roots reach (an extraction without the classes nothing uses). */
export function reachableChoices(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): Map<string, string> {
  const kept = new Map<string, string>();
  for (const [cls, id] of reach(graph, choices)) if (id !== undefined) kept.set(cls, id);
  return kept;
}

export function dagCost(graph: ExtractionGraph, choices: ReadonlyMap<string, string>): number {
  let total = 0;
  for (const id of reach(graph, choices).values()) total += (id === undefined ? undefined : graph.nodes.get(id)?.cost) ?? Infinity;
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
