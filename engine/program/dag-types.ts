/**
 * The linear-algebra DAG of one statement block, like SystemDS's HOP DAG:
 * one node per operation, equal sub-expressions represented once
 * (hash-consed), reads of live-in variables as `input` nodes and the values
 * of live-out variables as `outputs`.
 *
 * Node kinds are few and generic: an element-wise operator, an aggregate, a
 * reorganisation and so on each carry their operator as data, so later
 * stages (sizes, costs, e-graph) switch over a small closed set.
 */
import type { Diagnostic, Range } from "../syntax";

export type DataType = "scalar" | "matrix" | "frame" | "list" | "unknown";
export type ValueType = "int" | "double" | "boolean" | "string" | "unknown";

export interface DagType {
  dataType: DataType;
  valueType: ValueType;
}

/**
 * Element-wise binary operators (matrix–matrix, matrix–vector broadcast, matrix–scalar, scalar–scalar).
 * `log` is `log(X, base)` (SystemDS's binary LOG).
 */
export type ElementwiseBinaryOp =
  | "+" | "-" | "*" | "/" | "^" | "%%" | "%/%" | "log"
  | "<" | "<=" | ">" | ">=" | "==" | "!="
  | "&" | "|" | "xor"
  | "min" | "max"
  | "bitwAnd" | "bitwOr" | "bitwXor" | "bitwShiftL" | "bitwShiftR";

/** Element-wise unary operators; `-` and `!` come from the prefix operators. */
export type ElementwiseUnaryOp =
  | "-" | "!"
  | "abs" | "sign" | "sqrt" | "exp" | "log" | "round" | "floor" | "ceil"
  | "sin" | "cos" | "tan" | "asin" | "acos" | "atan" | "sinh" | "cosh" | "tanh"
  | "sigmoid" | "is.na" | "is.nan" | "is.infinite";

export type AggregateFunction = "sum" | "mean" | "min" | "max" | "prod" | "sumSq" | "var" | "sd";
/** `full` gives a scalar, `row` a column vector (one value per row), `col` a row vector. */
export type AggregateDirection = "full" | "row" | "col";

export type DagOp =
  /** A constant scalar. */
  | { kind: "literal"; value: number | string | boolean }
  /** The value a live-in variable has when the block starts. */
  | { kind: "input"; name: string }
  /** A `$name` command-line parameter (with its `ifdef` default as input 0, if any). */
  | { kind: "parameter"; name: string }
  /** `A %*% B`. */
  | { kind: "matmul" }
  | { kind: "binary"; op: ElementwiseBinaryOp }
  | { kind: "unary"; op: ElementwiseUnaryOp }
  /** `sum(X)`, `rowSums(X)`, `colMeans(X)`, `sumSq`, ... (input 0). */
  | { kind: "aggregate"; fn: AggregateFunction; direction: AggregateDirection }
  /** `t(X)`. */
  | { kind: "transpose" }
  /**
   * `X[rl:ru, cl:cu]`: inputs are X, then rl, ru, cl, cu; a missing bound is
   * the literal `-1` standing for "all" (`X[, j]` has rl = ru = -1).
   */
  | { kind: "index" }
  /** `X[rl:ru, cl:cu] = Y`: inputs are X, Y, rl, ru, cl, cu (as for `index`); the result is the new X. */
  | { kind: "leftIndex" }
  | { kind: "cbind" }
  | { kind: "rbind" }
  | { kind: "diag" }
  | { kind: "table" }
  /** `seq(from, to, by)`: inputs from, to, by. */
  | { kind: "seq" }
  /** `matrix(data, rows=, cols=)` and `rand(...)`, `read(...)`: inputs are the argument values, named as in `argNames`. */
  | { kind: "matrix" }
  | { kind: "rand" }
  | { kind: "read" }
  /** `as.scalar`, `as.matrix`, `as.double`, `as.integer`, `as.logical`, `as.frame`, `as.list`. */
  | { kind: "cast"; to: "scalar" | "matrix" | "double" | "int" | "boolean" | "frame" | "list" }
  | { kind: "nrow" }
  | { kind: "ncol" }
  | { kind: "length" }
  /**
   * Any other builtin, or a user function: opaque. `output` selects one of
   * several results of a multi-return call: `[Q, R] = qr(A)` gives two call
   * nodes with the same name and inputs, `output` 0 and 1, that stand for one
   * evaluation (cost it once). `user` is true for user-defined (or sourced)
   * functions. A syntax-error placeholder is the call `<error>`, an
   * expression list `[a, b]` (DNN shape arguments) the call `[]`.
   */
  | { kind: "call"; name: string; user: boolean; output: number };

export type DagOpKind = DagOp["kind"];

export interface DagNode {
  /** Index of the node in its DAG's `nodes`; inputs always have smaller ids. */
  id: number;
  op: DagOp;
  /** Node ids of the operands, in order. */
  inputs: number[];
  /** For nodes built from calls with named arguments: the name of each input, or undefined if positional. */
  argNames?: (string | undefined)[];
  type: DagType;
  /** Where the operation is written (first occurrence, for a shared node). */
  range: Range;
  /** Inside a loop: the node depends only on values the loop does not change. */
  loopConstant?: boolean;
  /**
   * Inside loops: how many of the enclosing loops, innermost first, leave the
   * node's value unchanged (`loopConstant` is true when that is all of them).
   * E.g. 1 of 2: constant in the inner loop, recomputed per outer iteration.
   */
  invariantLoops?: number;
}

/** A statement's effect that is not an assignment: `print`, `write`, `stop`, `assert`, a call for its effect. */
export interface DagSink {
  node: number;
  range: Range;
  /** A call statement's sink: its value is dropped, so a function without results may be called. */
  discarded?: boolean;
}

export interface BlockDag {
  nodes: DagNode[];
  /** Live-in variables read by the block, each with its `input` node. */
  inputs: Map<string, number>;
  /** Every variable the block assigns, with the node of its final value. */
  outputs: Map<string, number>;
  /** Nodes evaluated for their effect. */
  sinks: DagSink[];
  /** Variables assigned here that are read after the block (live-out), when known. */
  liveOut?: string[];
  /**
   * Of `liveOut`, the variables a later statement of the program may read
   * (set when the program ends with everything live, a session's run): the
   * others are live only because the session keeps its variables after the
   * run, so a plan need not compute them in every iteration of a loop.
   */
  programLiveOut?: string[];
  /** Type errors found while building the DAG (values with ranges, never thrown). */
  diagnostics?: Diagnostic[];
}
