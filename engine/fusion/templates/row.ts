/**
 * The Row template (SystemDS's TemplateRow): one pass over the rows of a
 * main input X; per row, vector operations, row aggregates and products
 * with vectors or skinny matrices, so `X %*% v` chains, softmax rows and
 * `t(X) %*% (...)` (a column aggregation of row results) read X once.
 *
 * - open: a cell-wise binary operation whose left operand is a matrix (more
 *   than one row and column); a cell-wise unary or `replace` with more than
 *   one row; an n-ary min/max of matrices; `cbind` of operands with the
 *   same rows (more than one); `X %*% v`; `X %*% B` with B skinny; a row or column sum, min,
 *   max or mean of a matrix; rowIndexMax/Min of a matrix; and `t(X)` read
 *   only as the left operand of `t(X) %*% v` or a skinny `t(X) %*% B`, so
 *   the product reads X's rows (open-invalid: not an operator alone);
 * - fuse: into a cell-wise operation (not ifelse), a row or column
 *   aggregate of those functions, a full sum, rowIndexMax/Min, cbind,
 *   `t(X) %*% v` and the skinny `t(X) %*% B`;
 * - merge: at a cell-wise binary operation, an operand with more than one
 *   row (when the result has several); at cbind or n-ary min/max, any (of
 *   at most MAX_MERGED_OPERANDS matrix operands); at `t(X) %*% B`, the transposed X, a
 *   column-vector B, or a B computed from X;
 * - close: a column or full aggregation and `t(X) %*% B` close (valid); a
 *   transpose stays open-invalid. A Row operator must be worth having: it
 *   contains an inner row aggregation, or Cell cannot compute its root;
 *   otherwise the entry is invalid (Cell covers the same cells).
 *
 * Sparse-safe (row-sparse-safety.ts): skipping X's empty rows gives the
 * same result.
 *
 * Variants (SystemDS's RowType) by the root's shape against X (n x m) and
 * a skinny matrix B1 (m x k) of a product: `no-agg` (n x m), `no-agg-b1`
 * (n x k), `row-agg` (n x 1), `full-agg` (scalar), `col-agg-t` (m x 1),
 * `col-agg` (1 x m), `col-agg-b1-t` (m x k), `col-agg-b1` (k x m),
 * `col-agg-b1r` (1 x k), `no-agg-const` (n x c), `col-agg-const` (1 x c).
 */
import type { FusionDag } from "../fusion-dag";
import type { CloseDecision, FusionTemplate, OperatorBinding } from "../types";
import { largestFirst, sideAndScalarInputs } from "./input-binding";
import { callArgument, isFullMatrix, isScalar, sameShape, shapeOf } from "./node-shapes";
import {
  aggregateOf,
  builtinName,
  consumersOf,
  hasFewOperands,
  isCellwise,
  isMatmul,
  isNaryMinMax,
  isRowIndexAggregate,
  isRowProduct,
  isSkinnyTransposedProduct,
  isTranspose,
  isTransposedLeftMatmul,
  ROW_AGGREGATES,
} from "./operation-classes";
import { rowOperatorWorthwhile } from "./row-facts";
import { isRowSparseSafe } from "./row-sparse-safety";
import { computedFromAny } from "./computed-from";

export const rowTemplate: FusionTemplate = {
  type: "row",
  open(dag, node) {
    const n = dag.nodes[node]!;
    const s = shapeOf(dag, node);
    switch (n.op.kind) {
      case "binary":
        return isCellwise(dag, node) && isFullMatrix(shapeOf(dag, n.inputs[0]!));
      case "unary":
        return isCellwise(dag, node) && !!s && s.rows > 1;
      case "matmul":
        return isRowProduct(dag, node);
      case "transpose":
        return isRowTransposedOperand(dag, node);
      case "aggregate":
        return n.op.direction !== "full" && ROW_AGGREGATES.has(n.op.fn) && isFullMatrix(shapeOf(dag, n.inputs[0]!));
      case "call":
        if (builtinName(dag, node) === "replace") return isCellwise(dag, node) && !!s && s.rows > 1;
        if (isNaryMinMax(dag, node)) return isFullMatrix(s);
        return isRowIndexAggregate(dag, node) && isFullMatrix(shapeOf(dag, callArgument(dag, node, "target")!));
      case "cbind":
        return isRowCbind(dag, node);
      default:
        return false;
    }
  },
  fuse(dag, node) {
    const agg = aggregateOf(dag, node);
    if (agg) return agg.direction === "full" ? agg.fn === "sum" : ROW_AGGREGATES.has(agg.fn);
    if (isCellwise(dag, node)) return builtinName(dag, node) !== "ifelse";
    if (isRowIndexAggregate(dag, node) || isRowCbind(dag, node)) return true;
    return isTransposedLeftMatmul(dag, node) && isRowWiseTransposedProduct(dag, node);
  },
  merge(dag, node, input) {
    const n = dag.nodes[node]!;
    if (n.op.kind === "binary" && isCellwise(dag, node)) return (shapeOf(dag, node)?.rows ?? 0) > 1 && (shapeOf(dag, input)?.rows ?? 0) > 1;
    if (isRowCbind(dag, node) || isNaryMinMax(dag, node)) return hasFewOperands(dag, node);
    if (!isTransposedLeftMatmul(dag, node)) return false;
    const [left, right] = n.inputs as [number, number];
    if (input === left) return true;
    return shapeOf(dag, input)?.cols === 1 || (input === right && computedFromAny(dag, right, new Set([dag.nodes[left]!.inputs[0]!])));
  },
  close(dag, node): CloseDecision {
    if (isTranspose(dag, node)) return "open-invalid";
    const agg = aggregateOf(dag, node);
    const closes = (agg && agg.direction !== "row") || isTransposedLeftMatmul(dag, node);
    const worthwhile = rowOperatorWorthwhile(dag, node);
    if (closes) return worthwhile ? "closed-valid" : "closed-invalid";
    return worthwhile ? "open-valid" : "open-invalid";
  },
  describe(dag, root, covered, inputs) {
    return describeRow(dag, root, covered, inputs);
  },
};

