/**
 * The uniform (metadata, average-case) estimator: Galley's section 7.3.1 and
 * SystemDS's `OptimizerUtils` formulas. The only statistic is the number of
 * non-zeros, assumed spread uniformly over the matrix, so each cell is
 * non-zero with probability s = nnz / (rows · cols), independently.
 *
 * - annihilating map: out cells · Π s_k
 * - non-annihilating map: out cells · (1 − Π (1 − s_k))
 * - aggregate over a span of n cells: out cells · (1 − (1 − s)^n)
 * - matmul A (m x n) %*% B (n x l): the map over (i, j, k) has density sA·sB,
 *   the aggregate over j then gives m·l·(1 − (1 − sA·sB)^n), SystemDS's
 *   average-case product sparsity.
 */
import { aggregateShape, type AggregateAxis, broadcastOf, type MatrixShape, productShape } from "../matrix-shape";
import { structureNnz, type SparsityStructure } from "../structure";
import { checkMetadata, type SparsityEstimator } from "./estimator";

export interface UniformStats {
  readonly rows: number;
  readonly cols: number;
  /** Non-zeros; fractional once estimated. */
  readonly nnz: number;
}

/** Non-zero probability of one cell. */
export function uniformDensity(s: UniformStats): number {
  const cells = s.rows * s.cols;
  return cells === 0 ? 0 : Math.min(1, s.nnz / cells);
}

/** Density of an annihilating map: every input non-zero (Galley's Map, annihilating). */
function densityOfAll(densities: readonly number[]): number {
  return densities.reduce((p, s) => p * s, 1);
}

/** Density of a non-annihilating map: some input non-zero. */
function densityOfAny(densities: readonly number[]): number {
  return 1 - densities.reduce((p, s) => p * (1 - s), 1);
}

/** Density after aggregating `span` cells of density `s` into one: 1 − (1 − s)^span, computed stably. */
function densityAfterAggregate(s: number, span: number): number {
  if (span === 0 || s <= 0) return 0;
  if (s >= 1) return 1;
  return -Math.expm1(span * Math.log1p(-s));
}

function withDensity(shape: MatrixShape, density: number): UniformStats {
  return { rows: shape.rows, cols: shape.cols, nnz: shape.rows * shape.cols * density };
}

function elementwise(inputs: readonly UniformStats[], out: MatrixShape, combine: (d: readonly number[]) => number): UniformStats {
  if (inputs.length === 0) throw new RangeError("element-wise map of no inputs");
  for (const input of inputs) broadcastOf(input, out);
  return withDensity(out, combine(inputs.map(uniformDensity)));
}

export const uniformEstimator: SparsityEstimator<UniformStats> = {
  name: "uniform",
  fromData(structure: SparsityStructure): UniformStats {
    return { rows: structure.rows, cols: structure.cols, nnz: structureNnz(structure) };
  },
  fromMetadata(rows: number, cols: number, nnz: number): UniformStats {
    checkMetadata(rows, cols, nnz);
    return { rows, cols, nnz };
  },
  annihilatingMap: (inputs, out) => elementwise(inputs, out, densityOfAll),
  nonAnnihilatingMap: (inputs, out) => elementwise(inputs, out, densityOfAny),
  aggregate(s: UniformStats, over: AggregateAxis): UniformStats {
    const span = over === "cols" ? s.cols : over === "rows" ? s.rows : s.rows * s.cols;
    return withDensity(aggregateShape(s, over), densityAfterAggregate(uniformDensity(s), span));
  },
  matmul(a: UniformStats, b: UniformStats): UniformStats {
    const out = productShape(a, b);
    // Map over (i, j, k): each of the m·n·l cells is non-zero with probability sA·sB.
    const joined = densityOfAll([uniformDensity(a), uniformDensity(b)]);
    // Aggregate over j: n cells per output cell.
    return withDensity(out, densityAfterAggregate(joined, a.cols));
  },
  transpose: (s) => ({ rows: s.cols, cols: s.rows, nnz: s.nnz }),
  estimate: (s) => s.nnz,
  shape: (s) => ({ rows: s.rows, cols: s.cols }),
};
