/**
 * The cumulative aggregates beyond cumsum/cumprod/cummin/cummax, as SystemDS's
 * LibMatrixAgg computes them:
 * - `cumsumprod(X)` of a two-column X = [a, b]: one column
 *   y[i] = a[i] + b[i] * y[i-1], y[0] = a[0] (a fill-forward or exponential
 *   smoothing in one pass);
 * - `rowcumsum(X)`: the cumulative sum along each row.
 */
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { requiredArg } from "./named-args";
import { mat } from "./operations";
import type { Value } from "./values";

function cumsumprod(a: CallArgs): Value {
  const x = toDense(mat(requiredArg(a, "X", 0, "cumsumprod"), "cumsumprod"));
  if (x.cols !== 2) fail(`cumsumprod: needs a matrix of two columns [a, b], found ${x.rows} x ${x.cols}`);
  const out = new Float64Array(x.rows);
  let previous = 0;
  for (let i = 0; i < x.rows; i++) {
    previous = x.data[2 * i]! + x.data[2 * i + 1]! * previous;
    out[i] = previous;
  }
  return { kind: "matrix", matrix: new DenseMatrix(x.rows, 1, out) };
}

function rowcumsum(a: CallArgs): Value {
  const x = toDense(mat(requiredArg(a, "X", 0, "rowcumsum"), "rowcumsum"));
  const out = Float64Array.from(x.data);
  for (let i = 0; i < x.rows; i++) for (let j = 1; j < x.cols; j++) out[i * x.cols + j]! += out[i * x.cols + j - 1]!;
  return { kind: "matrix", matrix: new DenseMatrix(x.rows, x.cols, out) };
}

export const MORE_CUMULATIVE_BUILTINS = { cumsumprod, rowcumsum };
