/**
 * Dense matrix multiply in pure JavaScript (also the fallback of the
 * WebAssembly kernels).
 *
 * GEMM, C += A · B with all three row-major: an i-k-j loop (the innermost
 * loop runs along a row of B and a row of C, both contiguous), cache
 * blocked so that a KC x NC panel of B stays in the L2 cache while all rows
 * of A pass over it, and register blocked 4 x 4: four rows of A times four
 * rows of B per pass of the inner loop (the 4-way unrolled k), so that each
 * loaded B value feeds four rows and each C value is loaded and stored once
 * per four multiply-adds instead of once per one. Remainder rows and
 * remainder k use the same loop with fewer rows.
 *
 * GEMV, y = A · x: one dot product per row with four partial sums.
 */

/** Depth of a B panel (rows of B kept in cache). */
const KC = 128;
/** Width of a B panel (columns of B and C per pass). */
const NC = 512;

/** C (m x n) += A (m x k) · B (k x n); C must be initialised (zeros for a plain product). */
export function gemm(A: Float64Array, B: Float64Array, C: Float64Array, m: number, k: number, n: number): void {
  for (let jj = 0; jj < n; jj += NC) {
    const je = Math.min(jj + NC, n);
    for (let kk = 0; kk < k; kk += KC) {
      const ke = Math.min(kk + KC, k);
      let i = 0;
      for (; i + 3 < m; i += 4) block4(A, B, C, i, k, n, kk, ke, jj, je);
      for (; i < m; i++) block1(A, B, C, i, k, n, kk, ke, jj, je);
    }
  }
}

/** Rows i..i+3 of C, columns jj..je-1, over k in kk..ke-1. */
function block4(A: Float64Array, B: Float64Array, C: Float64Array, i: number, k: number, n: number, kk: number, ke: number, jj: number, je: number): void {
  const c0 = i * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
  const r0 = i * k, r1 = r0 + k, r2 = r1 + k, r3 = r2 + k;
  let p = kk;
  for (; p + 3 < ke; p += 4) {
    const a00 = A[r0 + p]!, a01 = A[r0 + p + 1]!, a02 = A[r0 + p + 2]!, a03 = A[r0 + p + 3]!;
    const a10 = A[r1 + p]!, a11 = A[r1 + p + 1]!, a12 = A[r1 + p + 2]!, a13 = A[r1 + p + 3]!;
    const a20 = A[r2 + p]!, a21 = A[r2 + p + 1]!, a22 = A[r2 + p + 2]!, a23 = A[r2 + p + 3]!;
    const a30 = A[r3 + p]!, a31 = A[r3 + p + 1]!, a32 = A[r3 + p + 2]!, a33 = A[r3 + p + 3]!;
    const b0 = p * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
    for (let j = jj; j < je; j++) {
      const x0 = B[b0 + j]!, x1 = B[b1 + j]!, x2 = B[b2 + j]!, x3 = B[b3 + j]!;
      C[c0 + j]! += a00 * x0 + a01 * x1 + a02 * x2 + a03 * x3;
      C[c1 + j]! += a10 * x0 + a11 * x1 + a12 * x2 + a13 * x3;
      C[c2 + j]! += a20 * x0 + a21 * x1 + a22 * x2 + a23 * x3;
      C[c3 + j]! += a30 * x0 + a31 * x1 + a32 * x2 + a33 * x3;
    }
  }
  for (; p < ke; p++) {
    const a0 = A[r0 + p]!, a1 = A[r1 + p]!, a2 = A[r2 + p]!, a3 = A[r3 + p]!;
    const b0 = p * n;
    for (let j = jj; j < je; j++) {
      const x = B[b0 + j]!;
      C[c0 + j]! += a0 * x;
      C[c1 + j]! += a1 * x;
      C[c2 + j]! += a2 * x;
      C[c3 + j]! += a3 * x;
    }
  }
}

/** Row i of C, columns jj..je-1, over k in kk..ke-1 (4-way unrolled k). */
function block1(A: Float64Array, B: Float64Array, C: Float64Array, i: number, k: number, n: number, kk: number, ke: number, jj: number, je: number): void {
  const c0 = i * n;
  const r0 = i * k;
  let p = kk;
  for (; p + 3 < ke; p += 4) {
    const a0 = A[r0 + p]!, a1 = A[r0 + p + 1]!, a2 = A[r0 + p + 2]!, a3 = A[r0 + p + 3]!;
    const b0 = p * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
    for (let j = jj; j < je; j++) C[c0 + j]! += a0 * B[b0 + j]! + a1 * B[b1 + j]! + a2 * B[b2 + j]! + a3 * B[b3 + j]!;
  }
  for (; p < ke; p++) {
    const a0 = A[r0 + p]!;
    const b0 = p * n;
    for (let j = jj; j < je; j++) C[c0 + j]! += a0 * B[b0 + j]!;
  }
}

/** y (m) = A (m x k) · x (k). */
export function gemv(A: Float64Array, x: Float64Array, y: Float64Array, m: number, k: number): void {
  for (let i = 0; i < m; i++) {
    const r = i * k;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let p = 0;
    for (; p + 3 < k; p += 4) {
      s0 += A[r + p]! * x[p]!;
      s1 += A[r + p + 1]! * x[p + 1]!;
      s2 += A[r + p + 2]! * x[p + 2]!;
      s3 += A[r + p + 3]! * x[p + 3]!;
    }
    for (; p < k; p++) s0 += A[r + p]! * x[p]!;
    y[i] = s0 + s1 + (s2 + s3);
  }
}
