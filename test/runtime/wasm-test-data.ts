// Seeded random inputs and tolerant comparisons for the kernel tests.
import { strict as assert } from "node:assert";
import type { CsrArrays } from "../../engine/runtime/wasm";
import type { MmchainMode } from "../../engine/runtime/wasm/resident-kernels";

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
export { seededRandom as seeded } from "../../engine/stats/structure-random";

/** Values in [-1, 1) into `into` (a fresh array when omitted). */
export function fillRandom(rand: () => number, length: number, into: Float64Array = new Float64Array(length)): Float64Array {
  for (let i = 0; i < length; i++) into[i] = rand() * 2 - 1;
  return into;
}

/** A random CSR matrix: each cell non-zero with probability `density`, sorted columns. */
export function randomCsr(rand: () => number, rows: number, cols: number, density: number): CsrArrays {
  const rowPtr = new Int32Array(rows + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (rand() < density) {
        colIdx.push(c);
        values.push(rand() * 2 - 1);
      }
    }
    rowPtr[r + 1] = colIdx.length;
  }
  return { rows, cols, rowPtr, colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}

/**
 * Asserts |actual - expected| ≤ tol · scale per element, where scale is the
 * element's magnitude bound (e.g. Σ|a||b| for a dot product), so that
 * cancellation in random signed data does not make the check flaky.
 */
export function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, scale: ArrayLike<number> | number, what: string, tol = 1e-12): void {
  assert.equal(actual.length, expected.length, `${what}: lengths`);
  for (let i = 0; i < expected.length; i++) {
    const bound = tol * Math.max(1e-300, typeof scale === "number" ? scale : scale[i]!);
    const diff = Math.abs(actual[i]! - expected[i]!);
    if (!(diff <= bound)) assert.fail(`${what}: element ${i} is ${actual[i]} but the JS kernel gives ${expected[i]} (difference ${diff}, bound ${bound})`);
  }
}

/** Σ_k |a[i,k]|·|b[k,j]| for every cell of a row-major m×n product: the scale of its rounding error. */
export function absProduct(m: number, k: number, n: number, a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) out[i * n + j] = out[i * n + j]! + Math.abs(a[i * k + p]!) * Math.abs(b[p * n + j]!);
  return out;
}

/** The same CSR matrix with |values|: its products with |x| bound SpMV / SpMM rounding errors. */
export function absCsr(a: CsrArrays): CsrArrays {
  return { ...a, values: a.values.map(Math.abs) };
}

export function absArray(a: Float64Array): Float64Array {
  return a.map(Math.abs);
}

/** t(X) %*% s with s_i = X_i·v, w_i X_i·v, X_i·v − w_i, w_i or w_i u_i, in two plain passes; and the same with |X|, |v|, |w|, |u| (the rounding scale). */
export function mmchainReference(x: Float64Array, rows: number, cols: number, v: Float64Array, w: Float64Array, u: Float64Array, mode: MmchainMode): { value: Float64Array; scale: Float64Array } {
  const value = new Float64Array(cols);
  const scale = new Float64Array(cols);
  const xv = gemvReference(x, rows, cols, v);
  for (let i = 0; i < rows; i++) {
    const d = xv.value[i]!;
    const da = xv.scale[i]!;
    const s = { XtXv: d, XtwXv: w[i]! * d, XtXvy: d - w[i]!, Xtw: w[i]!, Xtwu: w[i]! * u[i]! }[mode];
    const sa = { XtXv: da, XtwXv: Math.abs(w[i]!) * da, XtXvy: da + Math.abs(w[i]!), Xtw: Math.abs(w[i]!), Xtwu: Math.abs(w[i]! * u[i]!) }[mode];
    for (let j = 0; j < cols; j++) {
      value[j]! += x[i * cols + j]! * s;
      scale[j]! += Math.abs(x[i * cols + j]!) * sa;
    }
  }
  return { value, scale };
}

/** X %*% v by plain dot products, and the same with |X| and |v| (the rounding scale). */
export function gemvReference(x: Float64Array, rows: number, cols: number, v: Float64Array): { value: Float64Array; scale: Float64Array } {
  const value = new Float64Array(rows);
  const scale = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      value[i]! += x[i * cols + j]! * v[j]!;
      scale[i]! += Math.abs(x[i * cols + j]! * v[j]!);
    }
  }
  return { value, scale };
}
