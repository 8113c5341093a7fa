/**
 * Shapes of element-wise operations. Two operands combine when they have
 * the same shape, or one of them broadcasts: a 1 x 1 matrix (or a scalar)
 * to any shape, a column vector (m x 1) across the columns of an m x n
 * operand, a row vector (1 x n) down its rows — on either side of the
 * operator — and a column vector with a row vector to their outer m x n
 * (as the stats stage's `elementwiseShape`). Anything else is a
 * dimension mismatch.
 */
import { dimsText, RuntimeError } from "../matrix";

export interface Shape {
  rows: number;
  cols: number;
}

/** How an operand covers the result: all cells, one value per row, one per column, or one for all. */
export type BroadcastRole = "full" | "column" | "row" | "scalar";

/** The result shape of `a op b`; throws a RuntimeError when the shapes do not combine. */
export function broadcastShape(what: string, a: Shape, b: Shape): Shape {
  if (a.rows === 1 && a.cols === 1) return { rows: b.rows, cols: b.cols };
  if (b.rows === 1 && b.cols === 1) return { rows: a.rows, cols: a.cols };
  const rows = extent(a.rows, b.rows);
  const cols = extent(a.cols, b.cols);
  if (rows === undefined || cols === undefined) {
    throw new RuntimeError(
      "dimension-mismatch",
      `${what}: the dimensions of a ${dimsText(a.rows, a.cols)} and a ${dimsText(b.rows, b.cols)} matrix do not match ` +
        `(element-wise operands need the same dimensions, or one of them a 1 x 1, a row vector or a column vector that fits the other)`,
    );
  }
  return { rows, cols };
}

function extent(x: number, y: number): number | undefined {
  if (x === y) return x;
  if (x === 1) return y;
  if (y === 1) return x;
  return undefined;
}

export function broadcastRole(operand: Shape, out: Shape): BroadcastRole {
  if (operand.rows === out.rows && operand.cols === out.cols) return "full";
  if (operand.rows === 1 && operand.cols === 1) return "scalar";
  return operand.cols === 1 ? "column" : "row";
}

/** Strides of an operand in a `DenseBinaryKernel` (row step, column step ∈ {0, 1}). */
export function broadcastStrides(operand: Shape, out: Shape): { rowStep: number; colStep: number } {
  switch (broadcastRole(operand, out)) {
    case "full": return { rowStep: operand.cols, colStep: 1 };
    case "column": return { rowStep: 1, colStep: 0 };
    case "row": return { rowStep: 0, colStep: 1 };
    case "scalar": return { rowStep: 0, colStep: 0 };
  }
}
