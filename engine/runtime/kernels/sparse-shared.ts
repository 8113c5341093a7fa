/**
 * A CSR matrix in kernel memory, kept per matrix: a generated kernel whose
 * driver is a large CSR matrix can split its rows over worker threads only
 * when the matrix's arrays are shared (kernel-memory.ts). A matrix built
 * outside kernel memory (a reader's arrays, a kernel's `slice()` copies) is
 * copied into shared arrays once, on its first such call, and the copy is
 * reused while the matrix lives: the driver is usually loop-invariant
 * (ALS-CG's mask W is read by every inner CG step), so copying it per call
 * costs more than the kernel's own work.
 *
 * Safe because CSR matrices are never changed in place by the runtime (only
 * dense buffers are pooled and reused); the cache holds the copies weakly.
 */
import { copyF64, copyI32, CsrMatrix, csrShared, isSharedArray } from "../matrix";

const copies = new WeakMap<CsrMatrix, CsrMatrix>();

/** `x` when its arrays are shared or it is too small to be (csrShared), else its shared copy (made once per matrix). */
export function sharedCsr(x: CsrMatrix): CsrMatrix {
  const nnz = x.nnz();
  if (!csrShared(x.rows, nnz) || (isSharedArray(x.rowPtr) && isSharedArray(x.colIdx) && isSharedArray(x.values))) return x;
  let copy = copies.get(x);
  if (copy === undefined) {
    copy = new CsrMatrix(x.rows, x.cols, copyI32(x.rowPtr, 0, x.rows + 1, true), copyI32(x.colIdx, 0, nnz, true), copyF64(x.values, 0, nnz, true));
    copies.set(x, copy);
  }
  return copy;
}
