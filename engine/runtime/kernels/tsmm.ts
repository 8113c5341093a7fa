/**
 * `t(X) %*% X` without forming t(X) (SystemDS's tsmm): the result is
 * symmetric, so only its upper triangle is computed and then mirrored.
 *
 * Dense: the blocked i-k-j GEMM of gemm.ts with A = t(X) read in place
 * (A[i, p] = X[p, i]; the 4 x 4 register block loads those 16 values once
 * per pass over a row panel) and each 4-row block of the result starting
 * at its diagonal: about half the FLOPs of a general product.
 * CSR: the sum over the rows x of X of the outer product x' x restricted to
 * column ≥ row, into a dense n x n accumulator when that is small enough,
 * else (wide X) Gustavson over t(X) into a CSR upper triangle.
 */
import { CsrBuilder, CsrMatrix, type DenseMatrix, settleFormat, isDense, pooledZeros, type Matrix, bufferPool } from "../matrix";
import { transposeCsr } from "./transpose";

const KC = 128;
const NC = 512;
/** Largest n x n accumulator (cells) the CSR path uses before switching to a CSR upper triangle. */
const DENSE_ACCUMULATOR_CELLS = 4 * 1024 * 1024;

export function tsmm(x: Matrix): Matrix {
  if (isDense(x)) return settleFormat(tsmmDense(x));
  const n = x.cols;
  if (n * n <= DENSE_ACCUMULATOR_CELLS) return settleFormat(tsmmCsrDense(x));
  return settleFormat(tsmmCsrSparse(x));
}

function tsmmDense(x: DenseMatrix): DenseMatrix {
  const { rows: m, cols: n, data: X } = x;
  const out = pooledZeros(n, n);
  const C = out.data;
  for (let jj = 0; jj < n; jj += NC) {
    const je = Math.min(jj + NC, n);
    for (let kk = 0; kk < m; kk += KC) {
      const ke = Math.min(kk + KC, m);
      let i = 0;
      for (; i + 3 < je; i += 4) upperBlock4(X, C, i, n, kk, ke, Math.max(jj, i), je);
      for (; i < je; i++) upperBlock1(X, C, i, n, kk, ke, Math.max(jj, i), je);
    }
  }
  mirrorUpper(C, n);
  return out;
}

/** C[i..i+3, js..je-1] += t(X)[i..i+3, kk..ke-1] · X[kk..ke-1, js..je-1] (A[i, p] = X[p, i]). */
function upperBlock4(X: Float64Array, C: Float64Array, i: number, n: number, kk: number, ke: number, js: number, je: number): void {
  const c0 = i * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
  let p = kk;
  for (; p + 3 < ke; p += 4) {
    const b0 = p * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
    const a00 = X[b0 + i]!, a01 = X[b1 + i]!, a02 = X[b2 + i]!, a03 = X[b3 + i]!;
    const a10 = X[b0 + i + 1]!, a11 = X[b1 + i + 1]!, a12 = X[b2 + i + 1]!, a13 = X[b3 + i + 1]!;
    const a20 = X[b0 + i + 2]!, a21 = X[b1 + i + 2]!, a22 = X[b2 + i + 2]!, a23 = X[b3 + i + 2]!;
    const a30 = X[b0 + i + 3]!, a31 = X[b1 + i + 3]!, a32 = X[b2 + i + 3]!, a33 = X[b3 + i + 3]!;
    for (let j = js; j < je; j++) {
      const x0 = X[b0 + j]!, x1 = X[b1 + j]!, x2 = X[b2 + j]!, x3 = X[b3 + j]!;
      C[c0 + j]! += a00 * x0 + a01 * x1 + a02 * x2 + a03 * x3;
      C[c1 + j]! += a10 * x0 + a11 * x1 + a12 * x2 + a13 * x3;
      C[c2 + j]! += a20 * x0 + a21 * x1 + a22 * x2 + a23 * x3;
      C[c3 + j]! += a30 * x0 + a31 * x1 + a32 * x2 + a33 * x3;
    }
  }
  for (; p < ke; p++) {
    const b0 = p * n;
    const a0 = X[b0 + i]!, a1 = X[b0 + i + 1]!, a2 = X[b0 + i + 2]!, a3 = X[b0 + i + 3]!;
    for (let j = js; j < je; j++) {
      const x = X[b0 + j]!;
      C[c0 + j]! += a0 * x;
      C[c1 + j]! += a1 * x;
      C[c2 + j]! += a2 * x;
      C[c3 + j]! += a3 * x;
    }
  }
}

