/**
 * `A %*% B` for a tall dense A and a small dense B with few columns (X %*%
 * Q with X 1e6 x 10 and Q 10 x 2): one pass over A's rows, each row's n
 * results kept in locals while its k values are read once, B read from
 * cache. The row loop is a kernel call (../codegen: split over the kernel
 * threads when A lives in kernel memory); rows are independent, so the
 * result has the same bits on any number of threads.
 *
 * Row i's result c is sum over p of A[i, p] B[p, c], added in p order
 * (gemm.ts groups four p per addition; both are within rounding of each
 * other). The kernel texts are fixed per width n (unrolled up to
 * UNROLLED_WIDTH columns), never built from user text.
 */
import { runKernel, type KernelProgram } from "../codegen";

/** Widths whose per-row sums are unrolled into locals. */
const UNROLLED_WIDTH = 8;
/** The most columns of B taken by this kernel, and the most values of B (it stays in the L1 cache). */
export const SKINNY_MAX_COLS = 16;
const SKINNY_MAX_B_VALUES = 4096;

/** Whether `A (m x k) %*% B (k x n)` is tall and skinny enough for this kernel. */
export function isSkinnyDenseProduct(m: number, k: number, n: number): boolean {
  return n >= 2 && n <= SKINNY_MAX_COLS && k * n <= SKINNY_MAX_B_VALUES && m >= 4 * k;
}

const programs = new Map<number, KernelProgram>();

/** The kernel for width n: C[i, :] = A[i, :] B for rows [r0, r1); a = [A, B], s = [k]. */
function skinnyProgram(n: number): KernelProgram {
  const known = programs.get(n);
  if (known) return known;
  const cols = Array.from({ length: n }, (_, c) => c);
  const source =
    n <= UNROLLED_WIDTH
      ? `function skinnyGemm${n}Rows(a, s, r0, r1, acc, out) {
  const A = a[0], B = a[1], k = s[0] | 0;
  for (let i = r0; i < r1; i++) {
    const r = i * k;
    let ${cols.map((c) => `c${c} = 0`).join(", ")};
    for (let p = 0; p < k; p++) {
      const x = A[r + p], q = p * ${n};
      ${cols.map((c) => `c${c} += x * B[q + ${c}];`).join(" ")}
    }
    const o = i * ${n};
    ${cols.map((c) => `out[o + ${c}] = c${c};`).join(" ")}
  }
}`
      : `function skinnyGemmRows(a, s, r0, r1, acc, out) {
  const A = a[0], B = a[1], k = s[0] | 0, n = s[1] | 0;
  for (let i = r0; i < r1; i++) {
    const r = i * k, o = i * n;
    for (let c = 0; c < n; c++) out[o + c] = 0;
    for (let p = 0; p < k; p++) {
      const x = A[r + p], q = p * n;
      for (let c = 0; c < n; c++) out[o + c] += x * B[q + c];
    }
  }
}`;
  const program = { source };
  programs.set(n, program);
  return program;
}

/** C (m x n, overwritten) = A (m x k, row-major) · B (k x n, row-major). */
export function skinnyMatmul(A: Float64Array, B: Float64Array, C: Float64Array, m: number, k: number, n: number): void {
  runKernel({ program: skinnyProgram(n), arrays: [A, B], scalars: Float64Array.of(k, n), rows: m, output: C, workPerRow: k * n });
}