/** `cbind(A, B, ...)` of matrices with the same (known, more than one) rows: appended per row. */
function isRowCbind(dag: FusionDag, node: number): boolean {
  const n = dag.nodes[node]!;
  const out = shapeOf(dag, node);
  if (n.op.kind !== "cbind" || !out || out.rows <= 1) return false;
  return n.inputs.every((i) => shapeOf(dag, i)?.rows === out.rows);
}

/** `t(X) %*% v` (a column-vector result) or a skinny `t(X) %*% B`, over a matrix X. */
function isRowWiseTransposedProduct(dag: FusionDag, node: number): boolean {
  const out = shapeOf(dag, node);
  if (!out) return false;
  const transposed = shapeOf(dag, dag.nodes[node]!.inputs[0]!);
  if (out.rows > 1 && out.cols === 1) return true;
  return isSkinnyTransposedProduct(dag, node) && isFullMatrix(transposed);
}

/** `t(X)` of a matrix, read only as the left operand of row-wise products `t(X) %*% B`. */
function isRowTransposedOperand(dag: FusionDag, node: number): boolean {
  if (!isFullMatrix(shapeOf(dag, dag.nodes[node]!.inputs[0]!))) return false;
  const consumers = consumersOf(dag, node);
  return (
    consumers.length > 0 &&
    consumers.every((c) => isMatmul(dag, c) && dag.nodes[c]!.inputs[0] === node && dag.nodes[c]!.inputs[1] !== node && isRowWiseTransposedProduct(dag, c))
  );
}

/**
 * The main input X: a matrix the operator reads by rows in a product
 * (`X %*% B`, or `t(X) %*% B` through a covered transpose), else the
 * largest matrix input.
 */
function mainRowInput(dag: FusionDag, covered: ReadonlySet<number>, inputs: readonly number[]): number | null {
  const readByProducts = new Set<number>();
  for (const node of covered) {
    if (!isMatmul(dag, node)) continue;
    const left = dag.nodes[node]!.inputs[0]!;
    if (inputs.includes(left)) readByProducts.add(left);
    else if (covered.has(left) && isTranspose(dag, left) && inputs.includes(dag.nodes[left]!.inputs[0]!)) readByProducts.add(dag.nodes[left]!.inputs[0]!);
  }
  const preferred = largestFirst(dag, [...readByProducts]);
  return preferred[0] ?? largestFirst(dag, inputs).find((i) => shapeOf(dag, i) !== undefined) ?? null;
}

/** A skinny right operand B of a covered product `X %*% B` or `t(X) %*% B`. */
function skinnySideMatrix(dag: FusionDag, covered: ReadonlySet<number>, inputs: readonly number[]): number | undefined {
  for (const node of [...covered].sort((a, b) => a - b)) {
    if (!isMatmul(dag, node)) continue;
    const right = dag.nodes[node]!.inputs[1]!;
    const s = shapeOf(dag, right);
    if (inputs.includes(right) && s && s.cols > 1) return right;
  }
  return undefined;
}

/** The Row variant of an operator rooted at `root` over X (and B1), or undefined when the root's shape fits none. */
function rowVariant(dag: FusionDag, root: number, x: number | null, b1: number | undefined): string | undefined {
  if (isScalar(dag, root)) return aggregateOf(dag, root)?.direction === "full" ? "full-agg" : undefined;
  const out = shapeOf(dag, root);
  const xs = x === null ? undefined : shapeOf(dag, x);
  if (!out) return undefined;
  if (!xs || sameShape(out, xs)) return "no-agg";
  const b = b1 === undefined ? undefined : shapeOf(dag, b1);
  const transposedProductOfX = isTransposedLeftMatmul(dag, root) && dag.nodes[dag.nodes[root]!.inputs[0]!]!.inputs[0] === x;
  const matches = (rows: number, cols: number) => out.rows === rows && out.cols === cols;
  if (b && !transposedProductOfX && matches(xs.rows, b.cols)) return "no-agg-b1";
  if (!transposedProductOfX && matches(xs.rows, 1)) return "row-agg";
  if (matches(xs.cols, 1)) return "col-agg-t";
  if (matches(1, xs.cols)) return "col-agg";
  if (b && matches(xs.cols, b.cols)) return "col-agg-b1-t";
  if (b && matches(b.cols, xs.cols)) return "col-agg-b1";
  if (b && matches(1, b.cols)) return "col-agg-b1r";
  if (out.rows === xs.rows) return "no-agg-const";
  if (out.rows === 1) return "col-agg-const";
  return undefined;
}

function describeRow(dag: FusionDag, root: number, covered: ReadonlySet<number>, inputs: readonly number[]): OperatorBinding | undefined {
  if (inputs.every((i) => isScalar(dag, i))) return undefined;
  const main = mainRowInput(dag, covered, inputs);
  const variant = rowVariant(dag, root, main, skinnySideMatrix(dag, covered, inputs));
  if (variant === undefined) return undefined;
  const sparseSafe = main !== null && isRowSparseSafe(dag, covered, root, main);
  return { mainInput: main, ...sideAndScalarInputs(dag, inputs, main), variant, sparseSafe };
}
