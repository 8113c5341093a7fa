/**
 * The operation classes the calibration feedback (observed-corrections.ts)
 * keeps one correction for: operations the cost model prices the same way,
 * so that a class that runs consistently slower or faster than estimated on
 * this machine is corrected as a whole.
 *
 * - `dense matmul`: a product of dense operands with a matrix result (compute-bound);
 * - `matrix-vector`: a product of dense operands with a vector result (memory-bound);
 * - `sparse matmul`: a product with an operand stored sparse;
 * - `element-wise`: unary and binary cell operations with a matrix operand;
 * - `aggregate`: full, row and column aggregates;
 * - `reorganize`: transpose, indexing, binding, diag, table, casts to matrix;
 * - `data generation`: rand, seq, matrix;
 * - `fused cell`, `fused row`, `fused magg`, `fused outer`: a fused operator of that template.
 *
 * Operations on scalars only, reads from disk, metadata (nrow, ...) and
 * function calls have no class: their time is the interpreter's overhead,
 * the disk or another block's, not the cost model's operation.
 */
import type { DagOp } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { storageFormat } from "./operand-stats";

const NODE_OPERATION_CLASSES = ["dense matmul", "matrix-vector", "sparse matmul", "element-wise", "aggregate", "reorganize", "data generation"] as const;
const FUSED_OPERATION_CLASSES = ["fused cell", "fused row", "fused magg", "fused outer"] as const;

export type OperationClass = (typeof NODE_OPERATION_CLASSES)[number] | (typeof FUSED_OPERATION_CLASSES)[number];

export const OPERATION_CLASSES: readonly OperationClass[] = [...NODE_OPERATION_CLASSES, ...FUSED_OPERATION_CLASSES];

export function isOperationClass(text: string): text is OperationClass {
  return (OPERATION_CLASSES as readonly string[]).includes(text);
}

/** The class of a DAG operation from the stats of its inputs and its result (undefined: not calibrated). */
export function operationClass(op: DagOp, inputs: readonly NodeStats[], result: NodeStats): OperationClass | undefined {
  const anyMatrix = inputs.some((s) => s.type.dataType === "matrix") || result.type.dataType === "matrix";
  if (!anyMatrix) return undefined;
  switch (op.kind) {
    case "matmul":
      if (inputs.some(isStoredSparse)) return "sparse matmul";
      return result.rows === 1 || result.cols === 1 ? "matrix-vector" : "dense matmul";
    case "binary":
    case "unary":
      return "element-wise";
    case "aggregate":
      return "aggregate";
    case "transpose":
    case "index":
    case "leftIndex":
    case "cbind":
    case "rbind":
    case "diag":
    case "table":
      return "reorganize";
    case "cast":
      return op.to === "matrix" || op.to === "scalar" ? "reorganize" : undefined;
    case "rand":
    case "seq":
    case "matrix":
      return "data generation";
    default:
      return undefined;
  }
}

/** The class of a fused operator of a template. */
export function fusedOperationClass(template: "cell" | "row" | "magg" | "outer"): OperationClass {
  return `fused ${template}`;
}

function isStoredSparse(s: NodeStats): boolean {
  if (s.type.dataType !== "matrix" || s.rows === null || s.cols === null || s.nnz === null) return false;
  return storageFormat({ kind: "matrix", rows: s.rows, cols: s.cols, nnz: s.nnz }) === "sparse";
}
