/**
 * The Cell template (SystemDS's TemplateCell): one pass over the cells of a
 * main input, cell-wise operations over it and side inputs (same-size
 * matrices, broadcast row/column vectors, scalars), ending with no
 * aggregation or a row, column or full sum, sumSq, min or max; a dot
 * product `t(x) %*% y` is a full sum of `x * y`.
 *
 * - open: a cell-wise operation (unary; binary matrix-scalar, matrix-vector,
 *   matrix-matrix; ifelse; replace; n-ary min/max) with a known result that
 *   is not 1 x 1;
 *   also the transpose `t(x)` of a column vector read only by dot products,
 *   so the product reads x (open-invalid: not an operator on its own);
 *   and a column range `X[, a:b]` (read in place from a materialized X,
 *   never fused into: X is not computed inside);
 * - fuse: into a cell-wise operation, a Cell aggregation, a dot product, or
 *   the transpose of a column vector;
 * - merge: at a cell-wise operation, any operand (of at most
 *   MAX_MERGED_OPERANDS matrix operands); at a dot product, its transposed
 *   left operand;
 * - close: a Cell aggregation or dot product closes (valid); another
 *   aggregation or product is invalid; a transpose stays open-invalid.
 */
import type { FusionDag } from "../fusion-dag";
import type { CloseDecision, FusionTemplate, OperatorBinding } from "../types";
import { chooseMainInput, sideAndScalarInputs } from "./input-binding";
import { shapeOf } from "./node-shapes";
import { aggregateOf, consumersOf, hasFewOperands, isCellAggregate, isCellwise, isColumnRangeIndex, isDotProduct, isMatmul, isTranspose } from "./operation-classes";
import { isSparseSafe } from "./sparse-safety";

export const cellTemplate: FusionTemplate = {
  type: "cell",
  open(dag, node) {
    const s = shapeOf(dag, node);
    if (isCellwise(dag, node) || isColumnRangeIndex(dag, node)) return !!s && !(s.rows === 1 && s.cols === 1);
    return isDotProductOperand(dag, node);
  },
  fuse(dag, node) {
    return isCellwise(dag, node) || isCellAggregate(dag, node) || isDotProduct(dag, node) || isVectorTranspose(dag, node);
  },
  merge(dag, node, input) {
    if (isCellwise(dag, node)) return hasFewOperands(dag, node);
    return isDotProduct(dag, node) && dag.nodes[node]!.inputs[0] === input;
  },
  close(dag, node): CloseDecision {
    if (isCellAggregate(dag, node) || isDotProduct(dag, node)) return "closed-valid";
    if (aggregateOf(dag, node) || isMatmul(dag, node)) return "closed-invalid";
    if (isTranspose(dag, node)) return "open-invalid";
    return "open-valid";
  },
  describe(dag, root, covered, inputs) {
    return describeCell(dag, root, covered, inputs);
  },
};

/** `t(x)` of a column vector: a row vector (1 x n, n > 1). */
function isVectorTranspose(dag: FusionDag, node: number): boolean {
  const s = shapeOf(dag, node);
  return isTranspose(dag, node) && !!s && s.rows === 1 && s.cols > 1;
}

/** `t(x)` read only as the left operand of dot products. */
function isDotProductOperand(dag: FusionDag, node: number): boolean {
  const consumers = consumersOf(dag, node);
  return isVectorTranspose(dag, node) && consumers.length > 0 && consumers.every((c) => isDotProduct(dag, c) && dag.nodes[c]!.inputs[0] === node);
}

/** The Cell variant of a root: `no-agg`, `row-agg`, `col-agg` or `full-agg`. */
function cellVariant(dag: FusionDag, root: number): string {
  if (isDotProduct(dag, root)) return "full-agg";
  const agg = aggregateOf(dag, root);
  if (!agg) return "no-agg";
  return agg.direction === "full" ? "full-agg" : agg.direction === "row" ? "row-agg" : "col-agg";
}

/** The cells the skeleton iterates: the aggregated value's (the product's right operand for a dot product), else the root's. */
export function iterationNode(dag: FusionDag, root: number): number {
  if (isDotProduct(dag, root)) return dag.nodes[root]!.inputs[1]!;
  return aggregateOf(dag, root) ? dag.nodes[root]!.inputs[0]! : root;
}

function describeCell(dag: FusionDag, root: number, covered: ReadonlySet<number>, inputs: readonly number[]): OperatorBinding | undefined {
  if (inputs.every((i) => dag.stats[i]?.type.dataType === "scalar")) return undefined;
  const shape = shapeOf(dag, iterationNode(dag, root));
  const agg = aggregateOf(dag, root);
  const aggregationSkipsZeros = !agg || agg.fn === "sum" || agg.fn === "sumSq";
  const { main, sparseSafe } = chooseMainInput(dag, inputs, shape, (m) => aggregationSkipsZeros && isSparseSafe(dag, covered, [root], m));
  return { mainInput: main, ...sideAndScalarInputs(dag, inputs, main), variant: cellVariant(dag, root), sparseSafe };
}
