/**
 * The low-rank product inside Outer kernels, as JavaScript functions the
 * kernels declare: the cells of U %*% t(V) are dot products of rows of the
 * dense factors (k values each, row-major).
 *
 * - `rowDots`: all visited cells of one driver row i at once: eight columns
 *   j at a time (then four, two, one) share the loads of U_i (1.125 loads
 *   per multiply-add instead of 2, eight rows of V streamed together, eight
 *   independent accumulators), each cell's sum in order of the rank index
 *   (the reference skeleton's order, whatever group the cell fell in);
 * - `dot`: one cell, four independent accumulators (a cell read through a
 *   transpose or broadcast, outside the driver row's order).
 */

/** rowDots(L, lo, R, J, p0, p1, k, D): D[p - p0] = Σ_u L[lo + u] · R[J[p] · k + u] for p0 ≤ p < p1, each sum in order of u. */
export const ROW_DOTS_FUNCTION: readonly string[] = [
  "function rowDots(L, lo, R, J, p0, p1, k, D) {",
  "  let p = p0, q = 0;",
  "  for (; p + 8 <= p1; p += 8, q += 8) {",
  "    const r0 = J[p] * k, r1 = J[p + 1] * k, r2 = J[p + 2] * k, r3 = J[p + 3] * k, r4 = J[p + 4] * k, r5 = J[p + 5] * k, r6 = J[p + 6] * k, r7 = J[p + 7] * k;",
  "    let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;",
  "    for (let u = 0; u < k; u++) { const x = L[lo + u]; a0 += x * R[r0 + u]; a1 += x * R[r1 + u]; a2 += x * R[r2 + u]; a3 += x * R[r3 + u]; a4 += x * R[r4 + u]; a5 += x * R[r5 + u]; a6 += x * R[r6 + u]; a7 += x * R[r7 + u]; }",
  "    D[q] = a0; D[q + 1] = a1; D[q + 2] = a2; D[q + 3] = a3; D[q + 4] = a4; D[q + 5] = a5; D[q + 6] = a6; D[q + 7] = a7;",
  "  }",
  "  for (; p + 4 <= p1; p += 4, q += 4) {",
  "    const r0 = J[p] * k, r1 = J[p + 1] * k, r2 = J[p + 2] * k, r3 = J[p + 3] * k;",
  "    let a0 = 0, a1 = 0, a2 = 0, a3 = 0;",
  "    for (let u = 0; u < k; u++) { const x = L[lo + u]; a0 += x * R[r0 + u]; a1 += x * R[r1 + u]; a2 += x * R[r2 + u]; a3 += x * R[r3 + u]; }",
  "    D[q] = a0; D[q + 1] = a1; D[q + 2] = a2; D[q + 3] = a3;",
  "  }",
  "  for (; p + 2 <= p1; p += 2, q += 2) {",
  "    const r0 = J[p] * k, r1 = J[p + 1] * k;",
  "    let a0 = 0, a1 = 0;",
  "    for (let u = 0; u < k; u++) { const x = L[lo + u]; a0 += x * R[r0 + u]; a1 += x * R[r1 + u]; }",
  "    D[q] = a0; D[q + 1] = a1;",
  "  }",
  "  for (; p < p1; p++, q++) {",
  "    const r0 = J[p] * k;",
  "    let a0 = 0;",
  "    for (let u = 0; u < k; u++) { const x = L[lo + u]; a0 += x * R[r0 + u]; }",
  "    D[q] = a0;",
  "  }",
  "}",
];

/** dot(L, lo, R, ro, k) = Σ_u L[lo + u] · R[ro + u], in four interleaved partial sums. */
export const DOT_FUNCTION: readonly string[] = [
  "function dot(L, lo, R, ro, k) {",
  "  let u0 = 0, u1 = 0, u2 = 0, u3 = 0, u = 0;",
  "  for (; u + 4 <= k; u += 4) { u0 += L[lo + u] * R[ro + u]; u1 += L[lo + u + 1] * R[ro + u + 1]; u2 += L[lo + u + 2] * R[ro + u + 2]; u3 += L[lo + u + 3] * R[ro + u + 3]; }",
  "  for (; u < k; u++) u0 += L[lo + u] * R[ro + u];",
  "  return (u0 + u1) + (u2 + u3);",
  "}",
];
