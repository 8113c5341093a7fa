/** Small helpers shared by the per-kind cost rules. */
import type { Work, WorkResult } from "./cost-types";
import { cellCount, isSparseFormat, operandBytes, type MatrixStats, type OperandStats } from "./operand-stats";

/** Sum of the bytes of `operands`. */
export function totalBytes(operands: readonly OperandStats[]): number {
  let sum = 0;
  for (const o of operands) sum += operandBytes(o);
  return sum;
}

/** Bytes of the scalar operands among `operands` (index bounds, arguments). */
export function scalarBytes(operands: readonly OperandStats[]): number {
  return totalBytes(operands.filter((o) => o.kind === "scalar"));
}

/**
 * The common shape of an operation: it reads every input in full, writes
 * its output, and does `flops` of compute.
 */
export function streamingWork(inputs: readonly OperandStats[], output: OperandStats, flops: number, sparseKernel = false): Work {
  return {
    flops,
    bytesRead: totalBytes(inputs),
    diskBytesRead: 0,
    bytesWritten: operandBytes(output),
    temporaryBytes: 0,
    sparseKernel,
  };
}

/** Cells an operation visits in `m` when it can skip zeros (sparse-safe): nnz if stored sparse, else every cell. */
export function touchedCells(m: MatrixStats): number {
  return isSparseFormat(m) ? m.nnz : cellCount(m);
}

export function ok(work: Work): WorkResult {
  return { ok: true, work };
}

export function fail(reason: string): WorkResult {
  return { ok: false, reason };
}

/** Input `i` if it is a matrix, else a failure naming the operation. */
export function matrixInput(inputs: readonly OperandStats[], i: number, what: string): MatrixStats | string {
  const o = inputs[i];
  if (o === undefined) return `${what} needs an input ${i + 1}`;
  if (o.kind !== "matrix") return `${what}: input ${i + 1} is a scalar, a matrix is expected`;
  return o;
}
