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
 * other). The kernel texts are made from k and n only, never from user
 * text: fully unrolled (B and the row in locals) for small k x n, the n
 * sums in locals up to UNROLLED_WIDTH columns, else plain loops.
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

const programs = new Map<string, KernelProgram>();

/** B's values held in locals: the row's k values of A are loaded once and every product is unrolled. */
const UNROLLED_B_VALUES = 64;

/** The kernel for k x n: C[i, :] = A[i, :] B for rows [r0, r1); a = [A, B], s = [k, n]. */
function skinnyProgram(k: number, n: number): KernelProgram {
  const unrolled = k * n <= UNROLLED_B_VALUES;
  const byWidth = !unrolled && n <= UNROLLED_WIDTH;
  const key = unrolled ? `${k}x${n}` : byWidth ? `_x${n}` : "_x_";
  const known = programs.get(key);
  if (known) return known;
  const program = { source: unrolled ? unrolledSource(k, n) : byWidth ? widthSource(n) : genericSource() };
  programs.set(key, program);
  return program;
}

/** k and n fixed: B in locals, row i's k values loaded into locals, each result one sum in p order. */
function unrolledSource(k: number, n: number): string {
  const ps = Array.from({ length: k }, (_, p) => p);
  const cs = Array.from({ length: n }, (_, c) => c);
  const bLocals = ps.flatMap((p) => cs.map((c) => `b${p}_${c} = B[${p * n + c}]`));
  const xLocals = ps.map((p) => `x${p} = A[r + ${p}]`);
  const sums = cs.map((c) => `out[o + ${c}] = ${ps.map((p) => `x${p} * b${p}_${c}`).join(" + ")};`);
  return `function skinnyGemm${k}x${n}Rows(a, s, r0, r1, acc, out) {
  const A = a[0], B = a[1];
  const ${bLocals.join(", ")};
  for (let i = r0; i < r1; i++) {
    const r = i * ${k}, o = i * ${n};
    const ${xLocals.join(", ")};
    ${sums.join("\n    ")}
  }
}`;
}

/** n fixed: the row's n sums in locals. */
function widthSource(n: number): string {
  const cols = Array.from({ length: n }, (_, c) => c);
  return `function skinnyGemm${n}Rows(a, s, r0, r1, acc, out) {
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
}`;
}

function genericSource(): string {
  return `function skinnyGemmRows(a, s, r0, r1, acc, out) {
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
}

/** C (m x n, overwritten) = A (m x k, row-major) · B (k x n, row-major). */
export function skinnyMatmul(A: Float64Array, B: Float64Array, C: Float64Array, m: number, k: number, n: number): void {
  runKernel({ program: skinnyProgram(k, n), arrays: [A, B], scalars: Float64Array.of(k, n), rows: m, output: C, workPerRow: k * n });
}
