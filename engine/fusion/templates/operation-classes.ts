/**
 * Which DAG operations the templates can compute, as classes over our
 * DagOps (SystemDS's TemplateUtils / HopRewriteUtils predicates, adapted):
 * cell-wise operations, aggregations, matrix products and their shapes
 * (matrix-vector, skinny, outer-product-like, dot product), transposes, and
 * the binary operations that keep the zeros of a sparse operand.
 */
import { ALL_INDICES, type AggregateDirection, type AggregateFunction } from "../../program";
import type { FusionDag } from "../fusion-dag";
import { applyNumeric } from "../../stats/sizes/scalar-fold";
import { callArgument, isColumnVector, isFullMatrix, isRowVector, isScalar, isVector, sameShape, shapeOf } from "./node-shapes";

/** Aggregations a Cell operator can close with (any direction): SystemDS's SUM, SUM_SQ, MIN, MAX. */
export const CELL_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "min", "max"]);

/** Row and column aggregations of a Row operator: SUM, MIN, MAX, MEAN (a full aggregation only as sum). */
export const ROW_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(["sum", "min", "max", "mean"]);

/** Aggregations whose result ignores zero cells (a zero adds nothing; mean divides the sum by a count it knows). */
export const ZERO_SKIPPING_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "mean"]);

export function aggregateOf(dag: FusionDag, node: number): { fn: AggregateFunction; direction: AggregateDirection } | undefined {
  const op = dag.nodes[node]!.op;
  return op.kind === "aggregate" ? { fn: op.fn, direction: op.direction } : undefined;
}

/** sum, sumSq, min or max in any direction, over a matrix of known size. */
export function isCellAggregate(dag: FusionDag, node: number): boolean {
  const agg = aggregateOf(dag, node);
  return !!agg && CELL_AGGREGATES.has(agg.fn) && shapeOf(dag, dag.nodes[node]!.inputs[0]!) !== undefined;
}

/** The name of a builtin (not user-defined) call. */
export function builtinName(dag: FusionDag, node: number): string | undefined {
  const op = dag.nodes[node]!.op;
  return op.kind === "call" && !op.user && op.output === 0 ? op.name : undefined;
}

export function isTranspose(dag: FusionDag, node: number): boolean {
  return dag.nodes[node]!.op.kind === "transpose";
}

export function isMatmul(dag: FusionDag, node: number): boolean {
  return dag.nodes[node]!.op.kind === "matmul";
}

/** `t(A) %*% B`: the left operand is a transpose. */
export function isTransposedLeftMatmul(dag: FusionDag, node: number): boolean {
  return isMatmul(dag, node) && isTranspose(dag, dag.nodes[node]!.inputs[0]!);
}

/** rowIndexMax / rowIndexMin: a row aggregation the Row template computes per row. */
export function isRowIndexAggregate(dag: FusionDag, node: number): boolean {
  const name = builtinName(dag, node);
  if (name !== "rowIndexMax" && name !== "rowIndexMin") return false;
  const target = callArgument(dag, node, "target");
  return target !== undefined && shapeOf(dag, node) !== undefined && shapeOf(dag, target) !== undefined;
}

/**
 * A cell-wise operation with a matrix result of known size (SystemDS's
 * TemplateCell.isValidOperation): a unary operation, a binary operation of
 * a matrix with a scalar, with a broadcast row or column vector, or with a
 * matrix of the same size (not an outer operation of two vectors),
 * `ifelse`, `replace`, and `min`/`max` of several arguments.
 */
export function isCellwise(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  const out = shapeOf(dag, node);
  if (!out) return false;
  switch (n.op.kind) {
    case "unary":
      return shapeOf(dag, n.inputs[0]!) !== undefined;
    case "binary":
      return isCellwiseBinary(dag, node);
    case "call": {
      const name = builtinName(dag, node);
      if (name === "ifelse") return n.inputs.length === 3 && n.inputs.every((i) => isScalar(dag, i) || sameShape(shapeOf(dag, i), out));
      if (name === "replace") {
        const target = callArgument(dag, node, "target");
        return target !== undefined && sameShape(shapeOf(dag, target), out);
      }
      return isNaryMinMax(dag, node);
    }
    default:
      return false;
  }
}

