/**
 * The Cell template's code generator: one root (cell-wise, or a row,
 * column or full aggregate of a cell-wise expression, or the dot product
 * `t(x) %*% y`) computed by one generated loop over the cells of its
 * domain (cell-kernel.ts), without intermediates. Kernels are built per
 * input formats and shapes at run time (cached by source).
 */
import type { FusionDag } from "../../fusion";
import type { FusedOperator } from "../../fusion/types";
import { runCellLoop } from "./cell-loop";
import { cellRootPlan, checkCoveredNodes } from "./cell-roots";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";
import type { KernelProgram } from "./kernel-program";

export function generateCellOperator(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  if (op.roots.length !== 1) throw new UnsupportedOperator(`cell operator ${op.id} has ${op.roots.length} roots, not one`);
  const root = cellRootPlan(dag, op, op.roots[0]!, true);
  checkCoveredNodes(dag, op);
  const programs: KernelProgram[] = [];
  return {
    template: "cell",
    roots: op.roots,
    covered: op.covered,
    inputs: op.inputs,
    programs,
    run: (valueOf) => runCellLoop(dag, op, [root], valueOf, (p) => recordProgram(programs, p)),
  };
}

/** Adds a kernel to an operator's list of kernels run (once per source). */
export function recordProgram(programs: KernelProgram[], program: KernelProgram): void {
  if (!programs.some((p) => p.source === program.source)) programs.push(program);
}
