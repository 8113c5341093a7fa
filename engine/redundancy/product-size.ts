/**
 * One product of a chain: its factors' sizes, the dims and non-zeros of
 * `a %*% b` by the uniform formula (the metadata estimate ReMac's cost
 * model uses without data), and its seconds by the cost model (cached).
 */
import { operationCost, type MachineConstants } from "../cost";
import type { Factor, MatrixSize } from "./chain-terms";

export function factorSize(f: Factor): MatrixSize | undefined {
  const s = f.atom.size;
  if (!s) return undefined;
  return f.transposed && !f.atom.symmetric ? { rows: s.cols, cols: s.rows, nnz: s.nnz } : s;
}

/** Dims and estimated non-zeros of `a %*% b` (uniform non-zeros). */
export function productSize(a: MatrixSize, b: MatrixSize): MatrixSize {
  const rows = a.rows;
  const cols = b.cols;
  const k = a.cols;
  const sa = a.rows * a.cols > 0 ? a.nnz / (a.rows * a.cols) : 0;
  const sb = b.rows * b.cols > 0 ? b.nnz / (b.rows * b.cols) : 0;
  const p = sa * sb;
  const density = p >= 1 ? 1 : 1 - Math.exp(k * Math.log1p(-p));
  return { rows, cols, nnz: Math.round(rows * cols * density) };
}

/** Products costed, by sizes and constants (the same few sizes recur across chains and plans). */
const multiplyCache = new WeakMap<MachineConstants, Map<string, number>>();
const MAX_CACHED_PRODUCTS = 50_000;

export function multiplySeconds(a: MatrixSize, b: MatrixSize, out: MatrixSize, constants: MachineConstants): number {
  let cache = multiplyCache.get(constants);
  if (!cache || cache.size > MAX_CACHED_PRODUCTS) {
    cache = new Map();
    multiplyCache.set(constants, cache);
  }
  const key = `${a.rows},${a.cols},${a.nnz},${b.cols},${b.nnz},${out.nnz}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const cost = operationCost({ kind: "matmul" }, [{ kind: "matrix", ...a }, { kind: "matrix", ...b }], { kind: "matrix", ...out }, constants);
  const seconds = cost.known ? cost.cost.seconds : Number.POSITIVE_INFINITY;
  cache.set(key, seconds);
  return seconds;
}

/**
 * `t(X) %*% X` (the left operand is the transpose of the right one) runs as
 * SystemDS's and our runtime's tsmm, which computes only the upper triangle
 * of the symmetric result: half the work of a general product.
 */
export function isSelfTransposeProduct(factors: readonly Factor[], i: number, k: number, j: number): boolean {
  if (k - i !== j - k - 1) return false;
  for (let a = 0; a <= k - i; a++) {
    const left = factors[i + a]!;
    const right = factors[j - a]!;
    if (left.atom.key !== right.atom.key) return false;
    if (!left.atom.symmetric && left.transposed === right.transposed) return false;
  }
  return true;
}

export const SELF_TRANSPOSE_FACTOR = 0.5;
