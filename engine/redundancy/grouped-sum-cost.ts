/**
 * The cost of a grouped-sum option (grouped-sums.ts) with the redundancy
 * cost model: evaluating the sum `T` is its terms' chains in their
 * cheapest orders plus the additions joining them; each use replaces its
 * products (each chain in its cheapest order) and the additions joining
 * them by `left %*% T %*% right` with `T` a ready operand (plus a
 * transpose where `T` is used transposed). A CSE evaluates `T` once per
 * run of its block, an LSE once per entry to the loop it is hoisted out
 * of; uses run as often as their blocks. Non-zeros of a sum are the sum of
 * its terms' non-zeros, capped at its cells.
 */
import { operationCost, type MachineConstants } from "../cost";
import type { Atom, Factor, MatrixSize } from "./chain-terms";
import { chainCost, type SparsityEstimate } from "./chain-cost";
import type { FoundGroupedSum, GroupedUse } from "./grouped-sums";

export interface GroupedSumCost {
  /** False when a size the cost needs is unknown (then the numbers are 0). */
  costed: boolean;
  /** One evaluation of the sum. */
  evaluation: number;
  /** Per run of the script: the work of the products it replaces minus its evaluations and the regrouped products. */
  saving: number;
  /** Dims and estimated non-zeros of the sum (when costed). */
  size?: MatrixSize;
  estimator: SparsityEstimate;
}

export function groupedSumCost(found: FoundGroupedSum, constants: MachineConstants): GroupedSumCost {
  const none: GroupedSumCost = { costed: false, evaluation: 0, saving: 0, estimator: "uniform" };
  let mnc = false;
  const summed = (chains: readonly (readonly Factor[])[]): { seconds: number; size: MatrixSize } | undefined => {
    let seconds = 0;
    let size: MatrixSize | undefined;
    for (const factors of chains) {
      const cost = chainCost(factors, [], constants);
      if (!cost) return undefined;
      if (cost.estimator === "mnc") mnc = true;
      seconds += cost.seconds;
      if (size) {
        const next = { rows: size.rows, cols: size.cols, nnz: Math.min(size.rows * size.cols, size.nnz + cost.size.nnz) };
        seconds += addSeconds(size, cost.size, next, constants);
        size = next;
      } else size = cost.size;
    }
    return size ? { seconds, size } : undefined;
  };
  const sum = summed(found.terms.map((t) => t.factors));
  if (!sum) return none;
  const atom: Atom = { key: `⟨${found.key}⟩`, text: "T", size: sum.size, invariantLoops: 0, symmetric: false };
  let before = 0;
  let after = 0;
  for (const use of found.uses) {
    const original = summed(use.products.map((i) => use.region.sums.sum[i]!.factors));
    const regrouped = chainCost(regroupedFactors(use, atom), [], constants);
    if (!original || !regrouped) return none;
    const transpose = use.transposed ? transposeSeconds(sum.size, constants) : 0;
    const runs = use.region.block.runs;
    before += original.seconds * runs;
    after += (regrouped.seconds + transpose) * runs;
  }
  const evaluations = found.kind === "lse" ? found.loop!.entries : found.block.runs;
  return { costed: true, evaluation: sum.seconds, saving: before - after - sum.seconds * evaluations, size: sum.size, estimator: mnc ? "mnc" : "uniform" };
}

/** `left %*% T %*% right` for one use, with `T` (or its transpose) as one factor. */
export function regroupedFactors(use: GroupedUse, atom: Atom): Factor[] {
  return [...use.left, { atom, transposed: use.transposed, leaf: -1 }, ...use.right];
}

function addSeconds(a: MatrixSize, b: MatrixSize, out: MatrixSize, constants: MachineConstants): number {
  const cost = operationCost({ kind: "binary", op: "+" }, [{ kind: "matrix", ...a }, { kind: "matrix", ...b }], { kind: "matrix", ...out }, constants);
  return cost.known ? cost.cost.seconds : 0;
}

function transposeSeconds(size: MatrixSize, constants: MachineConstants): number {
  const cost = operationCost({ kind: "transpose" }, [{ kind: "matrix", ...size }], { kind: "matrix", rows: size.cols, cols: size.rows, nnz: size.nnz }, constants);
  return cost.known ? cost.cost.seconds : 0;
}
