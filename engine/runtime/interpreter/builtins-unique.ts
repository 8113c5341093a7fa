/**
 * `unique(X)`: the distinct rows of X, as SystemDS's scripts/builtin/unique.dml
 * computes them (the releases that ship it run it; later ones have it built
 * in): the rows sorted by their first column (ties keep their order), then
 * every row that differs from the one before it in some column. For a column
 * vector, its distinct values in ascending order. NaN differs from
 * everything, itself included (as `!=` in the script).
 */
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { namedArg } from "./named-args";
import { describeValue, type Value } from "./values";

export function unique(a: CallArgs): Value {
  const v = namedArg(a, "data", 0) ?? namedArg(a, "X", 0) ?? fail("unique: missing argument 'X'");
  if (v.kind !== "matrix") fail(`unique: expects a matrix, found a ${describeValue(v)}`);
  const x = toDense(v.matrix);
  if (x.rows <= 1 || x.cols === 0) return v;
  const cols = x.cols;
  const order = Array.from({ length: x.rows }, (_, i) => i).sort((i, j) => compareFirst(x.data[i * cols]!, x.data[j * cols]!) || i - j);
  const kept = [order[0]!];
  for (let k = 1; k < order.length; k++) {
    const previous = order[k - 1]!;
    const row = order[k]!;
    let differs = false;
    for (let j = 0; j < cols && !differs; j++) differs = x.data[row * cols + j] !== x.data[previous * cols + j];
    if (differs) kept.push(row);
  }
  const out = new Float64Array(kept.length * cols);
  kept.forEach((row, r) => out.set(x.data.subarray(row * cols, (row + 1) * cols), r * cols));
  return { kind: "matrix", matrix: new DenseMatrix(kept.length, cols, out) };
}

/** Ascending, NaN last (SystemDS's sort puts NaN at the end). */
function compareFirst(p: number, q: number): number {
  if (Number.isNaN(p)) return Number.isNaN(q) ? 0 : 1;
  if (Number.isNaN(q)) return -1;
  return p - q;
}
