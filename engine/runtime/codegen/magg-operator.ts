/**
 * The MAgg template's code generator: several full aggregates (sum,
 * sumSq, min, max, mean, prod, dot products) over the cells of one domain
 * in one generated loop (cell-kernel.ts), each root with its own group of
 * accumulator slots.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { cellLoopOperator } from "./cell-loop";
import { cellRootPlan } from "./cell-roots";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";

export function generateMultiAggregate(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  if (op.roots.length === 0) throw new UnsupportedOperator(`magg operator ${op.id} has no roots`);
  const roots = op.roots.map((root) => cellRootPlan(dag, op, root, false));
  return cellLoopOperator(dag, op, roots);
}
