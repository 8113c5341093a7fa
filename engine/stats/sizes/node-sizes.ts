/**
 * The size transfer function: dims, non-zeros and constant values of one DAG
 * node from those of its inputs, with the dimension errors it finds.
 *
 * Non-zeros follow SystemDS's average-case (uniform) formulas; a count is
 * marked exact only when the operation provably preserves it. Where the
 * inputs carry sketches, sketch-sizes.ts replaces them by MNC's estimate and
 * adds the chain bound. Unknown stays unknown: a dim is `null` unless it
 * follows from known inputs.
 */
import type { Diagnostic } from "../../syntax";
import { type DagNode, type DagType, type ElementwiseBinaryOp, APPEND_NAMES, binaryType, unaryType } from "../../program";
import { applyNumeric, applyNumericUnary, foldBinary, foldUnary, isNonZero } from "./scalar-fold";
import { cells, isMatrix, isScalar, listStats, matrixStats, type NodeStats, operand, type ScalarValue, scalarStats, unknownStats } from "./node-stats";
import { matmulNnz, aggregateNnz, intersectionNnz, unionNnz } from "./uniform-nnz";
import { indexStats, leftIndexStats } from "./index-sizes";
import { constructorStats } from "./constructor-sizes";
import { DNN_CALL_NAMES, dnnCallStats } from "./dnn-call-sizes";
import { builtinCallStats } from "./builtin-call-sizes";
import { type SparsityEstimator, withSketches } from "./sketch-sizes";

export interface NodeSizeContext {
  /** Stats of a live-in variable. */
  input(name: string): NodeStats | undefined;
  /** The value of a `$param`, typed as SystemDS types it. */
  parameter(name: string): ScalarValue | undefined;
  /** Sizes of the matrix a `read` node reads. */
  read(node: DagNode, inputs: NodeStats[]): NodeStats | undefined;
  /** Stats of the output of a call of a user function or a builtin script (inter-procedural). */
  call(node: DagNode, inputs: NodeStats[]): NodeStats | undefined;
  /** Which estimate an inexact nnz is (default `mnc`). */
  estimator?: SparsityEstimator;
  /** `upper - lower + 1` of two index bounds (node ids of the block) that differ by a constant (affine-bounds.ts). */
  span?(lower: number, upper: number): number | undefined;
}

export interface NodeSizeResult {
  stats: NodeStats;
  diagnostics: Diagnostic[];
}

export function nodeStats(node: DagNode, inputs: NodeStats[], context: NodeSizeContext): NodeSizeResult {
  const diagnostics: Diagnostic[] = [];
  const error = (message: string, code: string) => diagnostics.push({ severity: "error", message, range: node.range, code });
  const stats = withSketches(node, inputs, compute(node, inputs, context, error), context.estimator);
  return { stats, diagnostics };
}

type Report = (message: string, code: string) => void;

