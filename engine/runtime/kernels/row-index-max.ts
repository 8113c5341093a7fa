/**
 * rowIndexMax(X): per row, the 1-based column of its largest value, as a
 * column vector. As SystemDS's dense kernel: ties give the last such
 * column, NaN cells are passed over, and a row without a comparable value
 * (all NaN, or no columns) gives 0. A CSR row's unstored cells are zeros.
 * The result is a pooled buffer (every cell is written).
 */
import { type DenseMatrix, isDense, pooledDense, type Matrix } from "../matrix";

export function rowIndexMax(x: Matrix): DenseMatrix {
  const out = pooledDense(x.rows, 1);
  const n = x.cols;
  if (isDense(x)) {
    denseRowIndexMax(x.data, x.rows, n, out.data);
    return out;
  }
  for (let i = 0; i < x.rows; i++) {
    let best = -Infinity;
    let index = -1;
    const start = x.rowPtr[i]!;
    const end = x.rowPtr[i + 1]!;
    for (let p = start; p < end; p++) {
      if (x.values[p]! >= best) {
        best = x.values[p]!;
        index = x.colIdx[p]!;
      }
    }
    if (end - start < n && 0 >= best) {
      const zero = lastUnstoredColumn(x.colIdx, start, end, n);
      index = 0 > best ? zero : Math.max(index, zero);
    }
    out.data[i] = index + 1;
  }
  return out;
}

/** rowIndexMax of a dense rows x n matrix into out. */
function denseRowIndexMax(d: Float64Array, rows: number, n: number, out: Float64Array): void {
  for (let i = 0, base = 0; i < rows; i++, base += n) {
    let best = -Infinity;
    let index = -1;
    for (let j = 0; j < n; j++) {
      const v = d[base + j]!;
      if (v >= best) {
        best = v;
        index = j;
      }
    }
    out[i] = index + 1;
  }
}

/** The largest column in 0..n-1 not among colIdx[start .. end) (which is sorted and shorter than n). */
function lastUnstoredColumn(colIdx: Int32Array, start: number, end: number, n: number): number {
  let c = n - 1;
  for (let p = end - 1; p >= start && colIdx[p] === c; p--) c--;
  return c;
}
