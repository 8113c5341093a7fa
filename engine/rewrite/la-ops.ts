/**
 * The operator language of the optimizer's e-graph: linear-algebra (LA)
 * operators, which are DML and can be extracted, and relational (RA)
 * operators over K-relations (SPORES), which only live inside saturation.
 *
 * LA operators are strings that map one-to-one to a DAG operation, so the
 * size and cost rules of the stats and cost stages apply to e-nodes:
 *
 *   var:NAME        a live-in variable          lit:V     a numeric literal
 *   dag:ID          an opaque DAG node (a barrier: user functions, indexing, ...)
 *   mm              A %*% B                     t         t(A)
 *   + - * / ^ min max < <= > >= == != & |       element-wise binary
 *   neg not abs exp log sqrt sign ...           element-wise unary
 *   sum rowSums colSums                         sum aggregates; agg:FN:DIR other aggregates
 *   as.scalar as.matrix                         casts between 1x1 matrices and scalars
 *   fill:R:C        matrix(v, rows=R, cols=C) for a scalar v
 *   reshape         matrix(X, rows=R, cols=C) of a matrix X (row-major): (reshape X R C)
 *   rev roll diag trace   rev(X), roll(X, k), diag(X), trace(X)
 *   outer:OP        outer(v, r, "OP")
 *
 * RA operators (SPORES, section 2): attributes `@N` (an index variable with
 * a known dimension) and `_` (no attribute: a dimension of size 1);
 * `b` binds a matrix or scalar to attributes (rows, cols): (b @1 @2 X);
 * `r+` is union-add, `r*` is join-multiply (both broadcast over missing
 * attributes), `rsum` aggregates one attribute away: (rsum @3 E).
 * `ubm` / `ubs` unbind an RA class back to a matrix / a scalar.
 */
import type { AggregateDirection, AggregateFunction, DagOp, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../program";

export const BIND = "b";
export const NO_ATTRIBUTE = "_";
export const RA_ADD = "r+";
export const RA_MUL = "r*";
export const RA_SUM = "rsum";
export const UNBIND_MATRIX = "ubm";
export const UNBIND_SCALAR = "ubs";

const RA_OPS: ReadonlySet<string> = new Set([BIND, RA_ADD, RA_MUL, RA_SUM]);

export type OpFamily = "la" | "ra" | "attribute" | "unbind";

export function opFamily(op: string): OpFamily {
  if (op === NO_ATTRIBUTE || op.startsWith("@")) return "attribute";
  if (RA_OPS.has(op)) return "ra";
  if (op === UNBIND_MATRIX || op === UNBIND_SCALAR) return "unbind";
  return "la";
}

export function attributeOp(id: number): string {
  return `@${id}`;
}

/** The attribute id of an `@N` op, or -1 for `_`. */
export function attributeId(op: string): number {
  return op === NO_ATTRIBUTE ? -1 : Number(op.slice(1));
}

export function literalOp(value: number): string {
  return `lit:${value}`;
}

export function literalValue(op: string): number | undefined {
  return op.startsWith("lit:") ? Number(op.slice(4)) : undefined;
}

export function fillOp(rows: number, cols: number): string {
  return `fill:${rows}:${cols}`;
}

export function fillDims(op: string): { rows: number; cols: number } | undefined {
  if (!op.startsWith("fill:")) return undefined;
  const [, rows, cols] = op.split(":");
  return { rows: Number(rows), cols: Number(cols) };
}

/** `outer(v, r, "OP")` as an e-graph op. */
export function outerOp(op: string): string {
  return `outer:${op}`;
}

/** The cell-wise operator of an `outer:OP` op. */
export function outerOperator(op: string): string | undefined {
  return op.startsWith("outer:") ? op.slice(6) : undefined;
}

/**
 * The constant arguments an op carries in its name, which its DAG operation
 * takes as literal inputs after its children: `outer:OP` the operator's
 * name, `fill:R:C` its rows and cols.
 */
export function literalArguments(op: string): (number | string)[] {
  const outer = outerOperator(op);
  if (outer !== undefined) return [outer];
  const fill = fillDims(op);
  return fill ? [fill.rows, fill.cols] : [];
}

const BINARY_OPS: ReadonlySet<string> = new Set(["+", "-", "*", "/", "^", "min", "max", "<", "<=", ">", ">=", "==", "!=", "&", "|"]);
/** Whether `op` is a cell-wise binary LA op (also the operators `outer` takes). */
export function isElementwiseBinaryOp(op: string): boolean {
  return BINARY_OPS.has(op);
}

const UNARY_OPS: ReadonlySet<string> = new Set([
  "abs", "sign", "sqrt", "exp", "log", "round", "floor", "ceil",
  "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid",
]);

/** The e-graph op of a DAG operation, or undefined when the optimizer treats it as opaque. */
export function opOfDag(op: DagOp, arity: number): string | undefined {
  switch (op.kind) {
    case "matmul":
      return "mm";
    case "transpose":
      return "t";
    case "binary":
      return BINARY_OPS.has(op.op) && arity === 2 ? op.op : undefined;
    case "unary":
      if (op.op === "-") return "neg";
      if (op.op === "!") return "not";
      return UNARY_OPS.has(op.op) ? op.op : undefined;
    case "aggregate":
      if (op.fn === "sum") return op.direction === "full" ? "sum" : op.direction === "row" ? "rowSums" : "colSums";
      return `agg:${op.fn}:${op.direction}`;
    case "cast":
      return op.to === "scalar" ? "as.scalar" : op.to === "matrix" ? "as.matrix" : undefined;
    default:
      return undefined;
  }
}

/** The DAG operation an LA op stands for (for sizes and costs); undefined for leaves and RA ops. */
export function dagOpOf(op: string, arity: number): DagOp | undefined {
  if (op === "mm") return { kind: "matmul" };
  if (op === "t") return { kind: "transpose" };
  if (arity === 2 && BINARY_OPS.has(op)) return { kind: "binary", op: op as ElementwiseBinaryOp };
  if (arity === 1) {
    if (op === "neg") return { kind: "unary", op: "-" };
    if (op === "not") return { kind: "unary", op: "!" };
    if (UNARY_OPS.has(op)) return { kind: "unary", op: op as ElementwiseUnaryOp };
    if (op === "sum") return { kind: "aggregate", fn: "sum", direction: "full" };
    if (op === "rowSums") return { kind: "aggregate", fn: "sum", direction: "row" };
    if (op === "colSums") return { kind: "aggregate", fn: "sum", direction: "col" };
    if (op.startsWith("agg:")) {
      const [, fn, direction] = op.split(":");
      return { kind: "aggregate", fn: fn as AggregateFunction, direction: direction as AggregateDirection };
    }
    if (op === "as.scalar") return { kind: "cast", to: "scalar" };
    if (op === "as.matrix") return { kind: "cast", to: "matrix" };
    if (op.startsWith("fill:")) return { kind: "matrix" };
    if (op === "rev" || op === "trace") return builtinCall(op);
    if (op === "diag") return { kind: "diag" };
  }
  if (arity === 2 && op === "roll") return builtinCall("roll");
  if (arity === 2 && outerOperator(op) !== undefined && BINARY_OPS.has(outerOperator(op)!)) return builtinCall("outer");
  if (arity === 3 && op === "reshape") return { kind: "matrix" };
  return undefined;
}

function builtinCall(name: string): DagOp {
  return { kind: "call", name, user: false, output: 0 };
}

/** Element-wise binary LA ops whose RA form is a sum or product (the sum-product core). */
export function isSumProductOp(op: string): boolean {
  return op === "+" || op === "-" || op === "*";
}
