/**
 * `aggregate(target=X, groups=g, fn="sum", weights=w, ngroups=k, order=m)`
 * (alias `groupedAggregate`), as SystemDS's LibMatrixAgg.groupedAggregate:
 * the rows of X (a column vector, or a matrix with one group id per row; a
 * row vector with one id per column) are grouped by g's values (truncated
 * to integers, 1-based), and each group reduced by `fn`:
 *
 * - `sum`: the (weighted) sum; `count`: the number of rows (the sum of weights);
 * - `mean`, `variance` (divisor W - 1, 0 for one row), `centralmoment` of
 *   `order` 2, 3 or 4 (divisor W), weights as frequencies;
 * - `min`, `max`: the smallest / largest value.
 *
 * The result has one row per group: `ngroups` rows (ids above it are
 * skipped), else max(g) rows; one column per column of X. A group without
 * rows gets 0 (SystemDS's initial values; NaN for `centralmoment`).
 * As SystemDS's validator: a matrix target needs `ngroups` and takes no weights.
 */
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { namedArg, rejectUnknownNames, requiredArg } from "./named-args";
import { num, text } from "./operations";
import { describeValue, type Value } from "./values";

const PARAMETERS = ["target", "groups", "fn", "weights", "ngroups", "order"];
const FUNCTIONS = ["sum", "count", "mean", "variance", "centralmoment", "min", "max"];

export function groupedAggregate(a: CallArgs): Value {
  rejectUnknownNames(a, PARAMETERS, "aggregate");
  const x = matrixArg(a, "target", 0);
  const groups = matrixArg(a, "groups", 1);
  const fn = text(requiredArg(a, "fn", 2, "aggregate"));
  if (!FUNCTIONS.includes(fn)) fail(`aggregate: fn must be one of ${FUNCTIONS.map((f) => `"${f}"`).join(", ")}, found "${fn}"`);
  const order = centralMomentOrder(a, fn);
  const weightsValue = namedArg(a, "weights", 3);
  const weights = weightsValue === undefined ? undefined : matrixArg(a, "weights", 3);
  const ngroupsValue = namedArg(a, "ngroups", 4);

  // The rows to group (one per group id) and the columns reduced for each.
  const rowVector = x.rows === 1 && x.cols > 1;
  const n = rowVector ? x.cols : x.rows;
  const width = rowVector ? 1 : x.cols;
  const cell = rowVector ? (i: number) => x.data[i]! : (i: number, j: number) => x.data[i * x.cols + j]!;
  if (Math.min(groups.rows, groups.cols) !== 1 && groups.data.length !== 0) fail(`aggregate: groups must be a vector, found ${groups.rows} x ${groups.cols}`);
  if (groups.data.length !== n) fail(`aggregate: target (${x.rows} x ${x.cols}) and groups (${groups.rows} x ${groups.cols}) must have one group id per ${rowVector ? "column" : "row"}`);
  if (width > 1 && weights) fail("aggregate: weights are not supported with a matrix target (one column at a time)");
  if (width > 1 && ngroupsValue === undefined) fail("aggregate: a matrix target needs ngroups");
  if (weights && weights.data.length !== n) fail(`aggregate: weights (${weights.rows} x ${weights.cols}) must have one weight per group id (${n})`);

  const ids = groupIds(groups.data);
  let numGroups: number;
  if (ngroupsValue !== undefined) {
    numGroups = num(ngroupsValue, "aggregate ngroups");
    if (!Number.isInteger(numGroups) || numGroups < 0) fail(`aggregate: ngroups must be a non-negative integer, found ${numGroups}`);
  } else {
    numGroups = n === 0 ? 0 : Math.max(...ids);
  }

  const out = new Float64Array(numGroups * width);
  const members: number[][] = Array.from({ length: numGroups }, () => []);
  ids.forEach((g, i) => {
    if (g <= numGroups) members[g - 1]!.push(i);
  });
  const weight = weights ? (i: number) => weights.data[i]! : () => 1;
  for (let g = 0; g < numGroups; g++) {
    for (let j = 0; j < width; j++) out[g * width + j] = reduce(fn, order, members[g]!, (i) => cell(i, j), weight);
  }
  return { kind: "matrix", matrix: new DenseMatrix(numGroups, width, out) };
}

function matrixArg(a: CallArgs, name: string, position: number) {
  const v = requiredArg(a, name, position, "aggregate");
  if (v.kind !== "matrix") fail(`aggregate: ${name} must be a matrix, found a ${describeValue(v)}`);
  return toDense(v.matrix);
}

function centralMomentOrder(a: CallArgs, fn: string): number {
  const orderValue = namedArg(a, "order", 5);
  if (fn !== "centralmoment") return 0;
  const order = orderValue === undefined ? NaN : num(orderValue, "aggregate order");
  if (order !== 2 && order !== 3 && order !== 4) fail(`aggregate: fn="centralmoment" needs order=2, 3 or 4${orderValue === undefined ? "" : `, found ${order}`}`);
  return order;
}

/** Group ids: each value truncated to an integer, which must be 1 or more. */
function groupIds(values: Float64Array): number[] {
  return Array.from(values, (v, i) => {
    const g = Math.trunc(v);
    if (!(g >= 1)) fail(`aggregate: group ids must be 1 or more, but cell ${i + 1} of groups is ${v}`);
    return g;
  });
}

/** One group's reduction; `rows` are its members, `value(i)` and `weight(i)` a member's value and weight. */
function reduce(fn: string, order: number, rows: readonly number[], value: (i: number) => number, weight: (i: number) => number): number {
  if (fn === "sum") return kahanSum(rows, (i) => value(i) * weight(i));
  const total = kahanSum(rows, weight);
  if (fn === "count") return total;
  if (rows.length === 0) return fn === "centralmoment" ? NaN : 0;
  if (fn === "min" || fn === "max") return rows.reduce((m, i) => (fn === "min" ? Math.min(m, value(i)) : Math.max(m, value(i))), fn === "min" ? Infinity : -Infinity);
  const mean = kahanSum(rows, (i) => value(i) * weight(i)) / total;
  if (fn === "mean") return mean;
  const power = fn === "variance" ? 2 : order;
  const moment = kahanSum(rows, (i) => weight(i) * (value(i) - mean) ** power);
  if (fn === "variance") return total === 1 ? 0 : moment / (total - 1);
  return moment / total;
}

function kahanSum(rows: readonly number[], term: (i: number) => number): number {
  let sum = 0;
  let correction = 0;
  for (const i of rows) {
    const y = term(i) - correction;
    const t = sum + y;
    correction = t - sum - y;
    sum = t;
  }
  return sum;
}
