/**
 * The element-wise binary operators of DML, as JavaScript expressions over
 * `a` (left) and `b` (right) for the generated kernels, with DML semantics:
 * comparisons and logical operators give 1 / 0 (NaN compares false, and
 * counts as true in `&` and `|`, as in Java), `/` is IEEE (0/0 = NaN),
 * `%%` takes the divisor's sign, `%/%` floors, `log(a, b)` is
 * ln a / ln b, min / max propagate NaN, the bitw* operators work on the
 * truncated 64-bit integers as Java's longs. Comparisons and logical
 * operators convert a boolean to a number (`+(a < b)`, `&` of two
 * booleans) instead of choosing 1 or 0 (`a < b ? 1 : 0`): V8 compiles the
 * choice into a branch, mispredicted about every other cell of data such
 * as l2svm's `out > 0` (its inner-loop kernel, 1e6 rows, one thread: 7 ->
 * 4 ms).
 */
import type { ElementwiseBinaryOp } from "../../program";
import { binarySparsityClass, type BinarySparsityClass } from "../../cost";
import { compileKernel } from "./codegen";

export const BINARY_EXPRESSIONS: Readonly<Record<ElementwiseBinaryOp, string>> = {
  "+": "a + b",
  "-": "a - b",
  "*": "a * b",
  "/": "a / b",
  "^": "Math.pow(a, b)",
  "%%": "H.mod(a, b)",
  "%/%": "H.intDiv(a, b)",
  log: "Math.log(a) / Math.log(b)",
  "<": "+(a < b)",
  "<=": "+(a <= b)",
  ">": "+(a > b)",
  ">=": "+(a >= b)",
  "==": "+(a === b)",
  "!=": "+(a !== b)",
  "&": "((a !== 0) & (b !== 0))",
  "|": "((a !== 0) | (b !== 0))",
  xor: "((a !== 0) ^ (b !== 0))",
  min: "Math.min(a, b)",
  max: "Math.max(a, b)",
  bitwAnd: "H.bitwAnd(a, b)",
  bitwOr: "H.bitwOr(a, b)",
  bitwXor: "H.bitwXor(a, b)",
  bitwShiftL: "H.bitwShiftL(a, b)",
  bitwShiftR: "H.bitwShiftR(a, b)",
};

export const BINARY_OPS = Object.keys(BINARY_EXPRESSIONS) as ElementwiseBinaryOp[];

export function isBinaryOp(name: string): name is ElementwiseBinaryOp {
  return Object.prototype.hasOwnProperty.call(BINARY_EXPRESSIONS, name);
}

type ScalarFn = (a: number, b: number) => number;

/** `a op b` on two numbers. */
export function scalarBinary(op: ElementwiseBinaryOp, a: number, b: number): number {
  return scalarFunction(op)(a, b);
}

/** The operator as a function of two numbers (compiled once). */
export function scalarFunction(op: ElementwiseBinaryOp): ScalarFn {
  return compileKernel<ScalarFn>(`scalar ${op}`, "scalarBinary", ["a", "b"], `return ${BINARY_EXPRESSIONS[op]};`);
}

/**
 * Which cells a matrix–matrix operator must touch (the cost stage's
 * classes): "intersection" (`*`, `&`, bitwAnd: 0 when either side is 0,
 * which like SystemDS also takes 0 · Inf and 0 · NaN as 0), "union"
 * (op(0, 0) = 0) or "dense".
 */
export function sparsityClass(op: ElementwiseBinaryOp): BinarySparsityClass {
  return binarySparsityClass(op);
}
