/** Conversions between the dense and the CSR form. The result is always a new matrix unless the input already has the asked form. */
import { CsrMatrix } from "./csr-matrix";
import { DenseMatrix } from "./dense-matrix";
import { allocateF64, allocateI32, csrShared } from "./kernel-memory";
import { isDense, pooledZeros, type Matrix } from "./matrix";

export function csrToDense(m: CsrMatrix): DenseMatrix {
  const out = pooledZeros(m.rows, m.cols);
  const { rowPtr, colIdx, values, cols } = m;
  const d = out.data;
  for (let i = 0; i < m.rows; i++) {
    const base = i * cols;
    for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) d[base + colIdx[p]!] = values[p]!;
  }
  return out;
}

export function denseToCsr(m: DenseMatrix, nnz = m.nnz()): CsrMatrix {
  const { rows, cols, data } = m;
  const shared = csrShared(rows, nnz);
  const rowPtr = allocateI32(rows + 1, shared);
  const colIdx = allocateI32(nnz, shared);
  const values = allocateF64(nnz, shared);
  let n = 0;
  for (let i = 0; i < rows; i++) {
    const base = i * cols;
    for (let j = 0; j < cols; j++) {
      const v = data[base + j]!;
      if (v !== 0) {
        colIdx[n] = j;
        values[n++] = v;
      }
    }
    rowPtr[i + 1] = n;
  }
  return new CsrMatrix(rows, cols, rowPtr, colIdx, values);
}

/** `m` itself if dense, else a new dense copy (from the buffer pool). */
export function toDense(m: Matrix): DenseMatrix {
  return isDense(m) ? m : csrToDense(m);
}