/** `min(A, B, C, ...)` / `max(...)` of same-size matrices and scalars, cell by cell (SystemDS's n-ary MIN/MAX). */
export function isNaryMinMax(dag: FusionDag, node: number): boolean {
  const name = builtinName(dag, node);
  const n = dag.nodes[node]!;
  const out = shapeOf(dag, node);
  return (name === "min" || name === "max") && !!out && n.inputs.length >= 2 && n.inputs.every((i) => isScalar(dag, i) || sameShape(shapeOf(dag, i), out));
}

function isCellwiseBinary(dag: FusionDag, node: number): boolean {
  const [a, b] = dag.nodes[node]!.inputs as [number, number];
  const out = shapeOf(dag, node)!;
  const sa = shapeOf(dag, a);
  const sb = shapeOf(dag, b);
  if (isScalar(dag, a)) return sameShape(sb, out);
  if (isScalar(dag, b)) return sameShape(sa, out);
  if (!sa || !sb) return false;
  if (sameShape(sa, sb)) return true;
  // One side a vector that broadcasts over the other, which has the result's shape.
  return (sameShape(sa, out) && broadcasts(sb, out)) || (sameShape(sb, out) && broadcasts(sa, out));
}

function broadcasts(vector: { rows: number; cols: number }, over: { rows: number; cols: number }): boolean {
  if (!isVector(vector)) return false;
  return (isColumnVector(vector) && vector.rows === over.rows) || (isRowVector(vector) && vector.cols === over.cols);
}

/**
 * `X[, a:b]` (SystemDS's column-range right indexing, which its Cell and
 * Row templates read in place): all rows of a matrix X with more than one
 * row, a range of its columns, with a known result shape. Its cell (i, j)
 * is X's cell (i, a - 1 + j), so an operator reads X at an offset instead
 * of materializing the slice; X itself is always read materialized.
 */
export function isColumnRangeIndex(dag: FusionDag, node: number): boolean {
  if (!isColumnRangeSyntax(dag, node)) return false;
  const [x, , , cl, cu] = dag.nodes[node]!.inputs as [number, number, number, number, number];
  const out = shapeOf(dag, node);
  const xs = shapeOf(dag, x);
  if (!out || !xs || xs.rows <= 1 || out.rows !== xs.rows) return false;
  return isScalar(dag, cl) && isScalar(dag, cu);
}

/** `X[, a:b]` as written: a right indexing whose row bounds are both `:` and whose column bounds are given (shapes unchecked). */
export function isColumnRangeSyntax(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  if (n.op.kind !== "index" || n.inputs.length !== 5) return false;
  const [, rl, ru, cl, cu] = n.inputs as [number, number, number, number, number];
  const all = (i: number) => {
    const op = dag.nodes[i]!.op;
    return op.kind === "literal" && op.value === ALL_INDICES;
  };
  return all(rl) && all(ru) && !all(cl) && !all(cu);
}

/** A binary operation of a matrix with a scalar. */
export function isMatrixScalarBinary(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  if (n.op.kind !== "binary") return false;
  const [a, b] = n.inputs as [number, number];
  return (isScalar(dag, a) && shapeOf(dag, b) !== undefined) || (isScalar(dag, b) && shapeOf(dag, a) !== undefined);
}

/** A binary operation of a matrix with a row vector (the left operand has more rows). */
export function isMatrixRowVectorBinary(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  if (n.op.kind !== "binary") return false;
  const sa = shapeOf(dag, n.inputs[0]!);
  const sb = shapeOf(dag, n.inputs[1]!);
  return !!sa && !!sb && sa.rows > sb.rows;
}

/**
 * `U %*% t(V)` shaped: the common dimension is smaller than both result
 * dimensions (left operand taller than wide, right operand wider than tall).
 */
export function isOuterProductLike(dag: FusionDag, node: number): boolean {
  if (!isMatmul(dag, node) || !shapeOf(dag, node)) return false;
  const [a, b] = dag.nodes[node]!.inputs.map((i) => shapeOf(dag, i));
  return !!a && !!b && a.rows > a.cols && b.rows < b.cols;
}

/** A matrix-vector product `A %*% v` (a column-vector result) over a matrix with several rows and columns. */
export function isMatrixVectorProduct(dag: FusionDag, node: number): boolean {
  if (!isMatmul(dag, node)) return false;
  const out = shapeOf(dag, node);
  return !!out && out.cols === 1 && isFullMatrix(shapeOf(dag, dag.nodes[node]!.inputs[0]!));
}

