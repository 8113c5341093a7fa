/**
 * rowIndexMax(X): per row, the 1-based column of its largest value, as a
 * column vector. As SystemDS's dense kernel: ties give the last such
 * column, NaN cells are passed over, and a row without a comparable value
 * (all NaN, or no columns) gives 0. A CSR row's unstored cells are zeros.
 */
import { DenseMatrix, isDense, type Matrix } from "../matrix";

export function rowIndexMax(x: Matrix): DenseMatrix {
  const out = new DenseMatrix(x.rows, 1);
  const n = x.cols;
  for (let i = 0; i < x.rows; i++) {
    let best = -Infinity;
    let index = -1;
    if (isDense(x)) {
      const base = i * n;
      for (let j = 0; j < n; j++) {
        const v = x.data[base + j]!;
        if (v >= best) {
          best = v;
          index = j;
        }
      }
    } else {
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
    }
    out.data[i] = index + 1;
  }
  return out;
}

/** The largest column in 0..n-1 not among colIdx[start .. end) (which is sorted and shorter than n). */
function lastUnstoredColumn(colIdx: Int32Array, start: number, end: number, n: number): number {
  let c = n - 1;
  for (let p = end - 1; p >= start && colIdx[p] === c; p--) c--;
  return c;
}
