/** Row exchange in a row-major matrix, as the pivoting steps of LU factorizations (det, solve) do it. */

/** Exchanges rows `a` and `b` (0-based, both below data.length / cols) of the row-major `data` with `cols` columns. */
export function swapRows(data: Float64Array, cols: number, a: number, b: number): void {
  const rowA = data.slice(a * cols, (a + 1) * cols);
  data.copyWithin(a * cols, b * cols, (b + 1) * cols);
  data.set(rowA, b * cols);
}
