/**
 * How a fused operator's materialized inputs are bound: the main input the
 * skeleton iterates over, the other matrices (side inputs) and the scalars.
 */
import type { FusionDag } from "../fusion-dag";
import { cellCount, isScalar, nonZeros, sameShape, shapeOf, type Shape } from "./node-shapes";

/**
 * Matrix inputs in the order SystemDS's Cell template sorts them: most
 * cells first; among equally many cells, fewer non-zeros first when one of
 * them is sparse (so a sparse input drives), else by id.
 */
export function largestFirst(dag: FusionDag, inputs: readonly number[]): number[] {
  return inputs
    .filter((i) => !isScalar(dag, i))
    .sort((a, b) => (cellCount(dag, b) ?? Infinity) - (cellCount(dag, a) ?? Infinity) || nonZeros(dag, a) - nonZeros(dag, b) || a - b);
}

/**
 * The main input among the inputs of exactly `shape`: the first, in
 * largest-first order, for which the operator is sparse-safe, else the
 * first (null when no input has that shape).
 */
export function chooseMainInput(dag: FusionDag, inputs: readonly number[], shape: Shape | undefined, sparseSafeWith: (main: number) => boolean): { main: number | null; sparseSafe: boolean } {
  const candidates = largestFirst(dag, inputs).filter((i) => sameShape(shapeOf(dag, i), shape));
  const safe = candidates.find(sparseSafeWith);
  if (safe !== undefined) return { main: safe, sparseSafe: true };
  return { main: candidates[0] ?? null, sparseSafe: false };
}

/** Side inputs (matrices other than the main input: `first` ones in that order, then largest first) and scalar inputs. */
export function sideAndScalarInputs(dag: FusionDag, inputs: readonly number[], main: number | null, first: readonly number[] = []): { sideInputs: number[]; scalarInputs: number[] } {
  const matrices = largestFirst(dag, inputs).filter((i) => i !== main && !first.includes(i));
  const leading = first.filter((i) => i !== main && inputs.includes(i));
  return { sideInputs: [...new Set([...leading, ...matrices])], scalarInputs: inputs.filter((i) => isScalar(dag, i)) };
}
