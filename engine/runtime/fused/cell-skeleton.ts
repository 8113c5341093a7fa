/**
 * The Cell and MAgg skeletons. Cell: one loop over the cells of the output
 * domain (the shape of the main input), the covered element-wise
 * expression per cell, then no aggregation (the cells are the result) or
 * a row, column or full aggregation of the cell values. MAgg: several full
 * aggregates over the same domain in one loop. A 1 x 1 product
 * `t(x) %*% y` closes a Cell operator as the sum of x * y over the cells.
 *
 * When the binding is sparse-safe, only the cells where the main input is
 * not zero are visited; the others are taken as 0 (they add nothing to a
 * sum; a 0 in a min, max or mean). If the analysis that said so is wrong,
 * the result differs from the unfused one.
 */
import type { AggregateFunction } from "../../program";
import { aggregateValue, type Value } from "../interpreter";
import { aggregateFull } from "../kernels";
import { DenseMatrix, type Matrix } from "../matrix";
import { CellExpression } from "./cell-expression";
import { operatorFailure } from "./fused-error";
import type { OperatorContext } from "./operator-context";
import { shapeText, type NodeShape } from "./operator-shapes";

/** Aggregations a cell skeleton folds its cells with. */
const CELL_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "min", "max", "mean", "prod"]);

/** One root of a Cell or MAgg operator: what is computed per cell of the domain, and how the cells become the root's value. */
interface CellRoot {
  domain: NodeShape;
  cell(i: number, j: number): number;
  finish(cells: DenseMatrix): Value;
}

export function evaluateCellOperator(ctx: OperatorContext): Map<number, Value> {
  if (ctx.op.roots.length !== 1) operatorFailure(ctx.dag, ctx.op, undefined, `a Cell operator has one root, not ${ctx.op.roots.length}`);
  const expression = new CellExpression(ctx.dag, ctx.op, ctx.inputs, ctx.shapes, { matmulInside: false });
  const root = ctx.op.roots[0]!;
  const plan = cellRoot(ctx, expression, root, true);
  return new Map([[root, plan.finish(runCells(ctx, root, plan))]]);
}

export function evaluateMultiAggregate(ctx: OperatorContext): Map<number, Value> {
  if (ctx.op.roots.length === 0) operatorFailure(ctx.dag, ctx.op, undefined, "a MAgg operator without roots");
  const expression = new CellExpression(ctx.dag, ctx.op, ctx.inputs, ctx.shapes, { matmulInside: false });
  const results = new Map<number, Value>();
  for (const root of ctx.op.roots) {
    const plan = cellRoot(ctx, expression, root, false);
    results.set(root, plan.finish(runCells(ctx, root, plan)));
  }
  return results;
}

function cellRoot(ctx: OperatorContext, expression: CellExpression, root: number, cellwiseAllowed: boolean): CellRoot {
  const node = ctx.dag.nodes[root]!;
  const o = node.op;
  if (o.kind === "aggregate") {
    if (!CELL_AGGREGATES.has(o.fn)) operatorFailure(ctx.dag, ctx.op, root, `a cell skeleton cannot aggregate with ${o.fn} in one pass`);
    if (!cellwiseAllowed && o.direction !== "full") operatorFailure(ctx.dag, ctx.op, root, `a MAgg root must be a full aggregate, not a ${o.direction} aggregate`);
    const input = node.inputs[0]!;
    const domain = expression.shape(input);
    if (domain.scalar) operatorFailure(ctx.dag, ctx.op, root, "aggregate of a scalar");
    return {
      domain,
      cell: (i, j) => expression.at(input, i, j),
      finish: (cells) => aggregateValue(o.fn, o.direction, { kind: "matrix", matrix: cells }),
    };
  }
  if (o.kind === "matmul") {
    // t(x) %*% y with a 1 x 1 result: the sum of x * y over the cells of y.
    const [a, b] = node.inputs as [number, number];
    const shape = expression.shape(root);
    if (shape.rows !== 1 || shape.cols !== 1) operatorFailure(ctx.dag, ctx.op, root, `a cell skeleton computes a matrix product only as a dot product (1 x 1), not ${shapeText(shape)}`);
    return {
      domain: expression.shape(b),
      cell: (k) => expression.at(a, 0, k) * expression.at(b, k, 0),
      finish: (cells) => ({ kind: "matrix", matrix: DenseMatrix.filled(1, 1, aggregateFull("sum", cells)) }),
    };
  }
  if (!cellwiseAllowed) operatorFailure(ctx.dag, ctx.op, root, "a MAgg root must be a full aggregate");
  const domain = expression.shape(root);
  if (domain.scalar) operatorFailure(ctx.dag, ctx.op, root, "a Cell operator over scalars only has no cells to loop over");
  return { domain, cell: (i, j) => expression.at(root, i, j), finish: (cells) => ({ kind: "matrix", matrix: cells }) };
}

/** The root's per-cell values over its domain: visited cells computed, the others 0. */
function runCells(ctx: OperatorContext, root: number, plan: CellRoot): DenseMatrix {
  const { rows, cols } = plan.domain;
  const visit = visitedCells(ctx, root, plan.domain);
  const out = new DenseMatrix(rows, cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (visit(i, j)) out.data[i * cols + j] = plan.cell(i, j);
  return out;
}

/**
 * Which cells of the domain the skeleton visits: all of them, or with a
 * sparse-safe binding those where the main input is not 0. The main input
 * has the domain's shape (or, for a vector, the transposed one).
 */
function visitedCells(ctx: OperatorContext, root: number, domain: NodeShape): (i: number, j: number) => boolean {
  const main = mainMatrix(ctx);
  if (main === undefined) {
    if (ctx.op.binding.sparseSafe) operatorFailure(ctx.dag, ctx.op, root, "sparse-safe without a main input");
    return () => true;
  }
  const same = main.rows === domain.rows && main.cols === domain.cols;
  const transposed = (domain.rows === 1 || domain.cols === 1) && main.rows === domain.cols && main.cols === domain.rows;
  if (!same && !transposed) operatorFailure(ctx.dag, ctx.op, root, `the main input is ${main.rows} x ${main.cols} but the cells computed are ${shapeText(domain)}`);
  if (!ctx.op.binding.sparseSafe) return () => true;
  return same ? (i, j) => main.get(i, j) !== 0 : (i, j) => main.get(j, i) !== 0;
}

/** The main input's matrix (undefined when the binding has none). */
export function mainMatrix(ctx: OperatorContext): Matrix | undefined {
  const main = ctx.op.binding.mainInput;
  if (main === null) return undefined;
  const value = ctx.inputs.get(main);
  if (!value || value.kind !== "matrix") operatorFailure(ctx.dag, ctx.op, main, "the main input is not a matrix input of the operator");
  return value.matrix;
}
