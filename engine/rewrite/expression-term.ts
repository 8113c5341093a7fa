/**
 * A DML expression as an LA term of the optimizer's language, without a
 * program around it (for `dml prove`, tests and benchmarks): identifiers
 * become `var:NAME` leaves; only operators the optimizer understands are
 * accepted.
 */
import type { Term } from "../egraph";
import type { Expression } from "../syntax";
import { fillOp, literalOp } from "./la-ops";

const BINARY: Record<string, string> = {
  "%*%": "mm", "+": "+", "-": "-", "*": "*", "/": "/", "^": "^",
  "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!=", "&": "&", "|": "|",
};

const UNARY_CALLS = new Set([
  "t", "sum", "rowSums", "colSums", "as.scalar", "as.matrix",
  "abs", "sign", "sqrt", "exp", "log", "round", "floor", "ceil", "sigmoid",
  "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
]);

export class UnsupportedExpressionError extends Error {}

export function expressionToTerm(e: Expression): Term {
  const leaf = (op: string): Term => ({ op, children: [] });
  switch (e.kind) {
    case "number":
      return leaf(literalOp(e.value));
    case "identifier":
      return leaf(`var:${e.name}`);
    case "binary": {
      const op = BINARY[e.op];
      if (!op) throw new UnsupportedExpressionError(`operator ${e.op} is not supported`);
      return { op, children: [expressionToTerm(e.left), expressionToTerm(e.right)] };
    }
    case "unary":
      if (e.op === "+") return expressionToTerm(e.operand);
      if (e.op === "-" && e.operand.kind === "number") return leaf(literalOp(-e.operand.value));
      return { op: e.op === "-" ? "neg" : "not", children: [expressionToTerm(e.operand)] };
    case "call": {
      const name = e.callee.name;
      const positional = e.args.filter((a) => a.name === undefined);
      if ((name === "min" || name === "max") && positional.length === 2 && e.args.length === 2) {
        return { op: name, children: positional.map((a) => expressionToTerm(a.value)) };
      }
      if (name === "matrix") return matrixTerm(e.args);
      if (UNARY_CALLS.has(name) && e.args.length === 1 && positional.length === 1) return { op: name, children: [expressionToTerm(positional[0]!.value)] };
      throw new UnsupportedExpressionError(`function ${name} is not supported here`);
    }
    default:
      throw new UnsupportedExpressionError(`${e.kind} expressions are not supported here`);
  }
}

/** `matrix(v, rows=R, cols=C)` (or positional) with literal dims. */
function matrixTerm(args: readonly { name?: string; value: Expression }[]): Term {
  const named = new Map(args.filter((a) => a.name).map((a) => [a.name!, a.value]));
  const positional = args.filter((a) => !a.name).map((a) => a.value);
  const data = named.get("data") ?? positional[0];
  const rows = named.get("rows") ?? positional[1];
  const cols = named.get("cols") ?? positional[2];
  if (!data || rows?.kind !== "number" || cols?.kind !== "number") throw new UnsupportedExpressionError("matrix() needs literal rows and cols");
  return { op: fillOp(rows.value, cols.value), children: [expressionToTerm(data)] };
}
