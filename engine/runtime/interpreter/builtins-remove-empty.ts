/**
 * `removeEmpty(target=X, margin="rows"|"cols", select=s, empty.return=TRUE)`,
 * as SystemDS's LibMatrixReorg.rmempty: keeps the rows (columns) of X with a
 * non-zero cell (NaN counts as non-zero), or, with `select`, those whose
 * cell of the select vector (one per row, or per column) is non-zero, in
 * order. When nothing is kept, SystemDS's default `empty.return=TRUE` gives
 * one row (column) of zeros; `empty.return=FALSE` gives 0 rows (columns).
 */
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { namedArg, rejectUnknownNames, requiredArg } from "./named-args";
import { mat, text, truthy } from "./operations";
import { describeValue, type Value } from "./values";

const PARAMETERS = ["target", "margin", "select", "empty.return"];

export function removeEmpty(a: CallArgs): Value {
  rejectUnknownNames(a, PARAMETERS, "removeEmpty");
  const target = requiredArg(a, "target", 0, "removeEmpty");
  if (target.kind !== "matrix") fail(`removeEmpty: target must be a matrix, found a ${describeValue(target)}`);
  const x = toDense(target.matrix);
  const margin = text(requiredArg(a, "margin", 1, "removeEmpty"));
  if (margin !== "rows" && margin !== "cols") fail(`removeEmpty: margin must be "rows" or "cols", found "${margin}"`);
  const byRows = margin === "rows";
  const n = byRows ? x.rows : x.cols;
  const selectValue = namedArg(a, "select", 2);
  const select = selectValue === undefined ? undefined : toDense(mat(selectValue, "removeEmpty select"));
  if (select && (Math.min(select.rows, select.cols) !== 1 || select.data.length !== n) && !(n === 0 && select.data.length === 0)) {
    fail(`removeEmpty: select must be a vector of one cell per ${byRows ? "row" : "column"} (${n}), found ${select.rows} x ${select.cols}`);
  }
  const emptyValue = namedArg(a, "empty.return", 3);
  const emptyReturn = emptyValue === undefined ? true : truthy(emptyValue, "removeEmpty empty.return");
  const keep: number[] = [];
  for (let i = 0; i < n; i++) if (select ? select.data[i] !== 0 : lineHasNonZero(x, i, byRows)) keep.push(i);
  const kept = keep.length === 0 && emptyReturn ? 1 : keep.length;
  const rows = byRows ? kept : x.rows;
  const cols = byRows ? x.cols : kept;
  const out = new Float64Array(rows * cols);
  if (byRows) keep.forEach((i, r) => out.set(x.data.subarray(i * x.cols, (i + 1) * x.cols), r * x.cols));
  else for (let i = 0; i < x.rows; i++) keep.forEach((j, c) => (out[i * cols + c] = x.data[i * x.cols + j]!));
  return { kind: "matrix", matrix: new DenseMatrix(rows, cols, out) };
}

function lineHasNonZero(x: DenseMatrix, i: number, byRows: boolean): boolean {
  const length = byRows ? x.cols : x.rows;
  for (let j = 0; j < length; j++) if ((byRows ? x.data[i * x.cols + j] : x.data[j * x.cols + i]) !== 0) return true;
  return false;
}
