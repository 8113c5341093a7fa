/**
 * Compile-time constants of `read()` arguments, as SystemDS needs them: a
 * file name must be a constant string (a literal, a `$param`, a constant
 * variable, or `+` concatenations of those), and `rows=`, `cols=`, ... are
 * used only when constant.
 *
 * Arithmetic follows DML: int op int stays int for + - * %% %/%, `/` and `^`
 * give doubles, booleans count as 0/1, and `+` with a string concatenates
 * (numbers printed as Java prints them: `1`, `1.0`).
 */
import type { Expression, Range } from "../syntax";
import { type DmlConstant, type ParameterValues, constantText, parameterConstant } from "./parameters";

export interface ConstantEnvironment {
  params: ParameterValues;
  /** Variables known to hold a constant at this point (from the caller's constant propagation). */
  constants?: ReadonlyMap<string, DmlConstant>;
}

export type ConstantResult =
  | { ok: true; value: DmlConstant }
  /** A `$param` without a value; `ifdef` defaults are used when present. */
  | { ok: false; reason: "missing-parameter"; parameter: string; range: Range }
  | { ok: false; reason: "not-constant"; range: Range };

const BUILTIN_CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, Inf: Number.POSITIVE_INFINITY, NaN: Number.NaN };

export function evaluateConstant(expression: Expression, env: ConstantEnvironment): ConstantResult {
  const ok = (value: DmlConstant): ConstantResult => ({ ok: true, value });
  const notConstant: ConstantResult = { ok: false, reason: "not-constant", range: expression.range };
  switch (expression.kind) {
    case "number":
      return ok(expression.isInteger ? { type: "int", value: expression.value } : { type: "double", value: expression.value });
    case "string":
      return ok({ type: "string", value: expression.value });
    case "boolean":
      return ok({ type: "boolean", value: expression.value });
    case "parameter": {
      const value = parameterConstant(env.params, expression.name);
      return value ? ok(value) : { ok: false, reason: "missing-parameter", parameter: expression.name, range: expression.range };
    }
    case "identifier": {
      const known = env.constants?.get(expression.name);
      if (known) return ok(known);
      const builtin = BUILTIN_CONSTANTS[expression.name];
      return builtin === undefined ? notConstant : ok({ type: "double", value: builtin });
    }
    case "ifdef": {
      const parameter = expression.parameter;
      if (parameter.kind === "parameter") {
        const value = parameterConstant(env.params, parameter.name);
        if (value) return ok(value);
      }
      return evaluateConstant(expression.defaultValue, env);
    }
    case "unary": {
      const operand = evaluateConstant(expression.operand, env);
      if (!operand.ok) return operand;
      return unary(expression.op, operand.value) ?? notConstant;
    }
    case "binary": {
      const left = evaluateConstant(expression.left, env);
      if (!left.ok) return left;
      const right = evaluateConstant(expression.right, env);
      if (!right.ok) return right;
      const value = binary(expression.op, left.value, right.value);
      return value ? ok(value) : notConstant;
    }
    default:
      return notConstant;
  }
}

function unary(op: "-" | "+" | "!", operand: DmlConstant): ConstantResult | undefined {
  if (op === "!") return operand.type === "boolean" ? { ok: true, value: { type: "boolean", value: !operand.value } } : undefined;
  if (operand.type === "string") return undefined;
  const number = numeric(operand);
  const type = operand.type === "double" ? "double" : "int";
  return { ok: true, value: { type, value: op === "-" ? -number : number } };
}

function binary(op: string, left: DmlConstant, right: DmlConstant): DmlConstant | undefined {
  if (left.type === "string" || right.type === "string") {
    return op === "+" ? { type: "string", value: constantText(left) + constantText(right) } : undefined;
  }
  const x = numeric(left);
  const y = numeric(right);
  const integers = left.type !== "double" && right.type !== "double";
  switch (op) {
    case "+":
      return number(x + y, integers);
    case "-":
      return number(x - y, integers);
    case "*":
      return number(x * y, integers);
    case "/":
      return { type: "double", value: x / y };
    case "^":
      return { type: "double", value: Math.pow(x, y) };
    case "%%":
      return y === 0 ? { type: "double", value: Number.NaN } : number(x - Math.floor(x / y) * y, integers);
    case "%/%":
      return y === 0 ? { type: "double", value: x / y } : number(Math.floor(x / y), integers);
    default:
      return undefined;
  }
}

function number(value: number, integer: boolean): DmlConstant {
  return integer && Number.isInteger(value) ? { type: "int", value } : { type: "double", value };
}

function numeric(constant: Exclude<DmlConstant, { type: "string" }>): number {
  return constant.type === "boolean" ? (constant.value ? 1 : 0) : constant.value;
}
