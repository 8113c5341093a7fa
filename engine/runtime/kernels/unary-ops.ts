/**
 * The element-wise unary functions of DML as JavaScript expressions over
 * `a`: `!x` is 1 for 0 and 0 otherwise (NaN counts as non-zero), sign and
 * round as Java's Math (round half up; round keeps NaN where SystemDS's
 * cast to long would give 0), sigmoid = 1 / (1 + e^-x), is.na and is.nan
 * both test for NaN (DML has no separate NA).
 */
import type { ElementwiseUnaryOp } from "../../program";
import { compileKernel } from "./codegen";

export const UNARY_EXPRESSIONS: Readonly<Record<ElementwiseUnaryOp, string>> = {
  "-": "-a",
  "!": "+(a === 0)",
  abs: "Math.abs(a)",
  sign: "Math.sign(a)",
  sqrt: "Math.sqrt(a)",
  exp: "Math.exp(a)",
  log: "Math.log(a)",
  round: "Math.round(a)",
  floor: "Math.floor(a)",
  ceil: "Math.ceil(a)",
  sin: "Math.sin(a)",
  cos: "Math.cos(a)",
  tan: "Math.tan(a)",
  asin: "Math.asin(a)",
  acos: "Math.acos(a)",
  atan: "Math.atan(a)",
  sinh: "Math.sinh(a)",
  cosh: "Math.cosh(a)",
  tanh: "Math.tanh(a)",
  sigmoid: "1 / (1 + Math.exp(-a))",
  "is.na": "+(a !== a)",
  "is.nan": "+(a !== a)",
  "is.infinite": "+(a === Infinity || a === -Infinity)",
};

export const UNARY_OPS = Object.keys(UNARY_EXPRESSIONS) as ElementwiseUnaryOp[];

type UnaryFn = (a: number) => number;

/** f(a) on a number. */
export function scalarUnary(op: ElementwiseUnaryOp, a: number): number {
  return compileKernel<UnaryFn>(`scalar unary ${op}`, "scalarUnary", ["a"], `return ${UNARY_EXPRESSIONS[op]};`)(a);
}

/** out[i] = f(input[i]) for i < n (dense cells, or the values of a CSR matrix). */
export type UnaryMapKernel = (out: Float64Array, input: Float64Array, n: number) => void;

export function unaryMapKernel(op: ElementwiseUnaryOp): UnaryMapKernel {
  return compileKernel<UnaryMapKernel>(
    `unary map ${op}`,
    "unaryMap",
    ["out", "input", "n"],
    `for (let i = 0; i < n; i++) { const a = input[i]; out[i] = ${UNARY_EXPRESSIONS[op]}; }`,
  );
}
