/**
 * A matrix value of the runtime: dense or CSR. Both have `rows`, `cols`,
 * `nnz()`, `get(row, col)` (0-based) and a `format` tag to switch on.
 */
import { bufferPool } from "./buffer-pool";
import { CsrMatrix } from "./csr-matrix";
import { DenseMatrix } from "./dense-matrix";

export type Matrix = DenseMatrix | CsrMatrix;

export function isDense(m: Matrix): m is DenseMatrix {
  return m.format === "dense";
}

export function isSparse(m: Matrix): m is CsrMatrix {
  return m.format === "sparse";
}

/** A rows x cols dense matrix over a pooled buffer with unspecified contents (every cell must be written). */
export function pooledDense(rows: number, cols: number): DenseMatrix {
  return new DenseMatrix(rows, cols, bufferPool.acquire(rows * cols));
}

/** A rows x cols dense matrix of zeros over a pooled buffer. */
export function pooledZeros(rows: number, cols: number): DenseMatrix {
  return new DenseMatrix(rows, cols, bufferPool.acquireZeroed(rows * cols));
}

/** Hands a dense matrix's buffer back to the pool (the matrix must not be used afterwards); sparse matrices are left to the GC. */
export function releaseMatrix(m: Matrix): void {
  if (isDense(m)) bufferPool.release(m.data);
}

/** Releases `temporary` unless it is `original` (for the `const d = toDense(x); ...` pattern). */
export function releaseIfTemporary(temporary: Matrix, original: Matrix): void {
  if (temporary !== original) releaseMatrix(temporary);
}
