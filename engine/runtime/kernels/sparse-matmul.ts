/**
 * Matrix multiply with CSR operands (pure JavaScript). Like SystemDS, a
 * product with a sparse operand treats 0 · x as 0 even for x = Inf or NaN
 * (only stored cells are multiplied), so it can differ from the dense
 * product on non-finite values.
 */
import { CsrBuilder, type CsrMatrix, bufferPool } from "../matrix";

/** SpMM: C (m x n, zeros) += A (CSR m x k) · B (dense k x n); four stored cells of a row of A per pass over a row of C. */
export function csrTimesDense(A: CsrMatrix, B: Float64Array, C: Float64Array, n: number): void {
  const { rowPtr, colIdx, values } = A;
  for (let i = 0; i < A.rows; i++) {
    const ci = i * n;
    const end = rowPtr[i + 1]!;
    let p = rowPtr[i]!;
    for (; p + 3 < end; p += 4) {
      const a0 = values[p]!, a1 = values[p + 1]!, a2 = values[p + 2]!, a3 = values[p + 3]!;
      const b0 = colIdx[p]! * n, b1 = colIdx[p + 1]! * n, b2 = colIdx[p + 2]! * n, b3 = colIdx[p + 3]! * n;
      for (let j = 0; j < n; j++) C[ci + j]! += a0 * B[b0 + j]! + a1 * B[b1 + j]! + a2 * B[b2 + j]! + a3 * B[b3 + j]!;
    }
    for (; p < end; p++) {
      const a = values[p]!;
      const b = colIdx[p]! * n;
      for (let j = 0; j < n; j++) C[ci + j]! += a * B[b + j]!;
    }
  }
}

/** SpMV: y (m) = A (CSR m x k) · x (k); a dot product with four independent accumulators per row. */
export function csrTimesVector(A: CsrMatrix, x: Float64Array, y: Float64Array): void {
  const { rowPtr, colIdx, values } = A;
  for (let i = 0; i < A.rows; i++) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const end = rowPtr[i + 1]!;
    let p = rowPtr[i]!;
    for (; p + 3 < end; p += 4) {
      s0 += values[p]! * x[colIdx[p]!]!;
      s1 += values[p + 1]! * x[colIdx[p + 1]!]!;
      s2 += values[p + 2]! * x[colIdx[p + 2]!]!;
      s3 += values[p + 3]! * x[colIdx[p + 3]!]!;
    }
    for (; p < end; p++) s0 += values[p]! * x[colIdx[p]!]!;
    y[i] = s0 + s1 + (s2 + s3);
  }
}

/** C (m x n, zeros) += A (dense m x k) · B (CSR k x n): row i of C gathers the rows of B scaled by row i of A (zeros of A skipped). */
export function denseTimesCsr(A: Float64Array, m: number, k: number, B: CsrMatrix, C: Float64Array): void {
  const { rowPtr, colIdx, values, cols: n } = B;
  for (let i = 0; i < m; i++) {
    const ai = i * k;
    const ci = i * n;
    for (let p = 0; p < k; p++) {
      const a = A[ai + p]!;
      if (a === 0) continue;
      for (let q = rowPtr[p]!, end = rowPtr[p + 1]!; q < end; q++) C[ci + colIdx[q]!]! += a * values[q]!;
    }
  }
}

/**
 * Gustavson's CSR x CSR: row i of the product accumulates the rows of B
 * selected by row i of A in a dense accumulator row (marked per row, so it
 * is never cleared); the touched columns are then emitted in order.
 */
export function csrTimesCsr(A: CsrMatrix, B: CsrMatrix): CsrMatrix {
  const n = B.cols;
  const acc = bufferPool.acquire(n);
  const mark = new Int32Array(n).fill(-1);
  const touched = new Int32Array(n);
  const out = new CsrBuilder(A.rows, n, A.nnz() + B.nnz());
  const { rowPtr: aPtr, colIdx: aCol, values: aVal } = A;
  const { rowPtr: bPtr, colIdx: bCol, values: bVal } = B;
  for (let i = 0; i < A.rows; i++) {
    let count = 0;
    for (let p = aPtr[i]!, pe = aPtr[i + 1]!; p < pe; p++) {
      const a = aVal[p]!;
      const r = aCol[p]!;
      for (let q = bPtr[r]!, qe = bPtr[r + 1]!; q < qe; q++) {
        const j = bCol[q]!;
        if (mark[j] !== i) {
          mark[j] = i;
          touched[count++] = j;
          acc[j] = a * bVal[q]!;
        } else acc[j]! += a * bVal[q]!;
      }
    }
    out.reserve(count);
    if (count * 8 > n) {
      for (let j = 0; j < n; j++) if (mark[j] === i && acc[j] !== 0) out.appendUnchecked(j, acc[j]!);
    } else {
      const cols = touched.subarray(0, count).sort();
      for (let t = 0; t < count; t++) {
        const j = cols[t]!;
        if (acc[j] !== 0) out.appendUnchecked(j, acc[j]!);
      }
    }
    out.endRow();
  }
  bufferPool.release(acc);
  return out.finish();
}
