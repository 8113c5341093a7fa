/**
 * Constant folding of scalar operations with DML's semantics (booleans count
 * as 0/1 in arithmetic, `+` with a string concatenates, `%%` takes the sign
 * of the divisor as in R, `%/%` floors).
 */
import type { ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../program";
import type { ScalarValue } from "./node-stats";

function num(v: ScalarValue): number {
  return typeof v === "boolean" ? (v ? 1 : 0) : typeof v === "number" ? v : Number.NaN;
}

/** The value of `a op b` for constant scalars, or undefined when DML would not compute one here. */
export function foldBinary(op: ElementwiseBinaryOp, a: ScalarValue, b: ScalarValue): ScalarValue | undefined {
  if (typeof a === "string" || typeof b === "string") {
    if (op === "+") return stringOf(a) + stringOf(b);
    if (op === "==") return a === b;
    if (op === "!=") return a !== b;
    return undefined;
  }
  const x = num(a);
  const y = num(b);
  return applyNumeric(op, x, y);
}

/** The numeric result of an element-wise binary operator (used for scalars and for f(0, 0) style probes). */
export function applyNumeric(op: ElementwiseBinaryOp, x: number, y: number): number | boolean | undefined {
  switch (op) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return x / y;
    case "^":
      return Math.pow(x, y);
    case "%%":
      return y === 0 ? Number.NaN : x - Math.floor(x / y) * y;
    case "%/%":
      return Math.floor(x / y);
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "==":
      return x === y;
    case "!=":
      return x !== y;
    case "&":
      return x !== 0 && y !== 0;
    case "|":
      return x !== 0 || y !== 0;
    case "xor":
      return (x !== 0) !== (y !== 0);
    case "min":
      return Math.min(x, y);
    case "max":
      return Math.max(x, y);
    default:
      return undefined;
  }
}

export function foldUnary(op: ElementwiseUnaryOp, a: ScalarValue): ScalarValue | undefined {
  if (typeof a === "string") return undefined;
  return applyNumericUnary(op, num(a));
}

export function applyNumericUnary(op: ElementwiseUnaryOp, x: number): number | boolean | undefined {
  switch (op) {
    case "-":
      return -x;
    case "!":
      return x === 0;
    case "abs":
      return Math.abs(x);
    case "sign":
      return Math.sign(x);
    case "sqrt":
      return Math.sqrt(x);
    case "exp":
      return Math.exp(x);
    case "log":
      return Math.log(x);
    case "round":
      return Math.round(x);
    case "floor":
      return Math.floor(x);
    case "ceil":
      return Math.ceil(x);
    case "sin":
      return Math.sin(x);
    case "cos":
      return Math.cos(x);
    case "tan":
      return Math.tan(x);
    case "asin":
      return Math.asin(x);
    case "acos":
      return Math.acos(x);
    case "atan":
      return Math.atan(x);
    case "sinh":
      return Math.sinh(x);
    case "cosh":
      return Math.cosh(x);
    case "tanh":
      return Math.tanh(x);
    case "sigmoid":
      return 1 / (1 + Math.exp(-x));
    case "is.na":
    case "is.nan":
      return Number.isNaN(x);
    case "is.infinite":
      return x === Infinity || x === -Infinity;
  }
}

/** Whether a result value counts as a non-zero cell (NaN does). */
export function isNonZero(v: number | boolean | undefined): boolean {
  return v === undefined || (typeof v === "boolean" ? v : v !== 0);
}

/** How DML writes a scalar into a string: booleans as TRUE/FALSE. */
function stringOf(v: ScalarValue): string {
  return typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : String(v);
}
