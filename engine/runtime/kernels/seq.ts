/**
 * seq(from, to, by) as SystemDS: a column vector from `from` stepping by
 * `by` (default 1, or -1 when from > to) while not passing `to`; its length
 * is 1 + floor(to/by - from/by) and each value is the previous plus `by`.
 * A zero increment, or one leading away from `to`, is a RuntimeError.
 */
import { DenseMatrix, RuntimeError } from "../matrix";

export function seq(from: number, to: number, by?: number): DenseMatrix {
  const incr = by ?? (from <= to ? 1 : -1);
  const call = `seq(${from}, ${to}${by === undefined ? "" : `, ${by}`})`;
  if (Number.isNaN(from) || Number.isNaN(to) || Number.isNaN(incr) || !Number.isFinite(from) || !Number.isFinite(to)) {
    throw new RuntimeError("invalid-argument", `${call}: the bounds and the increment must be finite numbers`);
  }
  if (incr === 0 || (from < to && incr < 0) || (from > to && incr > 0)) {
    throw new RuntimeError("invalid-argument", `${call}: wrong sign of the increment (it must lead from ${from} to ${to})`);
  }
  const length = 1 + Math.floor(to / incr - from / incr);
  const out = new DenseMatrix(length, 1);
  let v = from;
  for (let i = 0; i < length; i++) {
    out.data[i] = v;
    v += incr;
  }
  return out;
}
