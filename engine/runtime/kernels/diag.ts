/** diag(v): the n x n matrix with the column vector v on its diagonal; diag(X): the diagonal of the square X as a column vector. */
import { CsrBuilder, DenseMatrix, settleFormat, type Matrix, dimsText, RuntimeError } from "../matrix";

export function diag(x: Matrix): Matrix {
  if (x.cols === 1) {
    const n = x.rows;
    const out = new CsrBuilder(n, n, n);
    for (let i = 0; i < n; i++) {
      const v = x.get(i, 0);
      if (v !== 0) out.append(i, v);
      out.endRow();
    }
    return settleFormat(out.finish());
  }
  if (x.rows !== x.cols) {
    throw new RuntimeError("dimension-mismatch", `diag: expects a column vector or a square matrix, got a ${dimsText(x.rows, x.cols)} matrix`);
  }
  const values = new Float64Array(x.rows);
  for (let i = 0; i < x.rows; i++) values[i] = x.get(i, i);
  return settleFormat(new DenseMatrix(x.rows, 1, values));
}
