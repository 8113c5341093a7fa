/**
 * Whether two values agree within a tolerance (relative plus absolute):
 * scalars by value, matrices by shape and cell whatever their formats. A
 * 1 x 1 matrix and a scalar differ (a fused result must have the kind of
 * the node it stands for).
 */
import { type Value, num } from "../interpreter";
import { matrixDifference, valuesClose, type Tolerance } from "../matrix";

/** The first difference between `fused` and `unfused`, or undefined when they agree. */
export function valueDifference(fused: Value, unfused: Value, tol: Tolerance): string | undefined {
  if (fused.kind === "scalar" && unfused.kind === "scalar") {
    const x = num(fused);
    const y = num(unfused);
    return valuesClose(x, y, tol) ? undefined : `scalar ${x} vs ${y}`;
  }
  if (fused.kind === "matrix" && unfused.kind === "matrix") return matrixDifference(fused.matrix, unfused.matrix, tol);
  return `a ${describe(fused)} vs a ${describe(unfused)}`;
}

function describe(v: Value): string {
  return v.kind === "matrix" ? `${v.matrix.rows} x ${v.matrix.cols} matrix` : v.kind;
}
