/** t(X): dense in 32 x 32 tiles (both the reads and the writes stay in cache), CSR by counting the cells per column. */
import { CsrMatrix, isDense, pooledDense, type Matrix, type DenseMatrix } from "../matrix";

const TILE = 32;

export function transpose(x: Matrix): Matrix {
  return isDense(x) ? transposeDense(x) : transposeCsr(x);
}

function transposeDense(x: DenseMatrix): DenseMatrix {
  const { rows: m, cols: n, data: a } = x;
  const out = pooledDense(n, m);
  const c = out.data;
  if (m === 1 || n === 1) {
    c.set(a);
    return out;
  }
  for (let ii = 0; ii < m; ii += TILE) {
    const ie = Math.min(ii + TILE, m);
    for (let jj = 0; jj < n; jj += TILE) {
      const je = Math.min(jj + TILE, n);
      for (let i = ii; i < ie; i++) {
        const ai = i * n;
        for (let j = jj; j < je; j++) c[j * m + i] = a[ai + j]!;
      }
    }
  }
  return out;
}

export function transposeCsr(x: CsrMatrix): CsrMatrix {
  const { rows: m, cols: n, rowPtr, colIdx, values } = x;
  const nnz = x.nnz();
  const outPtr = new Int32Array(n + 1);
  for (let p = 0; p < nnz; p++) outPtr[colIdx[p]! + 1]!++;
  for (let j = 0; j < n; j++) outPtr[j + 1]! += outPtr[j]!;
  const next = outPtr.slice(0, n);
  const outCol = new Int32Array(nnz);
  const outVal = new Float64Array(nnz);
  for (let i = 0; i < m; i++) {
    for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) {
      const q = next[colIdx[p]!]!++;
      outCol[q] = i;
      outVal[q] = values[p]!;
    }
  }
  return new CsrMatrix(n, m, outPtr, outCol, outVal);
}