function upperBlock1(X: Float64Array, C: Float64Array, i: number, n: number, kk: number, ke: number, js: number, je: number): void {
  const c0 = i * n;
  for (let p = kk; p < ke; p++) {
    const b0 = p * n;
    const a = X[b0 + i]!;
    for (let j = js; j < je; j++) C[c0 + j]! += a * X[b0 + j]!;
  }
}

/** Copies the upper triangle of the n x n C onto its lower triangle. */
function mirrorUpper(C: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) C[j * n + i] = C[i * n + j]!;
}

function tsmmCsrDense(x: CsrMatrix): DenseMatrix {
  const n = x.cols;
  const out = pooledZeros(n, n);
  const C = out.data;
  const { rowPtr, colIdx, values } = x;
  for (let r = 0; r < x.rows; r++) {
    const end = rowPtr[r + 1]!;
    for (let p = rowPtr[r]!; p < end; p++) {
      const a = values[p]!;
      const ci = colIdx[p]! * n;
      for (let q = p; q < end; q++) C[ci + colIdx[q]!]! += a * values[q]!;
    }
  }
  mirrorUpper(C, n);
  return out;
}

/** Gustavson over t(X): row i of the upper triangle sums the rows of X holding column i, from column i on. */
function tsmmCsrSparse(x: CsrMatrix): CsrMatrix {
  const n = x.cols;
  const t = transposeCsr(x);
  const acc = bufferPool.acquire(n);
  const mark = new Int32Array(n).fill(-1);
  const touched = new Int32Array(n);
  const upper = new CsrBuilder(n, n, 2 * x.nnz());
  const { rowPtr, colIdx, values } = x;
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let p = t.rowPtr[i]!, pe = t.rowPtr[i + 1]!; p < pe; p++) {
      const a = t.values[p]!;
      const r = t.colIdx[p]!;
      for (let q = rowPtr[r + 1]! - 1, qs = rowPtr[r]!; q >= qs && colIdx[q]! >= i; q--) {
        const j = colIdx[q]!;
        if (mark[j] !== i) {
          mark[j] = i;
          touched[count++] = j;
          acc[j] = a * values[q]!;
        } else acc[j]! += a * values[q]!;
      }
    }
    const cols = touched.subarray(0, count).sort();
    upper.reserve(count);
    for (let k = 0; k < count; k++) {
      const j = cols[k]!;
      if (acc[j] !== 0) upper.appendUnchecked(j, acc[j]!);
    }
    upper.endRow();
  }
  bufferPool.release(acc);
  return symmetricFromUpper(upper.finish());
}

/** The full symmetric matrix from its upper triangle U: row i is (row i of t(U) left of the diagonal) then (row i of U). */
function symmetricFromUpper(u: CsrMatrix): CsrMatrix {
  const n = u.rows;
  const ut = transposeCsr(u);
  const out = new CsrBuilder(n, n, 2 * u.nnz());
  for (let i = 0; i < n; i++) {
    const us = u.rowPtr[i]!, ue = u.rowPtr[i + 1]!;
    out.reserve(ue - us + (ut.rowPtr[i + 1]! - ut.rowPtr[i]!));
    for (let p = ut.rowPtr[i]!, pe = ut.rowPtr[i + 1]!; p < pe && ut.colIdx[p]! < i; p++) out.appendUnchecked(ut.colIdx[p]!, ut.values[p]!);
    for (let p = us; p < ue; p++) out.appendUnchecked(u.colIdx[p]!, u.values[p]!);
    out.endRow();
  }
  return out.finish();
}
