/**
 * The Cell template's code generator: one root (cell-wise, or a row,
 * column or full aggregate of a cell-wise expression, or the dot product
 * `t(x) %*% y`) computed by one generated loop over the cells of its
 * domain (cell-kernel.ts), without intermediates. Kernels are built per
 * input formats and shapes at run time (cached by source).
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { cellLoopOperator } from "./cell-loop";
import { cellRootPlan } from "./cell-roots";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";

export function generateCellOperator(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  if (op.roots.length !== 1) throw new UnsupportedOperator(`cell operator ${op.id} has ${op.roots.length} roots, not one`);
  const root = cellRootPlan(dag, op, op.roots[0]!, true);
  return cellLoopOperator(dag, op, [root]);
}

