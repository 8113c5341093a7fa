/**
 * A DML expression as an LA term of the optimizer's language, without a
 * program around it (for `dml prove`, tests and benchmarks): identifiers
 * become `var:NAME` leaves; only operators the optimizer understands are
 * accepted.
 */
import type { Term } from "../egraph";
import type { Expression } from "../syntax";
import { fillOp, isElementwiseBinaryOp, literalOp, outerOp } from "./la-ops";

const BINARY: Record<string, string> = {
  "%*%": "mm", "+": "+", "-": "-", "*": "*", "/": "/", "^": "^",
  "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!=", "&": "&", "|": "|",
};

const UNARY_CALLS = new Set([
  "t", "sum", "rowSums", "colSums", "as.scalar", "as.matrix",
  "abs", "sign", "sqrt", "exp", "log", "round", "floor", "ceil", "sigmoid",
  "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
  "rev", "diag", "trace",
]);

/** Aggregates other than sums, by their DML names (as the DAG builder maps them). */
const AGGREGATE_CALLS: Readonly<Record<string, string>> = {
  min: "agg:min:full", max: "agg:max:full", mean: "agg:mean:full", avg: "agg:mean:full", prod: "agg:prod:full", var: "agg:var:full", sd: "agg:sd:full",
  rowMins: "agg:min:row", colMins: "agg:min:col", rowMaxs: "agg:max:row", colMaxs: "agg:max:col", rowMeans: "agg:mean:row", colMeans: "agg:mean:col",
  rowProds: "agg:prod:row", colProds: "agg:prod:col", rowVars: "agg:var:row", colVars: "agg:var:col", rowSds: "agg:sd:row", colSds: "agg:sd:col",
};

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
      const aggregate = Object.hasOwn(AGGREGATE_CALLS, name) ? AGGREGATE_CALLS[name] : undefined;
      if (aggregate && e.args.length === 1 && positional.length === 1) return { op: aggregate, children: [expressionToTerm(positional[0]!.value)] };
      if (name === "tr" && e.args.length === 1 && positional.length === 1) return { op: "trace", children: [expressionToTerm(positional[0]!.value)] };
      if (name === "roll" && e.args.length === 2 && positional.length === 2) return { op: "roll", children: positional.map((a) => expressionToTerm(a.value)) };
      if (name === "outer") return outerTerm(e.args);
      if (UNARY_CALLS.has(name) && e.args.length === 1 && positional.length === 1) return { op: name, children: [expressionToTerm(positional[0]!.value)] };
      throw new UnsupportedExpressionError(`function ${name} is not supported here`);
    }
    default:
      throw new UnsupportedExpressionError(`${e.kind} expressions are not supported here`);
  }
}

/**
 * `matrix(v, rows=R, cols=C)` (or positional) with literal dims: a fill when
 * the data is a number, else a reshape of the matrix it is (row-major; a
 * scalar variable as data is not supported here: write a number).
 */
function matrixTerm(args: readonly { name?: string; value: Expression }[]): Term {
  const named = new Map(args.filter((a) => a.name).map((a) => [a.name!, a.value]));
  const positional = args.filter((a) => !a.name).map((a) => a.value);
  const data = named.get("data") ?? positional[0];
  const rows = named.get("rows") ?? positional[1];
  const cols = named.get("cols") ?? positional[2];
  if (!data || rows?.kind !== "number" || cols?.kind !== "number") throw new UnsupportedExpressionError("matrix() needs literal rows and cols");
  if (args.length !== 3 || (named.size > 0 && [...named.keys()].some((k) => k !== "data" && k !== "rows" && k !== "cols"))) {
    throw new UnsupportedExpressionError("matrix() takes data, rows and cols here");
  }
  const number = data.kind === "number" || (data.kind === "unary" && data.op === "-" && data.operand.kind === "number");
  if (number) return { op: fillOp(rows.value, cols.value), children: [expressionToTerm(data)] };
  return { op: "reshape", children: [expressionToTerm(data), expressionToTerm(rows), expressionToTerm(cols)] };
}

/** `outer(v, r, "OP")` with a cell-wise operator the optimizer knows. */
function outerTerm(args: readonly { name?: string; value: Expression }[]): Term {
  const [v, r, op] = args.map((a) => a.value);
  if (args.length !== 3 || args.some((a) => a.name) || op?.kind !== "string" || !isElementwiseBinaryOp(op.value)) {
    throw new UnsupportedExpressionError('outer() needs two vectors and an operator string such as "*"');
  }
  return { op: outerOp(op.value), children: [expressionToTerm(v!), expressionToTerm(r!)] };
}