function compute(node: DagNode, inputs: NodeStats[], context: NodeSizeContext, error: Report): NodeStats {
  const op = node.op;
  const fallback = (): NodeStats =>
    node.type.dataType === "scalar" ? scalarStats(node.type) : { type: node.type, rows: null, cols: null, nnz: null };
  switch (op.kind) {
    case "literal":
      return scalarStats(node.type, op.value);
    case "input":
      return context.input(op.name) ?? fallback();
    case "parameter": {
      const value = context.parameter(op.name);
      if (value !== undefined) return scalarStats(node.type, value);
      return inputs[0] ?? fallback();
    }
    case "matmul":
      return matmulStats(operand(inputs, 0, "%*%"), operand(inputs, 1, "%*%"), error);
    case "binary":
      return binaryStats(op.op, node, operand(inputs, 0, op.op), operand(inputs, 1, op.op), error);
    case "unary": {
      const a = operand(inputs, 0, op.op);
      if (!isMatrix(a)) return scalarStats(refined(node, unaryType(op.op, a.type).type), a.value === undefined ? undefined : foldUnary(op.op, a.value));
      const zeroStaysZero = !isNonZero(applyNumericUnary(op.op, 0));
      const exact = a.nnzExact === true && (op.op === "-" || op.op === "abs" || op.op === "sign" || op.op === "sqrt");
      return matrixStats(a.rows, a.cols, zeroStaysZero ? a.nnz : cells(a), exact || (!zeroStaysZero && cells(a) !== null && op.op === "exp"));
    }
    case "aggregate": {
      const a = operand(inputs, 0, op.fn);
      if (op.direction === "full") return scalarStats(node.type);
      const rows = op.direction === "row" ? a.rows : 1;
      const cols = op.direction === "row" ? 1 : a.cols;
      return matrixStats(rows, cols, aggregateNnz(op.fn, op.direction, a));
    }
    case "transpose": {
      const a = operand(inputs, 0, "t");
      return matrixStats(a.cols, a.rows, a.nnz, a.nnzExact);
    }
    case "index":
      return operand(inputs, 0, "indexing").type.dataType === "list" ? listIndexStats(node, inputs) : indexStats(node, inputs, error, context.span);
    case "leftIndex":
      return leftIndexStats(node, inputs, error);
    case "cbind":
    case "rbind":
      return bindStats(op.kind, inputs, error);
    case "nrow":
    case "ncol":
    case "length": {
      const a = operand(inputs, 0, op.kind);
      if (op.kind === "length" && a.items) return scalarStats(node.type, a.items.length);
      const value = op.kind === "nrow" ? a.rows : op.kind === "ncol" ? a.cols : cells(a);
      return scalarStats(node.type, isMatrix(a) && value !== null ? value : undefined);
    }
    case "cast":
      return castStats(op.to, node, operand(inputs, 0, op.to), error);
    case "read":
      return context.read(node, inputs) ?? fallback();
    case "call":
      if (!op.user && op.name === "list" && node.type.dataType === "list") return listStats(inputs);
      if (!op.user && APPEND_NAMES.has(op.name) && node.type.dataType === "list" && inputs[0]?.type.dataType === "list") return appendStats(inputs);
      if (!op.user && DNN_CALL_NAMES.has(op.name)) return dnnCallStats(node, inputs) ?? fallback();
      // Arguments keep their sketches: the call analysis memoizes by them too.
      return (op.user ? context.call(node, inputs) : (builtinCallStats(node, inputs, error) ?? context.call(node, inputs))) ?? fallback();
    case "diag":
    case "table":
    case "seq":
    case "matrix":
    case "rand":
      return constructorStats(node, inputs, error, context.span) ?? fallback();
  }
}

/**
 * The node's type, or where the DAG could not type it (a predicate reads
 * variables whose types it does not know) the type the operation has on the
 * actual input stats.
 */
function refined(node: DagNode, fromInputs: DagType): DagType {
  return node.type.dataType === "unknown" ? fromInputs : node.type;
}

function describe(s: NodeStats): string {
  const d = (n: number | null) => (n === null ? "?" : String(n));
  return `${d(s.rows)} x ${d(s.cols)}`;
}

function matmulStats(a: NodeStats, b: NodeStats, error: Report): NodeStats {
  // A non-matrix operand is a type error, reported by the DAG's typing.
  if (!isMatrix(a) || !isMatrix(b)) return matrixStats(null, null, null);
  if (a.cols !== null && b.rows !== null && a.cols !== b.rows) {
    error(`the inner dimensions of %*% do not match: ${describe(a)} %*% ${describe(b)}`, "dimension-mismatch");
    return matrixStats(a.rows, b.cols, null);
  }
  return matrixStats(a.rows, b.cols, matmulNnz(a, b));
}

/**
 * A matrix–matrix element-wise operation is valid when the dims are equal,
 * when one side is a row or column vector matching the other's columns or
 * rows (broadcast), for a column vector with a row vector (outer), or when one
 * side is 1 x 1.
 */
function broadcastDims(a: NodeStats, b: NodeStats): { rows: number | null; cols: number | null } | undefined {
  const dim = (x: number | null, y: number | null): number | null | undefined => {
    if (x === null || y === null) return x === 1 ? y : y === 1 ? x : x ?? y ?? null;
    if (x === y) return x;
    if (x === 1) return y;
    if (y === 1) return x;
    return undefined;
  };
  if (cells(a) === 1) return { rows: b.rows, cols: b.cols };
  if (cells(b) === 1) return { rows: a.rows, cols: a.cols };
  const rows = dim(a.rows, b.rows);
  const cols = dim(a.cols, b.cols);
  if (rows === undefined || cols === undefined) return undefined;
  return { rows, cols };
}

