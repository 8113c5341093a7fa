/**
 * matrix(X, rows, cols, byrow): the cells of X in a new shape. With byrow
 * (the default) cells are read and written row by row; without, column
 * by column (R's order). matrix(v, rows, cols) with a scalar fills every
 * cell; `matrixFromValues` builds one from a list (`matrix("1 2 3 4", 2, 2)`).
 */
import { CsrBuilder, DenseMatrix, settleFormat, isDense, pooledDense, type Matrix, dimsText, RuntimeError } from "../matrix";
import { transpose } from "./transpose";

function checkShape(what: string, rows: number, cols: number): void {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new RuntimeError("invalid-argument", `${what}: dimensions must be non-negative integers, got ${rows} x ${cols}`);
  }
}

export function reshape(x: Matrix, rows: number, cols: number, byRow = true): Matrix {
  checkShape("matrix", rows, cols);
  if (rows * cols !== x.rows * x.cols) {
    throw new RuntimeError(
      "dimension-mismatch",
      `matrix: cannot reshape a ${dimsText(x.rows, x.cols)} matrix (${x.rows * x.cols} cells) into ${dimsText(rows, cols)} (${rows * cols} cells)`,
    );
  }
  if (byRow) return settleFormat(reshapeByRow(x, rows, cols));
  // Column-major order of X is row-major order of t(X): reshape that into cols x rows and transpose back.
  return settleFormat(transpose(reshapeByRow(transpose(x), cols, rows)));
}

function reshapeByRow(x: Matrix, rows: number, cols: number): Matrix {
  if (isDense(x)) {
    const out = pooledDense(rows, cols);
    out.data.set(x.data);
    return out;
  }
  const out = new CsrBuilder(rows, cols, x.nnz());
  let row = 0;
  for (let i = 0; i < x.rows; i++) {
    for (let p = x.rowPtr[i]!, end = x.rowPtr[i + 1]!; p < end; p++) {
      const k = i * x.cols + x.colIdx[p]!;
      const r = Math.floor(k / cols);
      while (row < r) {
        out.endRow();
        row++;
      }
      out.append(k - r * cols, x.values[p]!);
    }
  }
  return out.finish();
}

/** A rows x cols matrix with every cell `value`. */
export function matrixFill(value: number, rows: number, cols: number): Matrix {
  checkShape("matrix", rows, cols);
  return settleFormat(DenseMatrix.filled(rows, cols, value));
}

/** A rows x cols matrix from rows · cols values (row by row when byRow, else column by column), or from one value repeated. */
export function matrixFromValues(values: readonly number[], rows: number, cols: number, byRow = true): Matrix {
  checkShape("matrix", rows, cols);
  if (values.length === 1) return matrixFill(values[0]!, rows, cols);
  if (values.length !== rows * cols) {
    throw new RuntimeError("dimension-mismatch", `matrix: ${values.length} values do not fill a ${dimsText(rows, cols)} matrix (${rows * cols} cells)`);
  }
  const m = new DenseMatrix(byRow ? rows : cols, byRow ? cols : rows, Float64Array.from(values));
  return byRow ? settleFormat(m) : settleFormat(transpose(m));
}
