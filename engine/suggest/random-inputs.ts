/**
 * Random inputs of given shapes for checking a rewrite with the runtime:
 * dense, sparse (CSR), with empty rows and columns, or all zero. Large
 * dimensions shrink consistently (each distinct size maps to one smaller
 * size), so operands that had to agree still agree; each dimension is
 * also capped, so a product of two inputs (e.g. a 10,000 x 20 by a 20 x
 * 5,000) stays small. A scalar whose value the analysis knows (a folded
 * constant, a size) takes that value, mapped like a dimension when it is one;
 * a scalar used as a dimension takes a small positive integer.
 */
import { CsrMatrix, DenseMatrix, denseToCsr } from "../runtime/matrix";
import { double, matrixValue, type Value } from "../runtime/interpreter";
import { seededRandom } from "../stats/structure-random";

export interface VariableShape {
  name: string;
  kind: "matrix" | "scalar";
  rows?: number;
  cols?: number;
  /** Estimated fraction of non-zeros. */
  sparsity?: number;
  /** Values must stay positive (e.g. under log or sqrt). */
  positive?: boolean;
  /** A scalar's value, when the analysis knows it (the constant the optimizer folded). */
  value?: number;
  /** A scalar used as a dimension (rows=, cols=): a positive integer. */
  dimension?: boolean;
}

/** The largest dimension after shrinking (before keeping distinct sizes distinct). */
export const MAX_SHRUNK_DIMENSION = 64;

export type InputCase = "dense" | "sparse" | "empty-rows-cols" | "all-zero";

/**
 * Why the shapes cannot be given random inputs, or undefined: every
 * dimension (a matrix's rows and cols, a known scalar used as a dimension)
 * must be a whole number from 0 up. A NaN or infinite size (an overflowed
 * estimate) has no consistent smaller stand-in.
 */
export function shapeProblem(shapes: readonly VariableShape[]): string | undefined {
  const whole = (d: number) => Number.isInteger(d) && d >= 0;
  for (const s of shapes) {
    if (s.kind === "matrix") {
      for (const [what, d] of [["rows", s.rows], ["cols", s.cols]] as const) {
        if (d !== undefined && !whole(d)) return `${s.name} has ${d} ${what}: random inputs need a whole number of rows and columns from 0 up`;
      }
    } else if (s.dimension && s.value !== undefined && !whole(s.value)) {
      return `${s.name} = ${s.value} is used as a size: random inputs need a whole number from 0 up`;
    }
  }
  return undefined;
}

/** The dimensions the shapes use: matrices' rows and cols, and the known values of scalars used as sizes. */
function dimensionsOf(shapes: readonly VariableShape[]): number[] {
  const dims: number[] = [];
  for (const s of shapes) {
    if (s.kind === "matrix") dims.push(s.rows ?? 1, s.cols ?? 1);
    else if (s.dimension && s.value !== undefined) dims.push(s.value);
  }
  return dims;
}

/**
 * Each distinct dimension above 1 → a smaller one, so that every matrix has
 * at most `maxCells` cells (dims are first checked by `shapeProblem`: a
 * NaN or infinite one throws).
 */
export function shrinkDimensions(shapes: readonly VariableShape[], maxCells: number): Map<number, number> {
  const problem = shapeProblem(shapes);
  if (problem !== undefined) throw new RangeError(problem);
  let largest = 1;
  for (const s of shapes) if (s.kind === "matrix") largest = Math.max(largest, (s.rows ?? 1) * (s.cols ?? 1));
  // An overflowed product (1e308 x 1e308) shrinks every dimension to the smallest sizes.
  const factor = largest > maxCells ? (Number.isFinite(largest) ? Math.sqrt(maxCells / largest) : 0) : 1;
  const map = new Map<number, number>();
  for (const d of dimensionsOf(shapes)) if (!map.has(d)) map.set(d, d <= 1 ? d : Math.max(2, Math.min(MAX_SHRUNK_DIMENSION, Math.round(d * factor))));
  // Distinct sizes stay distinct, so a shape mismatch is not hidden by the shrinking.
  const used = new Set<number>();
  for (const [d, small] of [...map].sort((a, b) => a[0] - b[0])) {
    let s = small;
    while (d > 1 && used.has(s)) s++;
    used.add(s);
    map.set(d, s);
  }
  return map;
}

/** The cells of all the shapes' matrices at their true sizes. */
export function trueSizeCells(shapes: readonly VariableShape[]): number {
  return shapes.reduce((sum, s) => sum + (s.kind === "matrix" ? (s.rows ?? 1) * (s.cols ?? 1) : 0), 0);
}

/** Random inputs of the shapes, their dimensions shrunk to at most `maxCells` cells per matrix, or (`trueSize`) as they are. */
export function randomInputs(shapes: readonly VariableShape[], inputCase: InputCase, seed: number, maxCells = 40_000, trueSize = false): Map<string, Value> {
  const random = seededRandom(seed);
  const dims = trueSize ? new Map(dimensionsOf(shapes).map((d) => [d, d])) : shrinkDimensions(shapes, maxCells);
  const inputs = new Map<string, Value>();
  const value = (positive: boolean | undefined) => {
    const magnitude = 0.1 + 0.9 * random();
    return positive || random() < 0.5 ? magnitude : -magnitude;
  };
  for (const shape of shapes) {
    if (shape.kind === "scalar" && shape.value !== undefined && !shape.dimension) {
      // A known dimension-like value follows the shrinking of the matrices it describes.
      inputs.set(shape.name, double(Number.isInteger(shape.value) ? (dims.get(shape.value) ?? shape.value) : shape.value));
      continue;
    }
    if (shape.kind === "scalar" && shape.dimension && shape.value !== undefined) {
      inputs.set(shape.name, double(dims.get(shape.value)!));
      continue;
    }
    if (shape.kind === "scalar" && shape.dimension) {
      inputs.set(shape.name, double(2 + Math.floor(4 * random())));
      continue;
    }
    if (shape.kind === "scalar") {
      inputs.set(shape.name, double(shape.positive ? 0.5 + 1.5 * random() : (random() < 0.5 ? -1 : 1) * (0.5 + 1.5 * random())));
      continue;
    }
    const rows = dims.get(shape.rows ?? 1)!;
    const cols = dims.get(shape.cols ?? 1)!;
    const m = new DenseMatrix(rows, cols);
    const density = inputCase === "dense" ? 1 : inputCase === "all-zero" ? 0 : Math.min(shape.sparsity ?? 0.1, 0.1) || 0.1;
    const emptyRows = new Set<number>();
    const emptyCols = new Set<number>();
    if (inputCase === "empty-rows-cols") {
      for (let i = 0; i < rows; i++) if (rows > 1 && random() < 0.3) emptyRows.add(i);
      for (let j = 0; j < cols; j++) if (cols > 1 && random() < 0.3) emptyCols.add(j);
    }
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        if (emptyRows.has(i) || emptyCols.has(j)) continue;
        if (density >= 1 || random() < Math.max(density, inputCase === "empty-rows-cols" ? 0.5 : 0)) m.data[i * cols + j] = value(shape.positive);
      }
    }
    const stored: DenseMatrix | CsrMatrix = inputCase === "dense" ? m : denseToCsr(m);
    inputs.set(shape.name, matrixValue(stored));
  }
  return inputs;
}
