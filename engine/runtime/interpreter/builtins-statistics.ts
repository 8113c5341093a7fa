/**
 * The descriptive statistics builtins of a column vector, as SystemDS
 * computes them:
 *
 * - `moment(X, k)`, `moment(X, W, k)` (alias `centralMoment`): the k-th
 *   central moment sum(W * (X - mean)^k) / sum(W), k = 2, 3 or 4, and k = 0
 *   for the (weighted) mean (CMOperator.getCMAggOpType, CM_COV_Object).
 * - `cov(X, Y)`, `cov(X, Y, W)`: sum(W * (X - mx) * (Y - my)) / (sum(W) - 1),
 *   0 for a single row.
 * - `quantile(X, p)`, `quantile(X, P)`, `quantile(X, W, p)`, `quantile(X, W, P)`,
 *   `median(X)`, `median(X, W)`, `interQuartileMean(X)`, `interQuartileMean(X, W)`:
 *   on the sorted (value, weight) table of MatrixBlock.sortOperations (all
 *   zeros in one row), the value where the cumulative weight first reaches
 *   ceil(p * total) (MatrixBlock.pickValue, without averaging: SystemDS 3.x
 *   releases); the median averages with the next value when the total
 *   weight is even and reached exactly; the inter-quartile mean is the mean
 *   of the values between the 25% and 75% marks with the boundary values
 *   counted in part (MatrixBlock.interQuartileMean). Weights must be
 *   integers.
 *
 * Arguments are positional, as SystemDS takes them. X, Y and W must be
 * column vectors of one length, non-empty; the order statistics refuse NaN
 * values and probabilities outside [0, 1] (SystemDS fails or returns an
 * arbitrary value there).
 */
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail, internalError } from "./errors";
import { num } from "./operations";
import { describeValue, double, type Value } from "./values";

/** SystemDS's UtilFunctions.DOUBLE_EPS, used when a double is cast to a count. */
const DOUBLE_EPS = 2 ** -53;

/** A column vector argument's values. */
function column(v: Value | undefined, fn: string, name: string): Float64Array {
  if (!v) return fail(`${fn}: missing argument ${name}`);
  if (v.kind !== "matrix") return fail(`${fn}: ${name} must be a matrix (a column vector), found a ${describeValue(v)}`);
  const x = toDense(v.matrix);
  if (x.cols !== 1) fail(`${fn}: ${name} must be a column vector, found ${x.rows} x ${x.cols}`);
  if (x.rows === 0) fail(`${fn}: ${name} is empty`);
  return x.data;
}

/** Row `i` of a column's values; the callers' loops stay within the column (and sameLength made W as long as X). */
function row(values: Float64Array, i: number): number {
  const value = values[i];
  return value ?? internalError(`row ${i + 1} of a column of ${values.length} rows`);
}

/** The weight of row `i`: W's value there, or 1 without W. */
function weight(w: Float64Array | undefined, i: number): number {
  return w ? row(w, i) : 1;
}

function sameLength(fn: string, name: string, a: Float64Array, b: Float64Array): void {
  if (a.length !== b.length) fail(`${fn}: ${name} has ${b.length} rows, X has ${a.length}`);
}

/** SystemDS's UtilFunctions.toInt: towards zero, after adding a rounding epsilon to the magnitude. */
export function toCount(x: number): number {
  return Math.sign(x) * Math.floor(Math.abs(x) + DOUBLE_EPS);
}

function weightedMean(x: Float64Array, w: Float64Array | undefined): { mean: number; total: number } {
  let total = 0;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = weight(w, i);
    total += wi;
    sum += wi * row(x, i);
  }
  return { mean: sum / total, total };
}

function moment(a: CallArgs): Value {
  const x = column(a.values[0], "moment", "X");
  const weighted = a.values.length === 3;
  if (a.values.length !== 2 && !weighted) fail(`moment takes 2 or 3 arguments (X, [W,] order), found ${a.values.length}`);
  const w = weighted ? column(a.values[1], "moment", "W") : undefined;
  if (w) sameLength("moment", "W", x, w);
  const order = toCount(num(a.values[weighted ? 2 : 1]!, "moment order"));
  if (order !== 0 && order !== 2 && order !== 3 && order !== 4) fail(`moment: the order must be 2, 3 or 4 (or 0 for the mean), found ${order}`);
  const { mean, total } = weightedMean(x, w);
  if (order === 0) return double(mean);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += weight(w, i) * (row(x, i) - mean) ** order;
  return double(sum / total);
}

function cov(a: CallArgs): Value {
  if (a.values.length !== 2 && a.values.length !== 3) fail(`cov takes 2 or 3 arguments (X, Y[, W]), found ${a.values.length}`);
  const x = column(a.values[0], "cov", "X");
  const y = column(a.values[1], "cov", "Y");
  sameLength("cov", "Y", x, y);
  const w = a.values.length === 3 ? column(a.values[2], "cov", "W") : undefined;
  if (w) sameLength("cov", "W", x, w);
  const mx = weightedMean(x, w);
  const my = weightedMean(y, w).mean;
  let c2 = 0;
  for (let i = 0; i < x.length; i++) c2 += weight(w, i) * (row(x, i) - mx.mean) * (row(y, i) - my);
  return double(mx.total === 1 ? 0 : c2 / (mx.total - 1));
}

