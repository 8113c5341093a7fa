/**
 * Greedy tree-cost extraction (egg's Extractor): each class takes the member
 * with the least node + children cost, computed bottom-up in cost order so
 * that every node is costed once.
 */
import { dagCost, treeCost } from "./costs";
import { childClass, type Extraction, type ExtractionGraph } from "./extraction-graph";
import { UnextractableClassError } from "./unextractable-class-error";

export function extractGreedyTree(graph: ExtractionGraph): Extraction {
  const start = performance.now();
  // Integer indices for nodes and classes; children and parents as flat arrays.
  const nodeIds = [...graph.nodes.keys()];
  const classIds = [...graph.classes.keys()];
  const classIndex = new Map(classIds.map((c, k) => [c, k]));
  const nodeClass = new Int32Array(nodeIds.length);
  const nodeCost = new Float64Array(nodeIds.length);
  const childStart = new Int32Array(nodeIds.length + 1);
  const children: number[] = [];
  nodeIds.forEach((id, k) => {
    const node = graph.nodes.get(id)!;
    nodeClass[k] = classIndex.get(node.eclass)!;
    nodeCost[k] = node.cost;
    for (const child of node.children) children.push(classIndex.get(childClass(graph, child))!);
    childStart[k + 1] = children.length;
  });
  // Knuth's generalization of Dijkstra: a class is final when its cheapest ready node is popped; a node is
  // ready (and costed, once) when all its children's classes are final. Nodes on cycles never get ready.
  const parents: number[][] = classIds.map(() => []);
  const waiting = new Int32Array(nodeIds.length);
  const heap = new MinHeap();
  for (let k = 0; k < nodeIds.length; k++) {
    const distinct = new Set(children.slice(childStart[k]!, childStart[k + 1]!));
    waiting[k] = distinct.size;
    if (distinct.size === 0) heap.push(nodeCost[k]!, k);
    for (const cls of distinct) parents[cls]!.push(k);
  }
  const cost = new Float64Array(classIds.length).fill(Infinity);
  const chosen = new Int32Array(classIds.length).fill(-1);
  for (let top = heap.pop(); top !== undefined; top = heap.pop()) {
    const cls = nodeClass[top.id]!;
    if (chosen[cls] !== -1 || !Number.isFinite(top.key)) continue;
    cost[cls] = top.key;
    chosen[cls] = top.id;
    for (const parent of parents[cls]!) {
      if (--waiting[parent]! > 0) continue;
      let total = nodeCost[parent]!;
      for (let c = childStart[parent]!; c < childStart[parent + 1]!; c++) total += cost[children[c]!]!;
      heap.push(total, parent);
    }
  }
  for (const root of graph.roots) if (chosen[classIndex.get(root)!] === -1) throw new UnextractableClassError(root);
  const choices = new Map<string, string>();
  const stack = graph.roots.map((r) => classIndex.get(r)!);
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (choices.has(classIds[cls]!)) continue;
    const k = chosen[cls]!;
    choices.set(classIds[cls]!, nodeIds[k]!);
    for (let c = childStart[k]!; c < childStart[k + 1]!; c++) stack.push(children[c]!);
  }
  return { choices, dagCost: dagCost(graph, choices), treeCost: treeCost(graph, choices), ms: performance.now() - start, method: "greedy-tree" };
}

/** A binary min-heap of (key, id). */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly ids: number[] = [];

  push(key: number, id: number): void {
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

  pop(): { key: number; id: number } | undefined {
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
