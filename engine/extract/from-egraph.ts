/**
 * Any e-graph as an extraction graph: the classes reachable from the roots,
 * each node with the cost the caller gives it (Infinity: never chosen).
 * Node ids are "<class>.<position>"; a child is named by its class's first node.
 */
import type { ClassId, EGraphApi, ENode } from "../egraph";
import type { ExtractionGraph, ExtractionNode } from "./extraction-graph";

export function extractionGraphOf<D>(egraph: EGraphApi<D>, roots: readonly ClassId[], cost: (node: ENode, id: ClassId) => number): ExtractionGraph {
  const classes = new Map<string, string[]>();
  const pending: { id: string; cls: ClassId; op: string; children: ClassId[]; cost: number }[] = [];
  const rootIds = roots.map((r) => egraph.find(r));
  const seen = new Set<ClassId>(rootIds);
  const stack = [...seen];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    const members: string[] = [];
    classes.set(String(cls), members);
    egraph.classOf(cls).nodes.forEach((node, k) => {
      const children = node.children.map((c) => egraph.find(c));
      const id = `${cls}.${k}`;
      members.push(id);
      pending.push({ id, cls, op: node.op, children, cost: cost(node, cls) });
      for (const child of children) {
        if (seen.has(child)) continue;
        seen.add(child);
        stack.push(child);
      }
    });
  }
  const nodes = new Map<string, ExtractionNode>();
  for (const p of pending) {
    nodes.set(p.id, { id: p.id, op: p.op, eclass: String(p.cls), children: p.children.map((c) => classes.get(String(c))![0]!), cost: p.cost });
  }
  return { nodes, classes, roots: [...new Set(rootIds)].map(String) };
}
