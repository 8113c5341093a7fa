/**
 * The relational form of an LA class: `(b i j X)` with attributes named after
 * the class (none for size-1 dims); none for an empty matrix (0 rows or
 * columns), which has nothing to optimize and no relation to broadcast.
 */
import type { ClassId, EGraphApi } from "../egraph";
import type { OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";
import { bindNode } from "./ra-nodes";

export function bindRoot(egraph: EGraphApi<OptimizerData>, attributes: AttributeTable, root: ClassId): ClassId | undefined {
  const data = egraph.data(root);
  if (data.family !== "la" || data.invalid) return undefined;
  const { stats } = data;
  if (stats.type.dataType === "scalar") return bindNode(egraph, -1, -1, root);
  if (stats.type.dataType !== "matrix" || stats.rows === null || stats.cols === null || stats.rows === 0 || stats.cols === 0) return undefined;
  const id = egraph.find(root);
  const i = stats.rows === 1 ? -1 : attributes.fresh(`rows|${id}`, stats.rows);
  const j = stats.cols === 1 ? -1 : attributes.fresh(`cols|${id}`, stats.cols);
  return bindNode(egraph, i, j, root);
}
