/**
 * The low-rank product inside Outer kernels, as JavaScript functions the
 * kernels declare: the cells of U %*% t(V) are dot products of rows of the
 * dense factors (k values each, row-major).
 *
 * - `rowDots`: all visited cells of one driver row i at once: four columns
 *   j at a time share the loads of U_i (1.25 loads per multiply-add instead
 *   of 2, four rows of V streamed together), each with two accumulators
 *   (even and odd positions), so every cell's value is the same sum
 *   (even part + odd part) whether it was in a group of four or not;
 * - `dot`: one cell, four independent accumulators (a cell read through a
 *   transpose or broadcast, outside the driver row's order).
 */

/** rowDots(L, lo, R, J, p0, p1, k, D): D[p - p0] = Σ_u L[lo + u] · R[J[p] · k + u] for p0 ≤ p < p1. */
export const ROW_DOTS_FUNCTION: readonly string[] = [
  "function rowDots(L, lo, R, J, p0, p1, k, D) {",
  "  let p = p0, q = 0;",
  "  for (; p + 4 <= p1; p += 4, q += 4) {",
  "    const r0 = J[p] * k, r1 = J[p + 1] * k, r2 = J[p + 2] * k, r3 = J[p + 3] * k;",
  "    let a0 = 0, b0 = 0, a1 = 0, b1 = 0, a2 = 0, b2 = 0, a3 = 0, b3 = 0, u = 0;",
  "    for (; u + 2 <= k; u += 2) {",
  "      const x = L[lo + u], y = L[lo + u + 1];",
  "      a0 += x * R[r0 + u]; b0 += y * R[r0 + u + 1]; a1 += x * R[r1 + u]; b1 += y * R[r1 + u + 1];",
  "      a2 += x * R[r2 + u]; b2 += y * R[r2 + u + 1]; a3 += x * R[r3 + u]; b3 += y * R[r3 + u + 1];",
  "    }",
  "    if (u < k) { const x = L[lo + u]; a0 += x * R[r0 + u]; a1 += x * R[r1 + u]; a2 += x * R[r2 + u]; a3 += x * R[r3 + u]; }",
  "    D[q] = a0 + b0; D[q + 1] = a1 + b1; D[q + 2] = a2 + b2; D[q + 3] = a3 + b3;",
  "  }",
  "  for (; p < p1; p++, q++) {",
  "    const r0 = J[p] * k;",
  "    let a0 = 0, b0 = 0, u = 0;",
  "    for (; u + 2 <= k; u += 2) { a0 += L[lo + u] * R[r0 + u]; b0 += L[lo + u + 1] * R[r0 + u + 1]; }",
  "    if (u < k) a0 += L[lo + u] * R[r0 + u];",
  "    D[q] = a0 + b0;",
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
