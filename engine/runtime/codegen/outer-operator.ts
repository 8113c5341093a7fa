/**
 * The Outer template's code generator: an Outer operator (a cell
 * expression over the non-zeros of a sparse driver X with a low-rank
 * product U %*% t(V) inside) becomes one generated kernel per root
 * (outer-kernel.ts), run through runKernel. The kernel's source depends on
 * the inputs' formats (CSR or dense driver and side matrices, vectors,
 * scalars), so it is built when the operator runs and compiled once per
 * distinct source; what can be checked from the DAG alone (the covered
 * operations, the roots against the planned sizes) is checked here, so an
 * operator without a kernel is an UnsupportedOperator before it runs.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { FusedOperatorError, operatorShapes, type NodeShape } from "../fused";
import type { Value } from "../interpreter";
import { cellNodeProblem } from "./cell-code";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";
import type { KernelProgram } from "./kernel-program";
import { runKernel } from "./kernel-runner";
import { buildOuterKernel } from "./outer-kernel";
import { outerRoots } from "./outer-roots";

export function generateOuterOperator(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  checkCoveredOperations(dag, op);
  const planned = plannedShapes(dag, op);
  if (planned) outerRoots(dag, op, planned);
  const programs: KernelProgram[] = [];
  return {
    template: "outer",
    roots: op.roots,
    covered: op.covered,
    inputs: op.inputs,
    programs,
    run(valueOf) {
      const inputs = new Map<number, Value>(op.inputs.map((node) => [node, valueOf(node)]));
      const shapes = runShapes(dag, op, inputs);
      const results = new Map<number, Value>();
      for (const root of outerRoots(dag, op, shapes)) {
        const kernel = buildOuterKernel(dag, op, inputs, shapes, root);
        try {
          if (!programs.some((p) => p.source === kernel.call.program.source)) programs.push(kernel.call.program);
          results.set(root.root, kernel.finish(runKernel(kernel.call)));
        } finally {
          kernel.release();
        }
      }
      return results;
    },
  };
}

/** Every covered node below the roots must be computable per cell by the generated code (matrix products as dot products of factor rows). */
function checkCoveredOperations(dag: FusionDag, op: FusedOperator): void {
  if (op.binding.mainInput === null) throw new UnsupportedOperator(`Outer operator ${op.id} has no sparse driver (main input)`);
  const roots = new Set(op.roots);
  for (const node of op.covered) {
    if (roots.has(node) || dag.nodes[node]!.op.kind === "matmul") continue;
    const problem = cellNodeProblem(dag, node);
    if (problem !== undefined) throw new UnsupportedOperator(`Outer operator ${op.id}: no per-cell code for node ${node}: ${problem}`);
  }
}

/** Shapes from the planner's sizes, when every node's size is known (else the roots are checked at run time only). */
function plannedShapes(dag: FusionDag, op: FusedOperator): Map<number, NodeShape> | undefined {
  const shapes = new Map<number, NodeShape>();
  for (const node of [...op.inputs, ...op.covered]) {
    const s = dag.stats[node];
    if (!s) return undefined;
    if (s.type.dataType === "scalar") shapes.set(node, { rows: 1, cols: 1, scalar: true });
    else if (s.type.dataType === "matrix" && s.rows !== null && s.cols !== null) shapes.set(node, { rows: s.rows, cols: s.cols, scalar: false });
    else return undefined;
  }
  return shapes;
}

/** The shapes of the operator's nodes from its inputs' values; a shape that does not derive means no kernel. */
function runShapes(dag: FusionDag, op: FusedOperator, inputs: ReadonlyMap<number, Value>): Map<number, NodeShape> {
  try {
    return operatorShapes(dag, op, inputs);
  } catch (error) {
    if (error instanceof FusedOperatorError) throw new UnsupportedOperator(error.message);
    throw error;
  }
}
