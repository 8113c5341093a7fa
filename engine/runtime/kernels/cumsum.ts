/** cumsum(X): the running sum down each column (row i holds the sum of rows 1..i), with Kahan summation per column as SystemDS's cumk+. */
import { settleFormat, isDense, pooledDense, type Matrix } from "../matrix";

export function cumsum(x: Matrix): Matrix {
  const { rows, cols } = x;
  const out = pooledDense(rows, cols);
  const o = out.data;
  const sums = new Float64Array(cols);
  const corr = new Float64Array(cols);
  const add = (j: number, v: number) => {
    const s = sums[j]!;
    if (v - v !== 0 || s - s !== 0) {
      sums[j] = s + v;
      corr[j] = 0;
      return;
    }
    const y = v - corr[j]!;
    const t = s + y;
    corr[j] = t - s - y;
    sums[j] = t;
  };
  for (let i = 0; i < rows; i++) {
    if (isDense(x)) {
      for (let j = 0; j < cols; j++) add(j, x.data[i * cols + j]!);
    } else {
      for (let p = x.rowPtr[i]!, end = x.rowPtr[i + 1]!; p < end; p++) add(x.colIdx[p]!, x.values[p]!);
    }
    o.set(sums, i * cols);
  }
  return settleFormat(out);
}
