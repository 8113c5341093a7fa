/**
 * The transpose of a CSR matrix, kept per matrix: kernels that walk a
 * sparse matrix by columns (an Outer operator's `t(W) %*% U`, which
 * iterates the rows of t(W) so that each output row belongs to one row
 * range) ask for it on every call, and the matrix is usually loop-invariant
 * (ALS-CG's ratings X and mask W), so it is transposed once.
 *
 * Safe because CSR matrices are never changed in place by the runtime (only
 * dense buffers are pooled and reused); the cache holds the transposes
 * weakly, so it keeps nothing alive.
 */
import type { CsrMatrix } from "../matrix";
import { transposeCsr } from "./transpose";

const transposes = new WeakMap<CsrMatrix, CsrMatrix>();

/** t(x) in CSR, computed once per matrix. */
export function transposedCsr(x: CsrMatrix): CsrMatrix {
  let t = transposes.get(x);
  if (t === undefined) {
    t = transposeCsr(x);
    transposes.set(x, t);
  }
  return t;
}
