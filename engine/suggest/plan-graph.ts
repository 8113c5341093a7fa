/**
 * The part of a block's e-graph one statement can be extracted from, as an
 * extraction graph: the classes reachable from the statement's class, with
 * each node's cost from the cost model. Values that variables hold before
 * the statement are leaves named by the variable (cost 0: already computed);
 * `allowed` restricts the nodes (e.g. to the original plan).
 */
import type { ClassId, ENode, Term } from "../egraph/types";
import type { EGraph } from "../egraph";
import type { Extraction, ExtractionGraph, ExtractionNode } from "../extract";
import type { OptimizerData } from "../rewrite";
import { enodeCost } from "../rewrite";

export interface PlanGraphOptions {
  /** Class → the variable that holds its value before the statement. */
  named: ReadonlyMap<ClassId, string>;
  /** Which nodes may be chosen (default: all). */
  allowed?: (node: ENode, id: ClassId) => boolean;
  /** Cost of a node (default: the cost model). */
  cost?: (node: ENode, id: ClassId) => number;
}

export const NAME_PREFIX = "name:";

export function planGraph(egraph: EGraph<OptimizerData>, root: ClassId, options: PlanGraphOptions): ExtractionGraph {
  const nodes = new Map<string, ExtractionNode>();
  const classes = new Map<string, string[]>();
  const cost = options.cost ?? ((node: ENode, id: ClassId) => enodeCost(egraph, node, id));
  const rootId = egraph.find(root);
  const stack = [rootId];
  const seen = new Set<ClassId>([rootId]);
  const pending: { id: string; cls: ClassId; children: ClassId[]; op: string; cost: number }[] = [];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const members: string[] = [];
    classes.set(String(id), members);
    const name = id === rootId ? undefined : options.named.get(id);
    if (name !== undefined) {
      const nodeId = `${id}.name`;
      nodes.set(nodeId, { id: nodeId, op: NAME_PREFIX + name, eclass: String(id), children: [], cost: 0 });
      members.push(nodeId);
      continue;
    }
    egraph.classOf(id).nodes.forEach((node, k) => {
      if (options.allowed && !options.allowed(node, id)) return;
      const c = cost(node, id);
      if (!Number.isFinite(c)) return;
      const children = node.children.map((child) => egraph.find(child));
      pending.push({ id: `${id}.${k}`, cls: id, children, op: node.op, cost: c });
      members.push(`${id}.${k}`);
      for (const child of children) {
        if (!seen.has(child)) {
          seen.add(child);
          stack.push(child);
        }
      }
    });
  }
  // A class is usable when some member has only usable children (a least fixpoint, so cycles alone do not count).
  const usable = new Set<ClassId>();
  for (const [cls, members] of classes) {
    if (members[0]?.endsWith(".name")) usable.add(Number(cls));
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const p of pending) {
      if (!usable.has(p.cls) && p.children.every((c) => usable.has(c))) {
        usable.add(p.cls);
        changed = true;
      }
    }
  }
  const kept = pending.filter((p) => p.children.every((c) => usable.has(c)));
  const keptIds = new Set(kept.map((p) => p.id));
  for (const cls of classes.keys()) classes.set(cls, classes.get(cls)!.filter((m) => m.endsWith(".name") || keptIds.has(m)));
  // Children are named by a representative node of their class; only the class matters.
  for (const p of kept) {
    nodes.set(p.id, { id: p.id, op: p.op, eclass: String(p.cls), children: p.children.map((c) => classes.get(String(c))![0]!), cost: p.cost });
  }
  return { nodes, classes, roots: [String(rootId)] };
}

/** The extracted term of the graph's root. */
export function extractedTerm(graph: ExtractionGraph, extraction: Extraction, cls: string = graph.roots[0]!): Term {
  const nodeId = extraction.choices.get(cls);
  if (nodeId === undefined) throw new Error(`extraction chose nothing for class ${cls}`);
  const node = graph.nodes.get(nodeId)!;
  return { op: node.op, children: node.children.map((child) => extractedTerm(graph, extraction, graph.nodes.get(child)!.eclass)) };
}
