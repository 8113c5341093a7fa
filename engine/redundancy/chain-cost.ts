/**
 * The cost of a multiplication chain with the cost model (engine/cost,
 * sparsity-aware: a sparse operand's FLOPs follow its non-zeros), in the
 * cheapest multiplication order (the matrix-chain dynamic program, as
 * SystemDS's chain optimization orders a chain), with some windows forced
 * to be ready-made operands: a shared temporary reused (CSE) or hoisted
 * out of a loop (LSE) costs nothing where it is used. Forced windows must
 * not cross each other. Non-zeros of a product are MNC's estimate where
 * the factors carry sketches (chain-sketches.ts: local data), else the
 * metadata estimate (uniformly placed non-zeros), as in ReMac's cost model.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import type { MncSketch } from "../stats/estimators";
import type { Factor, MatrixSize } from "./chain-terms";
import { chainSketchSizes, factorSketch } from "./chain-sketches";
import { factorSize, isSelfTransposeProduct, multiplySeconds, productSize, SELF_TRANSPOSE_FACTOR } from "./product-size";

export { factorSize, isSelfTransposeProduct, multiplySeconds, productSize, SELF_TRANSPOSE_FACTOR } from "./product-size";

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
  /** Which estimate gave the non-zeros of its products: MNC for some of them (sketches of local data), or the uniform formula for all. */
  estimator: SparsityEstimate;
  /** The chain's MNC sketch, when MNC estimated the whole product. */
  sketch?: MncSketch;
}

export type SparsityEstimate = "mnc" | "uniform";

/**
 * The cheapest order of `factors` with `forced` windows as ready operands.
 * Undefined when a size is unknown or forced windows cross.
 */
export function chainCost(factors: readonly Factor[], forced: readonly Interval[] = [], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): ChainCost | undefined {
  const n = factors.length;
  const sizes = factors.map(factorSize);
  if (sizes.some((s) => s === undefined)) return undefined;
  // With sketches, each sub-chain has one size whatever its order; else each split's uniform estimate.
  const sketched = chainSketchSizes(factors, constants);
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
        const out = sketched ? sketched.size(i, j) : productSize(l, r);
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
  const sketch = n === 1 && factors[0] ? factorSketch(factors[0]) : sketched?.sketch(0, n - 1);
  return { seconds: cost[0]![n - 1]!, tree: tree(0, n - 1), size: size[0]![n - 1]!, estimator: sketched ? "mnc" : "uniform", ...(sketch ? { sketch } : {}) };
}