/**
 * A product with a skinny right-hand side (SystemDS's LibMatrixMult
 * isSkinnyRightHandSide): the right operand has 2 to 63 columns and the
 * left operand at least twice as many rows as the right one.
 */
function isSkinnyRightHandSide(leftRows: number, rightRows: number, rightCols: number): boolean {
  return leftRows >= 2 * rightRows && rightCols > 1 && rightCols < 64;
}

/** `A %*% B` with A a matrix and B skinny (the Row template reads a row of A and all of B). */
export function isSkinnyProduct(dag: FusionDag, node: number): boolean {
  if (!isMatmul(dag, node)) return false;
  const [a, b] = dag.nodes[node]!.inputs.map((i) => shapeOf(dag, i));
  return !!a && !!b && isFullMatrix(a) && isSkinnyRightHandSide(a.rows, b.rows, b.cols) && !isOuterProductLike(dag, node);
}

/** A product a Row kernel computes row by row, row i of A times a B it reads whole: `A %*% v` or `A %*% B` with B skinny. */
export function isRowProduct(dag: FusionDag, node: number): boolean {
  return isMatrixVectorProduct(dag, node) || isSkinnyProduct(dag, node);
}

/**
 * `t(A) %*% B` computed row by row over A (SystemDS's isFuseSkinnyMatrixMult):
 * A's row i times B's row i, accumulated, where the result or B is skinny.
 */
export function isSkinnyTransposedProduct(dag: FusionDag, node: number): boolean {
  if (!isMatmul(dag, node)) return false;
  const [ta, b] = dag.nodes[node]!.inputs as [number, number];
  const t = shapeOf(dag, ta);
  const sb = shapeOf(dag, b);
  const out = shapeOf(dag, node);
  if (!t || !sb || !out) return false;
  return isSkinnyRightHandSide(t.cols, out.rows, out.cols) || isSkinnyRightHandSide(sb.rows, out.cols, out.rows);
}

/** `t(x) %*% y` with a 1 x 1 result: a dot product, i.e. sum(x * y). */
export function isDotProduct(dag: FusionDag, node: number): boolean {
  const out = shapeOf(dag, node);
  return isTransposedLeftMatmul(dag, node) && !!out && out.rows === 1 && out.cols === 1;
}

/** The constant value of a scalar node, when the analysis knows it. */
export function constantOf(dag: FusionDag, node: number): number | undefined {
  const v = dag.stats[node]?.value;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return undefined;
}

/**
 * A binary operation whose result is zero wherever its matrix operand is
 * zero (SystemDS's isBinarySparseSafe): `*`, `/`, or an operation with a
 * constant scalar that maps 0 to 0 (`X != 0`, `X > 0`, `X^2`, `X - 0`, ...).
 */
export function isSparseSafeBinary(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  if (n.op.kind !== "binary") return false;
  if (n.op.op === "*" || n.op.op === "/") return true;
  const [a, b] = n.inputs as [number, number];
  const ca = isScalar(dag, a) ? constantOf(dag, a) : undefined;
  const cb = isScalar(dag, b) ? constantOf(dag, b) : undefined;
  if (cb !== undefined && !isScalar(dag, a)) return mapsZeroToZero(applyNumeric(n.op.op, 0, cb));
  if (ca !== undefined && !isScalar(dag, b)) return mapsZeroToZero(applyNumeric(n.op.op, ca, 0));
  return false;
}

export function mapsZeroToZero(v: number | boolean | undefined): boolean {
  return v === 0 || v === false;
}

/**
 * The most matrix operands a node may merge operators from: exploration
 * enumerates every subset of the mergeable operands (2^k entries), so an
 * n-ary `min`/`max` or `cbind` of many computed operands merges none and
 * reads them materialized (SystemDS's memo entries hold at most 3 inputs).
 */
const MAX_MERGED_OPERANDS = 4;

export function hasFewOperands(dag: FusionDag, node: number): boolean {
  return new Set(dag.nodes[node]!.inputs.filter((i) => !isScalar(dag, i))).size <= MAX_MERGED_OPERANDS;
}

/** The node's single consumers, each once. */
export function consumersOf(dag: FusionDag, node: number): number[] {
  return [...new Set(dag.consumers[node] ?? [])];
}