function binaryStats(op: ElementwiseBinaryOp, node: DagNode, a: NodeStats, b: NodeStats, error: Report): NodeStats {
  const aMatrix = isMatrix(a);
  const bMatrix = isMatrix(b);
  if (!aMatrix && !bMatrix) {
    const value = a.value !== undefined && b.value !== undefined ? foldBinary(op, a.value, b.value) : undefined;
    return scalarStats(refined(node, binaryType(op, a.type, b.type).type), value);
  }
  if (aMatrix && bMatrix) {
    const dims = broadcastDims(a, b);
    if (!dims) {
      error(`incompatible dimensions for '${op}': ${describe(a)} and ${describe(b)} (not equal, and neither side is a row or column vector that broadcasts)`, "dimension-mismatch");
      return matrixStats(null, null, null);
    }
    const out = matrixStats(dims.rows, dims.cols, null);
    out.nnz = elementwiseNnz(op, a, b, out);
    return out;
  }
  const matrix = aMatrix ? a : b;
  const scalar = aMatrix ? b : a;
  if (!isScalar(scalar)) {
    // A matrix with a value of unknown type (a scalar, or a matrix that broadcasts):
    // only a dim other than 1 is sure to be the result's.
    return matrixStats(matrix.rows === 1 ? null : matrix.rows, matrix.cols === 1 ? null : matrix.cols, null);
  }
  // Matrix with scalar: what happens to a zero cell decides the non-zeros.
  const out = matrixStats(matrix.rows, matrix.cols, null);
  const c = scalar.value;
  if (c === undefined || typeof c === "string") {
    out.nnz = annihilates(op) ? matrix.nnz : cells(matrix);
    return out;
  }
  const cNum = typeof c === "boolean" ? (c ? 1 : 0) : c;
  const atZero = aMatrix ? applyNumeric(op, 0, cNum) : applyNumeric(op, cNum, 0);
  if (isNonZero(atZero)) {
    out.nnz = cells(matrix);
    if ((op === "==" && cNum === 0) || (op === "!=" && cNum !== 0)) {
      // X == 0 is non-zero exactly where X is zero.
      const n = cells(matrix);
      out.nnz = n !== null && matrix.nnz !== null && op === "==" ? n - matrix.nnz : out.nnz;
      if (op === "==" && matrix.nnzExact) out.nnzExact = true;
    }
    return out;
  }
  out.nnz = matrix.nnz;
  // Operations that keep exactly the non-zero pattern.
  const keepsPattern =
    (op === "*" && cNum !== 0) ||
    (op === "/" && aMatrix && cNum !== 0) ||
    ((op === "+" || op === "-") && cNum === 0) ||
    (op === "^" && aMatrix && cNum > 0) ||
    (op === "!=" && cNum === 0);
  if (keepsPattern && matrix.nnzExact) out.nnzExact = true;
  if (op === "*" && cNum === 0) {
    out.nnz = 0;
    out.nnzExact = true;
  }
  return out;
}

/** `*` and `&`: a zero on either side gives a zero. */
function annihilates(op: ElementwiseBinaryOp): boolean {
  return op === "*" || op === "&" || op === "bitwAnd";
}

function elementwiseNnz(op: ElementwiseBinaryOp, a: NodeStats, b: NodeStats, out: NodeStats): number | null {
  if (annihilates(op)) return intersectionNnz(a, b, out);
  if (!isNonZero(applyNumeric(op, 0, 0))) return unionNnz(a, b, out);
  return cells(out);
}

function bindStats(kind: "cbind" | "rbind", inputs: NodeStats[], error: Report): NodeStats {
  const along = (s: NodeStats) => (kind === "cbind" ? s.cols : s.rows);
  const across = (s: NodeStats) => (kind === "cbind" ? s.rows : s.cols);
  let shared: number | null = null;
  for (const input of inputs) {
    const n = across(input);
    if (n === null) continue;
    if (shared !== null && n !== shared) {
      const what = kind === "cbind" ? "rows" : "columns";
      error(`${kind} needs the same number of ${what}: ${inputs.map(describe).join(", ")}`, "dimension-mismatch");
      return matrixStats(null, null, null);
    }
    shared = n;
  }
  const total = inputs.every((s) => along(s) !== null) ? inputs.reduce((sum, s) => sum + along(s)!, 0) : null;
  const nnz = inputs.every((s) => s.nnz !== null) ? inputs.reduce((sum, s) => sum + s.nnz!, 0) : null;
  const exact = inputs.every((s) => s.nnzExact === true);
  return kind === "cbind" ? matrixStats(shared, total, nnz, exact) : matrixStats(total, shared, nnz, exact);
}

