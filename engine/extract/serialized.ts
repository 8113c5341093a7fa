/**
 * The community's serialized e-graph JSON (egraph-serialize, as used by
 * extraction-gym): {"nodes": {id: {op, cost?, eclass, children: [node id]}},
 * "root_eclasses": [class id], "class_data"?: {...}}.
 */
import type { ExtractionGraph, ExtractionNode } from "./extraction-graph";

export class SerializedEGraphError extends Error {}

export function parseSerializedEGraph(json: unknown): ExtractionGraph {
  const fail = (message: string): never => {
    throw new SerializedEGraphError(`serialized e-graph: ${message}`);
  };
  if (typeof json !== "object" || json === null) fail("expected an object");
  const { nodes: rawNodes, root_eclasses: rawRoots } = json as { nodes?: unknown; root_eclasses?: unknown };
  if (typeof rawNodes !== "object" || rawNodes === null || Array.isArray(rawNodes)) fail(`"nodes" must be an object of node id -> node`);
  const nodes = new Map<string, ExtractionNode>();
  const classes = new Map<string, string[]>();
  for (const [id, raw] of Object.entries(rawNodes as Record<string, unknown>)) {
    if (typeof raw !== "object" || raw === null) fail(`node ${id} is not an object`);
    const { op, cost, eclass, children } = raw as { op?: unknown; cost?: unknown; eclass?: unknown; children?: unknown };
    if (typeof op !== "string") fail(`node ${id} has no string "op"`);
    if (typeof eclass !== "string" && typeof eclass !== "number") fail(`node ${id} has no "eclass"`);
    if (children !== undefined && !Array.isArray(children)) fail(`node ${id}: "children" must be a list of node ids`);
    if (cost !== undefined && typeof cost !== "number") fail(`node ${id}: "cost" must be a number`);
    const node: ExtractionNode = { id, op: op as string, eclass: String(eclass), children: ((children as unknown[]) ?? []).map(String), cost: (cost as number | undefined) ?? 1 };
    nodes.set(id, node);
    let members = classes.get(node.eclass);
    if (!members) classes.set(node.eclass, (members = []));
    members.push(id);
  }
  for (const node of nodes.values()) {
    for (const child of node.children) if (!nodes.has(child)) fail(`node ${node.id} has an unknown child ${child}`);
  }
  if (!Array.isArray(rawRoots) || rawRoots.length === 0) fail(`"root_eclasses" must be a non-empty list`);
  const roots = (rawRoots as unknown[]).map(String);
  for (const root of roots) if (!classes.has(root)) fail(`root class ${root} has no nodes`);
  return { nodes, classes, roots };
}

export function toSerializedEGraph(graph: ExtractionGraph): { nodes: Record<string, { op: string; cost: number; eclass: string; children: string[] }>; root_eclasses: string[] } {
  const nodes: Record<string, { op: string; cost: number; eclass: string; children: string[] }> = {};
  for (const node of graph.nodes.values()) nodes[node.id] = { op: node.op, cost: node.cost, eclass: node.eclass, children: [...node.children] };
  return { nodes, root_eclasses: [...graph.roots] };
}
