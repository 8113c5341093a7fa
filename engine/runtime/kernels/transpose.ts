/** t(X): dense in 32 x 32 tiles (both the reads and the writes stay in cache), CSR by counting the cells per column. */
import { allocateF64, allocateI32, CsrMatrix, csrShared, isDense, pooledDense, type Matrix, type DenseMatrix } from "../matrix";

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
  // In kernel memory (shared when large), so threaded kernels read the transpose without a copy.
  const shared = csrShared(n, nnz);
  const outPtr = allocateI32(n + 1, shared);
  for (let p = 0; p < nnz; p++) outPtr[colIdx[p]! + 1]!++;
  for (let j = 0; j < n; j++) outPtr[j + 1]! += outPtr[j]!;
  const next = outPtr.slice(0, n);
  const outCol = allocateI32(nnz, shared);
  const outVal = allocateF64(nnz, shared);
  for (let i = 0; i < m; i++) {
    for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) {
      const q = next[colIdx[p]!]!++;
      outCol[q] = i;
      outVal[q] = values[p]!;
    }
  }
  return new CsrMatrix(n, m, outPtr, outCol, outVal);
}