function castStats(to: string, node: DagNode, a: NodeStats, error: Report): NodeStats {
  if (to === "scalar") {
    if (isMatrix(a) && a.rows !== null && a.cols !== null && (a.rows !== 1 || a.cols !== 1)) {
      error(`as.scalar needs a 1 x 1 matrix, but this one is ${describe(a)}`, "as-scalar-dims");
    }
    return scalarStats(node.type, isMatrix(a) ? undefined : a.value);
  }
  if (to === "matrix") {
    if (isMatrix(a)) return a;
    if (a.type.dataType === "list" || a.items) return listAsMatrixStats(a);
    // A frame keeps its dims; a value of unknown type has unknown dims.
    if (!isScalar(a)) return matrixStats(a.rows, a.cols, null);
    const nonZero = a.value === undefined ? null : isNonZero(typeof a.value === "string" ? Number(a.value) : Number(a.value)) ? 1 : 0;
    return matrixStats(1, 1, nonZero, nonZero !== null);
  }
  if (to === "frame") {
    if (isMatrix(a) || a.type.dataType === "frame") return { type: node.type, rows: a.rows, cols: a.cols, nnz: null };
    if (isScalar(a)) return { type: node.type, rows: 1, cols: 1, nnz: null };
    return { type: node.type, rows: null, cols: null, nnz: null };
  }
  // as.double/as.integer/as.logical of a matrix is that matrix (of doubles).
  if (isMatrix(a)) return { ...a, type: node.type.dataType === "matrix" ? node.type : a.type };
  if (!isScalar(a) || node.type.dataType !== "scalar") return { type: node.type, rows: null, cols: null, nnz: null };
  if (a.value === undefined) return scalarStats(node.type);
  const v = a.value;
  const n = typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
  if (to === "double") return scalarStats(node.type, n);
  if (to === "int") return scalarStats(node.type, Math.trunc(n));
  if (to === "boolean") return scalarStats(node.type, typeof v === "string" ? v.toUpperCase() === "TRUE" : n !== 0);
  return scalarStats(node.type);
}


/**
 * `as.matrix(list)`: a one-item list gives its item (a scalar as 1 x 1);
 * a list of scalars a column vector with one row per item (SystemDS's
 * list-to-matrix cast); otherwise, or when the items are unknown, unknown dims.
 */
function listAsMatrixStats(list: NodeStats): NodeStats {
  const items = list.items;
  if (!items) return matrixStats(null, null, null);
  if (items.length === 1) {
    const item = operand(items, 0, "as.matrix");
    if (isMatrix(item)) return item;
    if (isScalar(item)) return matrixStats(1, 1, null);
    return matrixStats(item.rows, item.cols, null);
  }
  if (items.every(isScalar)) return matrixStats(items.length, 1, null);
  return matrixStats(null, null, null);
}

/**
 * `append(list, x)`: the list's items and then `x` as one item; a one-item
 * list `x` adds its item (SystemDS unfolds it), a longer list is one nested
 * item, a list of unknown length one item of unknown stats.
 */
function appendStats(inputs: NodeStats[]): NodeStats {
  const list = operand(inputs, 0, "append");
  const added = inputs.slice(1);
  if (!list.items) return { type: { dataType: "list", valueType: "unknown" }, rows: null, cols: 1, nnz: null };
  const item = (x: NodeStats): NodeStats => {
    if (x.type.dataType !== "list") return x;
    const [only, ...more] = x.items ?? [];
    return only !== undefined && more.length === 0 ? only : x.items ? x : unknownStats;
  };
  return listStats([...list.items, ...added.map(item)]);
}

/**
 * `L[i]` or `L[i:j]` of a list: the list of those items, when the bounds are
 * constants (the node's own type stays as the typing gave it).
 */
function listIndexStats(node: DagNode, inputs: NodeStats[]): NodeStats {
  const list = operand(inputs, 0, "list indexing");
  const [, lower, upper] = inputs;
  const unknown: NodeStats = { type: node.type, rows: null, cols: null, nnz: null };
  const bound = (s: NodeStats | undefined) => (s && typeof s.value === "number" && Number.isInteger(s.value) ? s.value : undefined);
  const lo = bound(lower);
  const hi = bound(upper) ?? lo;
  if (!list.items || lo === undefined || hi === undefined || lo < 1 || hi < lo || hi > list.items.length) return unknown;
  return { ...listStats(list.items.slice(lo - 1, hi)), type: node.type };
}
