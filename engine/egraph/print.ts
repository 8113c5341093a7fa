/** A readable dump of an e-graph: one class per line, `c12 [data]: (* c3 c4) | (+ c5 c6)`. */
import type { ClassId, EClassView, ENode } from "./types";

export function printEGraph<D>(egraph: { classes(): Iterable<EClassView<D>>; find(id: ClassId): ClassId }, formatData?: (data: D) => string): string {
  const lines: string[] = [];
  const classes = [...egraph.classes()].sort((a, b) => a.id - b.id);
  const node = (n: ENode) => (n.children.length === 0 ? n.op : `(${n.op} ${n.children.map((c) => `c${egraph.find(c)}`).join(" ")})`);
  for (const eclass of classes) {
    const data = formatData ? ` [${formatData(eclass.data)}]` : "";
    lines.push(`c${eclass.id}${data}: ${eclass.nodes.map(node).join(" | ")}`);
  }
  return lines.join("\n");
}
