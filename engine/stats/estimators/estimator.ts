/**
 * The sparsity-estimator interface: Galley's minimal one (section 7.2) for
 * matrices. A statistics object `S` describes the non-zero pattern of one
 * matrix; an expression is annotated bottom-up by
 *
 *  1. `fromData` / `fromMetadata`: statistics of an input (from its structure
 *     when the data is local, else from its rows, cols and nnz);
 *  2. `annihilatingMap`: an element-wise operation whose inputs' fill value 0
 *     annihilates it (`*`, `&`, `min` of non-negatives...): non-zero only
 *     where every input is (a conjunctive join of the inputs' patterns);
 *  3. `nonAnnihilatingMap`: one that is non-zero where any input is (`+`,
 *     `-`, `|`...; f(0, ..., 0) must be 0);
 *  4. `aggregate`: a sum-like reduction over rows, columns or both
 *     (projection of the pattern);
 *  5. `estimate`: the number of non-zeros the statistics stand for.
 *
 * Element-wise inputs broadcast as in DML (see matrix-shape.ts). Matrix
 * multiply is, in Galley's terms, `C[i,k] = Σ_j A[i,j] B[j,k]`: an
 * annihilating map over (i, j, k) followed by an aggregate over j. The
 * 3-index intermediate does not fit a matrix statistic, so each estimator
 * implements `matmul` as that map-then-aggregate pair internally (the uniform
 * and chain-bound files spell the two steps out; MNC has its own product
 * formula). `transpose` swaps the roles of rows and columns.
 *
 * All counts use boolean semantics: sums of non-zero products never cancel.
 */
import type { AggregateAxis, MatrixShape } from "../matrix-shape";
import type { SparsityStructure } from "../structure";

export interface SparsityEstimator<S> {
  /** Short name used in tables: "uniform", "mnc", "chain". */
  readonly name: string;
  fromData(structure: SparsityStructure): S;
  fromMetadata(rows: number, cols: number, nnz: number): S;
  annihilatingMap(inputs: readonly S[], outputShape: MatrixShape): S;
  nonAnnihilatingMap(inputs: readonly S[], outputShape: MatrixShape): S;
  aggregate(s: S, over: AggregateAxis): S;
  /** `a %*% b`: annihilating map over (i, j, k), then aggregate over j. */
  matmul(a: S, b: S): S;
  transpose(s: S): S;
  /** Estimated (or, for the chain bound, upper-bounded) number of non-zeros. */
  estimate(s: S): number;
  shape(s: S): MatrixShape;
}

/** `factors[0] %*% factors[1] %*% ...`, multiplied left to right. */
export function product<S>(estimator: SparsityEstimator<S>, ...factors: readonly S[]): S {
  if (factors.length === 0) throw new RangeError("product of no factors");
  return factors.slice(1).reduce((acc, f) => estimator.matmul(acc, f), factors[0]!);
}

/** A sparsity estimator whose statistics type is hidden, for lists of estimators. */
export interface AnyEstimator {
  readonly name: string;
  /** Runs `body` with the estimator and its statistics type bound together. */
  use<R>(body: <S>(estimator: SparsityEstimator<S>) => R): R;
}

export function erase<S>(estimator: SparsityEstimator<S>): AnyEstimator {
  return { name: estimator.name, use: (body) => body(estimator) };
}

/** Non-negative count checks shared by the `fromMetadata` constructors. */
export function checkMetadata(rows: number, cols: number, nnz: number): void {
  const ok = (n: number) => Number.isFinite(n) && n >= 0;
  if (!ok(rows) || !ok(cols) || !ok(nnz) || nnz > rows * cols) {
    throw new RangeError(`bad matrix metadata: ${rows} x ${cols} with ${nnz} non-zeros`);
  }
}
