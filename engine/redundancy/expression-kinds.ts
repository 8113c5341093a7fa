/**
 * Whether an expression is a matrix, a scalar or something else, as far as
 * the redundancy search needs to know: variables from the types their DAG
 * nodes have in the scope (main program or one function), other expressions
 * from the DAG node written at their range when there is one, else from
 * the operator (`%*%` and `t()` give matrices, arithmetic on scalars a
 * scalar, `as.scalar`, `sum`, `nrow`, ... a scalar).
 */
import type { Expression } from "../syntax";
import type { ValueKind } from "./expression-sums";

const SCALAR_CALLS = new Set([
  "as.scalar", "as.double", "as.integer", "as.logical", "castAsScalar",
  "sum", "mean", "prod", "sd", "var", "trace", "det", "nrow", "ncol", "length", "sumSq", "median",
  "sqrt", "exp", "log", "abs", "floor", "ceil", "round",
]);
const MATRIX_CALLS = new Set(["t", "diag", "matrix", "rand", "read", "rowSums", "colSums", "rowMeans", "colMeans", "cbind", "rbind", "solve", "seq", "table", "cumsum", "rev", "removeEmpty", "replace", "outer", "inv"]);
/** Calls whose kind follows their (single or first) argument: element-wise functions. */
const ELEMENTWISE_CALLS = new Set(["sqrt", "exp", "log", "abs", "floor", "ceil", "round", "sign", "sigmoid", "sin", "cos", "tan"]);

export function expressionKind(e: Expression, variableKind: (name: string) => ValueKind, nodeKind?: (e: Expression) => ValueKind | undefined): ValueKind {
  const fromNode = nodeKind?.(e);
  if (fromNode !== undefined) return fromNode;
  switch (e.kind) {
    case "number":
    case "boolean":
    case "string":
      return "scalar";
    case "identifier":
      return variableKind(e.name);
    case "unary":
      return expressionKind(e.operand, variableKind, nodeKind);
    case "binary": {
      if (e.op === "%*%") return "matrix";
      const l = expressionKind(e.left, variableKind, nodeKind);
      const r = expressionKind(e.right, variableKind, nodeKind);
      if (l === "matrix" || r === "matrix") return l === "other" || r === "other" ? "other" : "matrix";
      return l === "scalar" && r === "scalar" ? "scalar" : "other";
    }
    case "call": {
      const name = e.callee.name;
      if (ELEMENTWISE_CALLS.has(name) && e.args.length >= 1) return expressionKind(e.args[0]!.value, variableKind, nodeKind);
      if ((name === "min" || name === "max") && e.args.length === 1) return "scalar";
      if (SCALAR_CALLS.has(name)) return "scalar";
      if (MATRIX_CALLS.has(name)) return "matrix";
      return "other";
    }
    default:
      return "other";
  }
}
