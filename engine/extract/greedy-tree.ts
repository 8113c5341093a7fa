/**
 * Greedy tree-cost extraction (egg's Extractor): each class takes the member
 * with the least node + children cost, computed bottom-up in cost order so
 * that every node is costed once.
 */
import { dagCost, treeCost } from "./costs";
import { childClass, type Extraction, type ExtractionGraph } from "./extraction-graph";

export function extractGreedyTree(graph: ExtractionGraph): Extraction {
  const start = performance.now();
  const cost = new Map<string, number>();
  const choice = new Map<string, string>();
  // Knuth's generalization of Dijkstra: a class is final when its cheapest ready node is popped; a node is
  // ready (and costed, once) when all its children's classes are final. Nodes on cycles never get ready.
  const parents = new Map<string, string[]>();
  const childClasses = new Map<string, string[]>();
  const waiting = new Map<string, number>();
  const heap = new MinHeap();
  for (const node of graph.nodes.values()) {
    const kids = node.children.map((c) => childClass(graph, c));
    childClasses.set(node.id, kids);
    const distinct = new Set(kids);
    waiting.set(node.id, distinct.size);
    if (distinct.size === 0) heap.push(node.cost, node.id);
    for (const cls of distinct) {
      const list = parents.get(cls);
      if (list) list.push(node.id);
      else parents.set(cls, [node.id]);
    }
  }
  for (let top = heap.pop(); top !== undefined; top = heap.pop()) {
    const node = graph.nodes.get(top.id)!;
    if (cost.has(node.eclass) || !Number.isFinite(top.key)) continue;
    cost.set(node.eclass, top.key);
    choice.set(node.eclass, top.id);
    for (const parentId of parents.get(node.eclass) ?? []) {
      const left = waiting.get(parentId)! - 1;
      waiting.set(parentId, left);
      if (left > 0) continue;
      let total = graph.nodes.get(parentId)!.cost;
      for (const cls of childClasses.get(parentId)!) total += cost.get(cls)!;
      heap.push(total, parentId);
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

/** A binary min-heap of (key, id). */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly ids: string[] = [];

  push(key: number, id: string): void {
    let i = this.keys.length;
    this.keys.push(key);
    this.ids.push(id);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.keys[up]! <= key) break;
      this.keys[i] = this.keys[up]!;
      this.ids[i] = this.ids[up]!;
      i = up;
    }
    this.keys[i] = key;
    this.ids[i] = id;
  }

  pop(): { key: number; id: string } | undefined {
    if (this.keys.length === 0) return undefined;
    const top = { key: this.keys[0]!, id: this.ids[0]! };
    const key = this.keys.pop()!;
    const id = this.ids.pop()!;
    const n = this.keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const c = l + 1 < n && this.keys[l + 1]! < this.keys[l]! ? l + 1 : l;
        if (this.keys[c]! >= key) break;
        this.keys[i] = this.keys[c]!;
        this.ids[i] = this.ids[c]!;
        i = c;
      }
      this.keys[i] = key;
      this.ids[i] = id;
    }
    return top;
  }
}
