/**
 * `contains(target=X, pattern=v)`, as SystemDS's MatrixBlock.containsValue
 * and containsVector: TRUE when some cell of X equals the scalar v, or
 * when some row of X equals the row vector v (of X's width). NaN matches NaN.
 */
import { toDense } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { mat, num } from "./operations";
import { bool, describeValue, type Value } from "./values";

function named(a: CallArgs, name: string, position: number): Value | undefined {
  const i = a.names.indexOf(name);
  if (i >= 0) return a.values[i];
  return a.names.every((n) => n === undefined) ? a.values[position] : undefined;
}

const same = (x: number, y: number) => x === y || (Number.isNaN(x) && Number.isNaN(y));

export function contains(a: CallArgs): Value {
  const targetValue = named(a, "target", 0) ?? fail("contains: missing argument 'target'");
  const pattern = named(a, "pattern", 1) ?? fail("contains: missing argument 'pattern'");
  if (targetValue.kind !== "matrix") fail(`contains: target must be a matrix, found a ${describeValue(targetValue)}`);
  const x = toDense(targetValue.matrix);
  if (pattern.kind === "scalar") {
    const v = num(pattern, "contains pattern");
    for (let k = 0; k < x.data.length; k++) if (same(x.data[k]!, v)) return bool(true);
    return bool(false);
  }
  if (pattern.kind !== "matrix") fail(`contains: pattern must be a scalar or a matrix, found a ${describeValue(pattern)}`);
  const row = toDense(mat(pattern));
  if (row.rows !== 1 || row.cols !== x.cols) fail(`contains: a matrix pattern must be one row of the target's ${x.cols} columns, found ${row.rows} x ${row.cols}`);
  for (let i = 0; i < x.rows; i++) {
    let equal = true;
    for (let j = 0; j < x.cols && equal; j++) equal = same(x.data[i * x.cols + j]!, row.data[j]!);
    if (equal) return bool(true);
  }
  return bool(false);
}
