/**
 * Non-zeros of a chain's sub-chains by the MNC estimator (ReMac section
 * 4.2: MNC sketches for the cost model's sparsity when the data is local).
 *
 * An atom carries the MNC sketch the analysis has for it (built from a
 * local file's data, or propagated from such sketches and from constants
 * of known structure); a sketch from metadata alone has no structure and
 * is not carried. For a chain whose factors have sketches, every sub-chain
 * [i..j] gets one size, whatever the order it is multiplied in: along the
 * cheapest split (the matrix-chain dynamic program with the sizes found so
 * far, output non-zeros of a candidate split by the uniform formula), the
 * product of the two sides' sketches when both have one (MNC's estimate,
 * and the product's sketch for longer sub-chains), else the uniform
 * formula on the two sides' sizes. A chain where no product has two
 * sketched sides keeps the uniform estimates of chain-cost.ts unchanged.
 *
 * Work is bounded by counts: one MNC product per sub-chain; products and
 * transposes are cached by the identity of their input sketches (equal
 * sub-chains in other chains and plans reuse them); each chain's table
 * counts the vector entries of its products (cached or not, so the result
 * does not depend on what ran before) up to MAX_SKETCH_WORK, after which
 * its remaining sub-chains take the uniform formula (`truncated`).
 */
import { type MachineConstants, DEFAULT_MACHINE_CONSTANTS } from "../cost";
import { mncEstimator, type MncSketch } from "../stats/estimators";
import type { Factor, MatrixSize } from "./chain-terms";
import { factorSize, isSelfTransposeProduct, multiplySeconds, productSize, SELF_TRANSPOSE_FACTOR } from "./product-size";

/** Vector entries (inner dimension + rows + cols) one chain's table may spend on new MNC products. */
export const MAX_SKETCH_WORK = 4_000_000;

export interface ChainSketchSizes {
  /** The size of sub-chain [i..j] (inclusive). */
  size(i: number, j: number): MatrixSize;
  /** Its MNC sketch, when the estimate came from MNC. */
  sketch(i: number, j: number): MncSketch | undefined;
  /** Sub-chains whose non-zeros MNC estimated. */
  mncProducts: number;
  /** The work bound left some sub-chains to the uniform formula. */
  truncated: boolean;
}

const transposes = new WeakMap<MncSketch, MncSketch>();
const products = new WeakMap<MncSketch, WeakMap<MncSketch, MncSketch>>();
const tables = new WeakMap<readonly Factor[], Map<MachineConstants, ChainSketchSizes | null>>();

/** The factor's sketch as it enters the chain (transposed when the factor is), the same object each time. */
export function factorSketch(f: Factor): MncSketch | undefined {
  const s = f.atom.sketch;
  if (!s || !f.transposed || f.atom.symmetric) return s;
  let t = transposes.get(s);
  if (!t) {
    t = mncEstimator.transpose(s);
    transposes.set(s, t);
  }
  return t;
}

function cachedProduct(a: MncSketch, b: MncSketch): MncSketch {
  let byRight = products.get(a);
  if (!byRight) {
    byRight = new WeakMap();
    products.set(a, byRight);
  }
  const hit = byRight.get(b);
  if (hit) return hit;
  const sketch = mncEstimator.matmul(a, b);
  byRight.set(b, sketch);
  return sketch;
}

/**
 * The sizes of every sub-chain of `factors` with MNC where sketches allow;
 * undefined when a factor's size is unknown or no product of the chain has
 * two sketched sides (then the uniform estimates apply as they are).
 */
export function chainSketchSizes(factors: readonly Factor[], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): ChainSketchSizes | undefined {
  let byConstants = tables.get(factors);
  if (!byConstants) {
    byConstants = new Map();
    tables.set(factors, byConstants);
  }
  if (!byConstants.has(constants)) byConstants.set(constants, sketchSizeTable(factors, constants) ?? null);
  return byConstants.get(constants) ?? undefined;
}

/** The table of chainSketchSizes, built afresh (products still come from the cache), with `maxWork` vector entries for new products. */
export function sketchSizeTable(factors: readonly Factor[], constants: MachineConstants, maxWork: number = MAX_SKETCH_WORK): ChainSketchSizes | undefined {
  const n = factors.length;
  if (n < 2 || factors.filter((f) => f.atom.sketch).length < 2) return undefined;
  const leafSizes = factors.map(factorSize);
  const sizes: MatrixSize[][] = Array.from({ length: n }, () => new Array<MatrixSize>(n));
  const sketches: (MncSketch | undefined)[][] = Array.from({ length: n }, () => new Array<MncSketch | undefined>(n));
  const cost: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    const s = leafSizes[i];
    if (!s) return undefined;
    const sketch = factorSketch(factors[i]!);
    // A sketch that disagrees with the analysis's dims is not used.
    sizes[i]![i] = s;
    sketches[i]![i] = sketch && sketch.rows === s.rows && sketch.cols === s.cols ? sketch : undefined;
  }
  let mncProducts = 0;
  let work = 0;
  let truncated = false;
  for (let len = 2; len <= n; len++) {
    for (let i = 0; i + len - 1 < n; i++) {
      const j = i + len - 1;
      let best = -1;
      let bestCost = Number.POSITIVE_INFINITY;
      for (let k = i; k < j; k++) {
        const l = sizes[i]![k]!;
        const r = sizes[k + 1]![j]!;
        const own = multiplySeconds(l, r, productSize(l, r), constants) * (isSelfTransposeProduct(factors, i, k, j) ? SELF_TRANSPOSE_FACTOR : 1);
        const c = cost[i]![k]! + cost[k + 1]![j]! + own;
        if (best < 0 || c < bestCost) [best, bestCost] = [k, c];
      }
      cost[i]![j] = bestCost;
      const l = sizes[i]![best]!;
      const r = sizes[best + 1]![j]!;
      const a = sketches[i]![best];
      const b = sketches[best + 1]![j];
      // Work is counted whether or not the product is cached, so the table does not depend on what ran before.
      if (a && b && work + a.cols + a.rows + b.cols <= maxWork) {
        const product = cachedProduct(a, b);
        work += a.cols + a.rows + b.cols;
        sketches[i]![j] = product;
        sizes[i]![j] = { rows: l.rows, cols: r.cols, nnz: Math.min(l.rows * r.cols, Math.max(0, Math.round(product.nnz))) };
        mncProducts++;
      } else {
        if (a && b) truncated = true;
        sizes[i]![j] = productSize(l, r);
      }
    }
  }
  if (mncProducts === 0) return undefined;
  return {
    size: (i, j) => sizes[i]![j]!,
    sketch: (i, j) => sketches[i]![j],
    mncProducts,
    truncated,
  };
}
