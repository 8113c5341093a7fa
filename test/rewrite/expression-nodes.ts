/** The node each class of a freshly built expression e-graph was built from (not the constants folding added), as the seeds read it. */
import type { ClassId, EGraph, ENode } from "../../engine/egraph";
import type { OptimizerData } from "../../engine/rewrite";

export function expressionNodes(egraph: EGraph<OptimizerData>): (cls: ClassId) => ENode | undefined {
  const first = new Map<ClassId, ENode>();
  for (const c of egraph.classes()) first.set(c.id, c.nodes.find((n) => !n.op.startsWith("lit:") && !n.op.startsWith("fill:")) ?? c.nodes[0]!);
  return (cls) => first.get(egraph.find(cls));
}
