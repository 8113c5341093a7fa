/**
 * Products whose left operand is a transpose, `t(X) %*% B`, computed from
 * X in its own layout where that is faster than forming t(X): SystemDS's
 * tsmm for `t(X) %*% X`, and one pass over X's rows for a column b or a CSR
 * B (with the arithmetic of the product on a formed t(X), so the bits are
 * the same). The DAG evaluator runs them for products whose transpose
 * nothing else reads, and so do Row operators of that one product
 * (../codegen/row-transposed-product.ts).
 */
import { type CsrMatrix, DenseMatrix, isDense, settleFormat, type Matrix } from "../matrix";
import { tsmm } from "./tsmm";
import { wasmGemmTakes } from "./wasm-gemm";

/** Columns of a CSR x up to which tsmm's dense n x n accumulator stays in cache (wider: the transpose and a CSR product). */
const TSMM_CSR_MAX_COLS = 256;

/**
 * Whether tsmm computes `t(x) %*% x` faster than forming t(x) and multiplying (measured on this runtime's kernels,
 * best of 5): dense x unless the product goes to the WebAssembly GEMM (1,000,000 x 10: 33 ms against 106; 20,000 x 50
 * on the JS GEMM: 10 against 25; but 5,000 x 500 on the WebAssembly GEMM: 212 against 79); CSR x of at most
 * TSMM_CSR_MAX_COLS columns (100,000 x 100 at 5 %: 8 ms against 44; 5,000 x 2,000 at 1 %: 86 against 60).
 */
function tsmmIsFaster(x: Matrix): boolean {
  return isDense(x) ? !wasmGemmTakes(x.cols, x.rows, x.cols) : x.cols <= TSMM_CSR_MAX_COLS;
}

/**
 * `t(x) %*% b` without forming t(x), or undefined where forming it is the better plan (or the shapes do not
 * match, which the caller's product then reports): tsmm when b is x and tsmmIsFaster; one pass over x's rows
 * when b is a column of x's rows (transposedTimesColumn), or a CSR matrix and x is dense (transposedTimesCsr).
 */
export function transposedLeftProduct(x: Matrix, b: Matrix): Matrix | undefined {
  if (b === x) return tsmmIsFaster(x) ? tsmm(x) : undefined;
  if (b.rows !== x.rows) return undefined;
  if (b.cols === 1) return settleFormat(new DenseMatrix(x.cols, 1, transposedTimesColumn(x, b)));
  if (isDense(x) && !isDense(b)) return settleFormat(transposedTimesCsr(x, b));
  return undefined;
}

/**
 * `t(x) %*% b` for a dense x and a CSR b (ALS-CG's `t(U) %*% X`) in one pass over their rows: each result sums,
 * in row order, the rows where x's and b's values are both non-zero, as the dense-times-CSR product on a formed
 * t(x) does.
 */
function transposedTimesCsr(x: DenseMatrix, b: CsrMatrix): DenseMatrix {
  const k = x.cols;
  const n = b.cols;
  const out = new DenseMatrix(k, n);
  const c = out.data;
  const { rowPtr, colIdx, values } = b;
  for (let p = 0; p < x.rows; p++) {
    const start = rowPtr[p]!;
    const end = rowPtr[p + 1]!;
    if (start === end) continue;
    for (let j = 0; j < k; j++) {
      const u = x.data[p * k + j]!;
      if (u === 0) continue;
      const row = j * n;
      for (let q = start; q < end; q++) c[row + colIdx[q]!]! += u * values[q]!;
    }
  }
  return out;
}

/**
 * `t(x) %*% b` for a column b in one pass over x's rows, with the arithmetic the product on a formed t(x) has
 * (matmul's kernels for t(x)'s format, which is x's, and b's), so the plans give the same bits; 1,000,000 x 10
 * dense: about 20 ms against 83 for the transpose and the product.
 * - b dense: GEMV (x dense) or SpMV (x CSR) on t(x): each result sums its column's products in four
 *   accumulators, the i-th product (the i-th row; for a CSR x, the column's i-th non-zero) into accumulator
 *   i mod 4 up to the last multiple of four and the rest into the first, combined as (s0 + s1) + (s2 + s3).
 *   (A t(x) of 2^22 values or more is resident, where the WebAssembly GEMV sums in its own order.)
 * - b CSR: the dense-times-CSR or CSR-times-CSR product: one sum per result over the rows where both x and b
 *   are non-zero, in row order.
 */
function transposedTimesColumn(x: Matrix, b: Matrix): Float64Array {
  const k = x.cols;
  if (!isDense(b)) return transposedTimesSparseColumn(x, b, k);
  const y = b.data;
  const acc = new Float64Array(4 * k);
  if (isDense(x)) {
    const data = x.data;
    const lanes = x.rows - (x.rows % 4);
    for (let p = 0, row = 0; p < x.rows; p++, row += k) {
      const yp = y[p]!;
      const lane = p < lanes ? (p & 3) * k : 0;
      for (let j = 0; j < k; j++) acc[lane + j]! += data[row + j]! * yp;
    }
  } else {
    const { rowPtr, colIdx, values } = x;
    const inColumn = new Int32Array(k);
    for (let q = 0; q < rowPtr[x.rows]!; q++) inColumn[colIdx[q]!]!++;
    const seen = new Int32Array(k);
    for (let p = 0; p < x.rows; p++) {
      const yp = y[p]!;
      for (let q = rowPtr[p]!; q < rowPtr[p + 1]!; q++) {
        const j = colIdx[q]!;
        const i = seen[j]!++;
        const lane = i < inColumn[j]! - (inColumn[j]! % 4) ? (i & 3) * k : 0;
        acc[lane + j]! += values[q]! * yp;
      }
    }
  }
  const out = new Float64Array(k);
  for (let j = 0; j < k; j++) out[j] = acc[j]! + acc[k + j]! + (acc[2 * k + j]! + acc[3 * k + j]!);
  return out;
}

/** `t(x) %*% b` for a CSR column b: over b's non-zero rows in order, x's non-zeros of the row (see transposedTimesColumn). */
function transposedTimesSparseColumn(x: Matrix, b: CsrMatrix, k: number): Float64Array {
  const out = new Float64Array(k);
  for (let p = 0; p < b.rows; p++) {
    if (b.rowPtr[p + 1]! === b.rowPtr[p]!) continue;
    const yp = b.values[b.rowPtr[p]!]!;
    if (isDense(x)) {
      const data = x.data;
      for (let j = 0, at = p * k; j < k; j++, at++) {
        const v = data[at]!;
        if (v !== 0) out[j]! += v * yp;
      }
    } else {
      for (let q = x.rowPtr[p]!; q < x.rowPtr[p + 1]!; q++) out[x.colIdx[q]!]! += x.values[q]! * yp;
    }
  }
  return out;
}
