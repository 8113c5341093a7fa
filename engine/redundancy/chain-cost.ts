/**
 * The cost of a multiplication chain with the cost model (engine/cost,
 * sparsity-aware: a sparse operand's FLOPs follow its non-zeros), in the
 * cheapest multiplication order (the matrix-chain dynamic program, as
 * SystemDS's chain optimization orders a chain), with some windows forced
 * to be ready-made operands: a shared temporary reused (CSE) or hoisted
 * out of a loop (LSE) costs nothing where it is used. Forced windows must
 * not cross each other. Non-zeros of a product are the metadata estimate
 * (uniformly placed non-zeros), as in ReMac's cost model.
 */
import { DEFAULT_MACHINE_CONSTANTS, operationCost, type MachineConstants } from "../cost";
import type { Factor, MatrixSize } from "./chain-terms";

export interface Interval {
  start: number;
  /** Inclusive. */
  end: number;
}

/** How a chain is multiplied: a leaf (one factor, or a forced window) or a split. */
export type ChainTree = { kind: "leaf"; start: number; end: number } | { kind: "split"; left: ChainTree; right: ChainTree };

export interface ChainCost {
  seconds: number;
  tree: ChainTree;
  size: MatrixSize;
}

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

/**
 * The cheapest order of `factors` with `forced` windows as ready operands.
 * Undefined when a size is unknown or forced windows cross.
 */
export function chainCost(factors: readonly Factor[], forced: readonly Interval[] = [], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): ChainCost | undefined {
  const n = factors.length;
  const sizes = factors.map(factorSize);
  if (sizes.some((s) => s === undefined)) return undefined;
  for (const a of forced) for (const b of forced) if (a !== b && a.start <= b.end && b.start <= a.end) return undefined;
  const crosses = (i: number, j: number) => forced.some((w) => (w.start < i && i <= w.end && w.end < j) || (i < w.start && w.start <= j && j < w.end));
  const cost: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(Number.POSITIVE_INFINITY));
  const size: (MatrixSize | undefined)[][] = Array.from({ length: n }, () => new Array<MatrixSize | undefined>(n).fill(undefined));
  const split: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(-1));
  for (let i = 0; i < n; i++) {
    cost[i]![i] = 0;
    size[i]![i] = sizes[i];
  }
  for (let len = 2; len <= n; len++) {
    for (let i = 0; i + len - 1 < n; i++) {
      const j = i + len - 1;
      if (crosses(i, j)) continue;
      const isForced = forced.some((w) => w.start === i && w.end === j);
      for (let k = i; k < j; k++) {
        const l = size[i]![k];
        const r = size[k + 1]![j];
        if (!l || !r || !Number.isFinite(cost[i]![k]!) || !Number.isFinite(cost[k + 1]![j]!)) continue;
        const out = productSize(l, r);
        const own = multiplySeconds(l, r, out, constants) * (isSelfTransposeProduct(factors, i, k, j) ? SELF_TRANSPOSE_FACTOR : 1);
        const c = isForced ? 0 : cost[i]![k]! + cost[k + 1]![j]! + own;
        if (c < cost[i]![j]! || size[i]![j] === undefined) {
          cost[i]![j] = c;
          size[i]![j] = out;
          split[i]![j] = isForced ? -2 : k;
        }
        if (isForced) break;
      }
    }
  }
  if (!Number.isFinite(cost[0]![n - 1]!) || !size[0]![n - 1]) return undefined;
  const tree = (i: number, j: number): ChainTree => {
    const k = split[i]![j]!;
    if (i === j || k === -2) return { kind: "leaf", start: i, end: j };
    return { kind: "split", left: tree(i, k), right: tree(k + 1, j) };
  };
  return { seconds: cost[0]![n - 1]!, tree: tree(0, n - 1), size: size[0]![n - 1]! };
}
