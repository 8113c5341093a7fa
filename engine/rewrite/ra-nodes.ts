/** Relational nodes added to the optimizer's e-graph: attributes, binds and bound literals. */
import type { ClassId, EGraphApi } from "../egraph";
import type { OptimizerData } from "./analysis";
import { attributeOp, BIND, literalOp, NO_ATTRIBUTE } from "./la-ops";

type Graph = EGraphApi<OptimizerData>;

/** The class of attribute `id` (`_` for -1). */
export function attributeNode(egraph: Graph, id: number): ClassId {
  return egraph.add({ op: id < 0 ? NO_ATTRIBUTE : attributeOp(id), children: [] });
}

/** `(b i j x)`. */
export function bindNode(egraph: Graph, i: number, j: number, x: ClassId): ClassId {
  return egraph.add({ op: BIND, children: [attributeNode(egraph, i), attributeNode(egraph, j), x] });
}

/** `(b _ _ lit:value)`. */
export function boundLiteralNode(egraph: Graph, value: number): ClassId {
  return bindNode(egraph, -1, -1, egraph.add({ op: literalOp(value), children: [] }));
}
