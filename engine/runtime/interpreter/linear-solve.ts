/** `solve(A, b)`: dense LU with partial pivoting; a singular A is a runtime error. */
import { DenseMatrix, type Matrix, RuntimeError, toDense } from "../matrix";
import { swapRows } from "./swap-rows";

export function solve(a: Matrix, b: Matrix): DenseMatrix {
  const n = a.rows;
  if (a.cols !== n) throw new RuntimeError("dimension-mismatch", `solve: A must be square, found ${a.rows} x ${a.cols}`);
  if (b.rows !== n) throw new RuntimeError("dimension-mismatch", `solve: b has ${b.rows} rows, A has ${n}`);
  const lu = Float64Array.from(toDense(a).data);
  const m = b.cols;
  const x = Float64Array.from(toDense(b).data);
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(lu[k * n + k]!);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(lu[i * n + k]!);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best === 0) throw new RuntimeError("invalid-argument", "solve: the matrix is singular");
    if (p !== k) {
      swapRows(lu, n, k, p);
      swapRows(x, m, k, p);
    }
    const pivot = lu[k * n + k]!;
    for (let i = k + 1; i < n; i++) {
      const f = (lu[i * n + k]! /= pivot);
      if (f === 0) continue;
      for (let j = k + 1; j < n; j++) lu[i * n + j]! -= f * lu[k * n + j]!;
      for (let j = 0; j < m; j++) x[i * m + j]! -= f * x[k * m + j]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let j = 0; j < m; j++) {
      let s = x[i * m + j]!;
      for (let c = i + 1; c < n; c++) s -= lu[i * n + c]! * x[c * m + j]!;
      x[i * m + j] = s / lu[i * n + i]!;
    }
  }
  return new DenseMatrix(n, m, x);
}
