/**
 * DML's element-wise operations as JavaScript expressions over operand
 * expressions, with the runtime kernels' semantics (the same tables:
 * binary-ops.ts, unary-ops.ts): the generators of every template build
 * their per-cell code from these. Operands should be plain names
 * (temporaries or literals): they are pasted in place of `a` and `b`.
 */
import type { ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../program";
import { BINARY_EXPRESSIONS, UNARY_EXPRESSIONS } from "../kernels";

export function binaryCode(op: ElementwiseBinaryOp, left: string, right: string): string {
  return `(${substitute(BINARY_EXPRESSIONS[op], { a: left, b: right })})`;
}

export function unaryCode(op: ElementwiseUnaryOp, operand: string): string {
  return `(${substitute(UNARY_EXPRESSIONS[op], { a: operand })})`;
}

/** A number as a JavaScript literal (NaN and the infinities included). */
export function numberCode(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "(-Infinity)";
  return Object.is(x, -0) ? "(-0)" : x < 0 ? `(${String(x)})` : String(x);
}

function substitute(expression: string, operands: Record<string, string>): string {
  return expression.replace(/\b[ab]\b/g, (name) => operands[name] ?? name);
}
