/**
 * Any e-graph as an extraction graph: the classes reachable from the roots,
 * each node with the cost the caller gives it. A node of infinite cost is
 * left out, and so is a node whose children cannot all be extracted (a
 * least fixpoint, so a cycle alone does not count). A class the caller names
 * as a leaf stands for a value already computed: one node of cost 0, and the
 * walk does not descend into it.
 * Node ids are "<class>.<position>" ("<class>.leaf" for a leaf); a child is
 * named by its class's first node.
 */
import type { ClassId, EGraphApi, ENode } from "../egraph";
import type { ExtractionGraph, ExtractionNode } from "./extraction-graph";

export interface ExtractionGraphOptions {
  /** The operator of the leaf a class is read from, or undefined to extract it from its nodes. */
  leaf?: (cls: ClassId) => string | undefined;
}

interface Pending {
  id: string;
  cls: ClassId;
  op: string;
  children: ClassId[];
  cost: number;
}

export function extractionGraphOf<D>(egraph: EGraphApi<D>, roots: readonly ClassId[], cost: (node: ENode, id: ClassId) => number, options: ExtractionGraphOptions = {}): ExtractionGraph {
  const rootIds = [...new Set(roots.map((r) => egraph.find(r)))];
  const pending: Pending[] = [];
  const seen = new Set<ClassId>(rootIds);
  const stack = [...rootIds];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    const leaf = options.leaf?.(cls);
    if (leaf !== undefined) {
      pending.push({ id: `${cls}.leaf`, cls, op: leaf, children: [], cost: 0 });
      continue;
    }
    egraph.classOf(cls).nodes.forEach((node, k) => {
      const c = cost(node, cls);
      if (!Number.isFinite(c)) return;
      const children = node.children.map((child) => egraph.find(child));
      pending.push({ id: `${cls}.${k}`, cls, op: node.op, children, cost: c });
      for (const child of children) {
        if (seen.has(child)) continue;
        seen.add(child);
        stack.push(child);
      }
    });
  }
  // A class is usable when some member has only usable children.
  const usable = new Set<ClassId>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of pending) {
      if (!usable.has(p.cls) && p.children.every((c) => usable.has(c))) {
        usable.add(p.cls);
        changed = true;
      }
    }
  }
  const kept = pending.filter((p) => p.children.every((c) => usable.has(c)));
  const classes = new Map<string, string[]>([...seen].map((cls) => [String(cls), []]));
  for (const p of kept) classes.get(String(p.cls))!.push(p.id);
  const nodes = new Map<string, ExtractionNode>();
  for (const p of kept) nodes.set(p.id, { id: p.id, op: p.op, eclass: String(p.cls), children: p.children.map((c) => classes.get(String(c))![0]!), cost: p.cost });
  return { nodes, classes, roots: rootIds.map(String) };
}
