/**
 * The interpreter's memory-bound matrix products as kernel calls, so that
 * they split their rows over the kernel threads when their operands live in
 * kernel memory (kernel-runner.ts): GEMV (dense A times a column vector),
 * SpMV (CSR A times a column vector) and SpMM (CSR A times a dense matrix,
 * useful with few columns; the WebAssembly SpMM copies its operands).
 *
 * Each row's arithmetic is the same as the reference kernels' (gemv in
 * ../kernels/gemm.ts, csrTimesVector and csrTimesDense in
 * ../kernels/sparse-matmul.ts): a dot product with four independent
 * accumulators combined as (s0 + s1) + (s2 + s3); rows are independent, so
 * the result has the same bits on any number of threads. The programs are
 * fixed texts of this file, never built from user text.
 */
import type { KernelProgram } from "./kernel-program";
import { runKernel } from "./kernel-runner";

/** y[r] = A[r, :] · x for rows [r0, r1); a = [A, x], s = [k]. */
const GEMV_PROGRAM: KernelProgram = {
  source: `function gemvRows(a, s, r0, r1, acc, out) {
  const A = a[0], x = a[1], k = s[0] | 0;
  for (let i = r0; i < r1; i++) {
    const r = i * k;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let p = 0;
    for (; p + 3 < k; p += 4) {
      s0 += A[r + p] * x[p];
      s1 += A[r + p + 1] * x[p + 1];
      s2 += A[r + p + 2] * x[p + 2];
      s3 += A[r + p + 3] * x[p + 3];
    }
    for (; p < k; p++) s0 += A[r + p] * x[p];
    out[i] = s0 + s1 + (s2 + s3);
  }
}`,
};

/** y[r] = A[r, :] · x for rows [r0, r1) of a CSR A; a = [rowPtr, colIdx, values, x]. */
const SPMV_PROGRAM: KernelProgram = {
  source: `function spmvRows(a, s, r0, r1, acc, out) {
  const rowPtr = a[0], colIdx = a[1], values = a[2], x = a[3];
  for (let i = r0; i < r1; i++) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const end = rowPtr[i + 1];
    let p = rowPtr[i];
    for (; p + 3 < end; p += 4) {
      s0 += values[p] * x[colIdx[p]];
      s1 += values[p + 1] * x[colIdx[p + 1]];
      s2 += values[p + 2] * x[colIdx[p + 2]];
      s3 += values[p + 3] * x[colIdx[p + 3]];
    }
    for (; p < end; p++) s0 += values[p] * x[colIdx[p]];
    out[i] = s0 + s1 + (s2 + s3);
  }
}`,
};

/** C[r, :] = A[r, :] · B for rows [r0, r1) of a CSR A (C's rows zero before); a = [rowPtr, colIdx, values, B], s = [n]. */
const SPMM_PROGRAM: KernelProgram = {
  source: `function spmmRows(a, s, r0, r1, acc, C) {
  const rowPtr = a[0], colIdx = a[1], values = a[2], B = a[3], n = s[0] | 0;
  for (let i = r0; i < r1; i++) {
    const ci = i * n;
    const end = rowPtr[i + 1];
    let p = rowPtr[i];
    for (; p + 3 < end; p += 4) {
      const a0 = values[p], a1 = values[p + 1], a2 = values[p + 2], a3 = values[p + 3];
      const b0 = colIdx[p] * n, b1 = colIdx[p + 1] * n, b2 = colIdx[p + 2] * n, b3 = colIdx[p + 3] * n;
      for (let j = 0; j < n; j++) C[ci + j] += a0 * B[b0 + j] + a1 * B[b1 + j] + a2 * B[b2 + j] + a3 * B[b3 + j];
    }
    for (; p < end; p++) {
      const v = values[p];
      const b = colIdx[p] * n;
      for (let j = 0; j < n; j++) C[ci + j] += v * B[b + j];
    }
  }
}`,
};

const NO_OUTPUT_SCALARS = new Float64Array(0);

/** Widths up to which GEMV runs a program written out for its width (gemvProgram). */
const UNROLLED_GEMV_MAX_WIDTH = 16;
const unrolledGemv = new Map<number, KernelProgram>();

/**
 * GEMV's program for A of width k: for narrow A (the 1e6 x 10 data of the
 * benchmark scripts) the row's dot product written out, with x's values in
 * locals and the same four accumulators taking the same products in the
 * same order as GEMV_PROGRAM's loop (the same bits). The loop over four
 * and then one columns costs more than the products themselves at such
 * widths: 1e6 x 10 on one thread, 13.4 -> 5.7 ms. The text is built from
 * the width alone.
 */
export function gemvProgram(k: number): KernelProgram {
  if (!Number.isInteger(k) || k < 1 || k > UNROLLED_GEMV_MAX_WIDTH) return GEMV_PROGRAM;
  let program = unrolledGemv.get(k);
  if (program === undefined) {
    const products: string[] = [];
    let p = 0;
    for (; p + 3 < k; p += 4) for (let q = 0; q < 4; q++) products.push(`s${q} += A[r + ${p + q}] * x${p + q};`);
    for (; p < k; p++) products.push(`s0 += A[r + ${p}] * x${p};`);
    const locals = Array.from({ length: k }, (_, j) => `x${j} = x[${j}]`).join(", ");
    const source = `function gemvRows${k}(a, s, r0, r1, acc, out) {
  const A = a[0], x = a[1];
  const ${locals};
  for (let i = r0, r = r0 * ${k}; i < r1; i++, r += ${k}) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    ${products.join("\n    ")}
    out[i] = s0 + s1 + (s2 + s3);
  }
}`;
    unrolledGemv.set(k, (program = { source }));
  }
  return program;
}

/** y (m) = A (m x k, row-major) · x (k). */
export function kernelGemv(A: Float64Array, x: Float64Array, y: Float64Array, m: number, k: number): void {
  runKernel({ program: gemvProgram(k), arrays: [A, x], scalars: Float64Array.of(k), rows: m, output: y, workPerRow: k });
}

/** A CSR matrix's arrays and dimensions. */
export interface CsrOperand {
  readonly rows: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: Float64Array;
}

/** y (A.rows) = A (CSR) · x. */
export function kernelSpmv(A: CsrOperand, x: Float64Array, y: Float64Array): void {
  const perRow = A.rows === 0 ? 0 : A.rowPtr[A.rows]! / A.rows;
  runKernel({ program: SPMV_PROGRAM, arrays: [A.rowPtr, A.colIdx, A.values, x], scalars: NO_OUTPUT_SCALARS, rows: A.rows, output: y, workPerRow: perRow + 1 });
}

/** C (A.rows x n, zeros) += A (CSR) · B (A.cols x n, row-major). */
export function kernelSpmm(A: CsrOperand, B: Float64Array, C: Float64Array, n: number): void {
  const perRow = A.rows === 0 ? 0 : A.rowPtr[A.rows]! / A.rows;
  runKernel({ program: SPMM_PROGRAM, arrays: [A.rowPtr, A.colIdx, A.values, B], scalars: Float64Array.of(n), rows: A.rows, output: C, workPerRow: (perRow + 1) * n });
}
