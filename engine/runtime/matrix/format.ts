/**
 * Which form a matrix is kept in: SystemDS's rule (sparse below sparsity
 * 0.4, never for column vectors, only when its sparse in-memory estimate
 * is smaller), as implemented by the cost stage's `storageFormat`, so the
 * runtime stores exactly what the cost model assumes.
 */
import { storageFormat, type StorageFormat } from "../../cost";
import { denseToCsr, csrToDense } from "./convert";
import { countNonZeros, type DenseMatrix } from "./dense-matrix";
import { isDense, releaseMatrix, type Matrix } from "./matrix";

export function chooseFormat(rows: number, cols: number, nnz: number): StorageFormat {
  return storageFormat({ kind: "matrix", rows, cols, nnz });
}

/** `m` in the format `chooseFormat` picks for it: `m` itself when it is already in that format, else a converted copy. */
export function toPreferredFormat(m: Matrix): Matrix {
  return convertTo(m, false);
}

/**
 * `toPreferredFormat` for a matrix the caller owns and drops (a kernel's
 * fresh result, like SystemDS's `examSparsity`): a dense input that is
 * converted gives its buffer back to the pool.
 */
export function settleFormat(m: Matrix): Matrix {
  return convertTo(m, true);
}

function convertTo(m: Matrix, releaseInput: boolean): Matrix {
  if (!isDense(m)) return chooseFormat(m.rows, m.cols, m.nnz()) === "sparse" ? m : csrToDense(m);
  const nnz = nonZerosBelow(m, denseThreshold(m.rows, m.cols));
  if (nnz === undefined) return m;
  const sparse = denseToCsr(m, nnz);
  if (releaseInput) releaseMatrix(m);
  return sparse;
}

/**
 * The least nnz at which a rows x cols matrix is kept dense (the rule is
 * monotone in nnz: sparsity and the sparse size estimate only grow), by
 * binary search over chooseFormat.
 */
export function denseThreshold(rows: number, cols: number): number {
  let lo = 0;
  let hi = rows * cols + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (chooseFormat(rows, cols, mid) === "dense") hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** nnz of a dense matrix when it is below `limit`, else undefined; stops counting once the limit is reached (a dense result is settled after scanning a part of it). */
function nonZerosBelow(m: DenseMatrix, limit: number): number | undefined {
  const CHUNK = 16384;
  const d = m.data;
  let n = 0;
  for (let start = 0; start < d.length && n < limit; start += CHUNK) n += countNonZeros(d, start, Math.min(start + CHUNK, d.length));
  return n < limit ? n : undefined;
}