/** MatrixBlock.sortOperations: the non-zero values with their weights and one row for all zeros, by value ascending. */
interface SortedTable {
  values: Float64Array;
  weights: Float64Array;
  /** Sum of the weights (sumWeightForQuantile). */
  total: number;
}

function sortedTable(fn: string, x: Float64Array, w: Float64Array | undefined): SortedTable {
  const zeros: [number, number] = [0, 0];
  const rows: [number, number][] = [zeros];
  for (let i = 0; i < x.length; i++) {
    const v = row(x, i);
    if (Number.isNaN(v)) fail(`${fn}: X contains NaN at row ${i + 1}`);
    const wi = weight(w, i);
    if (Math.floor(wi) < wi || !Number.isFinite(wi)) fail(`${fn}: the weights must be integers, found ${wi} at row ${i + 1}`);
    if (v === 0) zeros[1] += wi;
    else rows.push([v, wi]);
  }
  rows.sort((p, q) => p[0] - q[0]);
  const total = rows.reduce((s, r) => s + r[1], 0);
  if (!(total > 0)) fail(`${fn}: the weights sum to ${total}, not a positive count`);
  return { values: Float64Array.from(rows, (r) => r[0]), weights: Float64Array.from(rows, (r) => r[1]), total };
}

/** MatrixBlock.pickWeightedValue: the value at probability `p` of the sorted table. */
function pick(fn: string, table: SortedTable, p: number, average: boolean): number {
  if (!(p >= 0 && p <= 1)) fail(`${fn}: the probability must be between 0 and 1, found ${p}`);
  const { values, weights, total } = table;
  const n = values.length;
  const at = (i: number, of: Float64Array) => (i >= 0 && i < n ? of[i]! : fail(`${fn}: no value at position ${i + 1} of the ${n} sorted values`));
  const averaged = average && total % 2 === 0;
  const pos = Math.ceil(p * total);
  let t = 0;
  let i = -1;
  do {
    i++;
    t += at(i, weights);
  } while (t < pos && i < n);
  if (weights[i] !== 0) {
    if (!averaged || pos < t) return values[i]!;
    return at(i + 1, weights) !== 0 ? (values[i]! + values[i + 1]!) / 2 : (values[i]! + at(i + 2, values)) / 2;
  }
  // The zero row with no weight (no zeros in X): the next value, or the previous one when it is last.
  return i + 1 < n ? values[i + 1]! : at(i - 1, values);
}

/** Splits (X, p), (X, W, p) and their matrix-P forms. */
function quantile(a: CallArgs): Value {
  if (a.values.length !== 2 && a.values.length !== 3) fail(`quantile takes 2 or 3 arguments (X, [W,] P), found ${a.values.length}`);
  const x = column(a.values[0], "quantile", "X");
  const w = a.values.length === 3 ? column(a.values[1], "quantile", "W") : undefined;
  if (w) sameLength("quantile", "W", x, w);
  const table = sortedTable("quantile", x, w);
  const probabilities = a.values[a.values.length - 1]!;
  if (probabilities.kind !== "matrix") return double(pick("quantile", table, num(probabilities, "quantile probability"), false));
  const ps = toDense(probabilities.matrix);
  if (ps.cols !== 1) fail(`quantile: the probabilities must be a column vector, found ${ps.rows} x ${ps.cols}`);
  return { kind: "matrix", matrix: new DenseMatrix(ps.rows, 1, Float64Array.from(ps.data, (p) => pick("quantile", table, p, false))) };
}

function weightedArguments(a: CallArgs, fn: string): { x: Float64Array; w: Float64Array | undefined } {
  if (a.values.length !== 1 && a.values.length !== 2) fail(`${fn} takes 1 or 2 arguments (X[, W]), found ${a.values.length}`);
  const x = column(a.values[0], fn, "X");
  const w = a.values.length === 2 ? column(a.values[1], fn, "W") : undefined;
  if (w) sameLength(fn, "W", x, w);
  return { x, w };
}

function median(a: CallArgs): Value {
  const { x, w } = weightedArguments(a, "median");
  return double(pick("median", sortedTable("median", x, w), 0.5, true));
}

/** MatrixBlock.interQuartileMean, with its corrections for the parts of the boundary values inside the quartiles. */
function interQuartileMean(a: CallArgs): Value {
  const fn = "interQuartileMean";
  const { x, w } = weightedArguments(a, fn);
  const { values, weights, total } = sortedTable(fn, x, w);
  const n = values.length;
  const q25 = 0.25 * total;
  const q75 = 0.75 * total;
  const q25i = Math.ceil(q25);
  const q75i = Math.ceil(q75);
  let psum = 0;
  let i = -1;
  while (psum < q25i && i < n - 1) psum += weights[++i]!;
  const q25Part = psum - q25;
  const q25Value = values[i]!;
  let sum = 0;
  while (psum < q75i && i < n - 1) {
    i++;
    psum += weights[i]!;
    sum += values[i]! * weights[i]!;
  }
  const q75Part = psum - q75;
  const q75Value = values[i]!;
  return double((sum + q25Part * q25Value - q75Part * q75Value) / (total * 0.5));
}

export const STATISTICS_BUILTINS: Record<string, (a: CallArgs) => Value> = {
  moment,
  centralMoment: moment,
  cov,
  quantile,
  median,
  interQuartileMean,
};
