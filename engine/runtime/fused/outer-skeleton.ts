/**
 * The Outer skeleton: one loop over the non-zeros (i, j) of the sparse
 * driver X (the main input), with the factors U and V of a low-rank
 * product read by row: `U %*% t(V)` at (i, j) is dot(U_i, V_j), and the
 * covered cell expression is computed at (i, j) only. The cells where X is
 * 0 are never visited: they count as 0. What the operator produces depends
 * on the covered nodes above the cell expression W:
 * - cell-wise: W itself, with X's pattern;
 * - an aggregate of W (`sum(W)`), over the visited cells;
 * - right: `W %*% B` (B = V): out_i += w_ij * B_j;
 * - left: `t(W) %*% B` (B = U): out_j += w_ij * B_i;
 * and the mirrored products `A %*% W` and `A %*% t(W)` (`t(U) %*% W`), also
 * transposed as the root (`t(t(U) %*% W)`).
 */
import type { AggregateFunction } from "../../program";
import { aggregateValue, type Value } from "../interpreter";
import { DenseMatrix } from "../matrix";
import { transpose } from "../kernels";
import { CellExpression } from "./cell-expression";
import { mainMatrix } from "./cell-skeleton";
import { operatorFailure } from "./fused-error";
import type { OperatorContext } from "./operator-context";
import { sameShape, shapeText, type NodeShape } from "./operator-shapes";

const OUTER_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(["sum", "sumSq", "min", "max", "mean"]);

/** A product with the cell expression: which side W is on and whether it is transposed. */
interface CellProduct {
  /** The covered node of X's shape computed per non-zero. */
  cells: number;
  /** The other operand, read whole. */
  other: number;
  /** W is the left operand (W %*% B, t(W) %*% B), else the right one (A %*% W, A %*% t(W)). */
  left: boolean;
  transposed: boolean;
}

export function evaluateOuterOperator(ctx: OperatorContext): Map<number, Value> {
  const driver = mainMatrix(ctx) ?? operatorFailure(ctx.dag, ctx.op, undefined, "an Outer operator needs its sparse driver as main input");
  const domain: NodeShape = { rows: driver.rows, cols: driver.cols, scalar: false };
  const expression = new CellExpression(ctx.dag, ctx.op, ctx.inputs, ctx.shapes, { matmulInside: true });
  const covered = new Set(ctx.op.covered);
  const alignment = driverAlignment(ctx, ctx.op.binding.mainInput!);
  // A node of X's shape computed per cell of X: not read through a transpose of X (a square X would hide one).
  const ofDomain = (node: number) => covered.has(node) && sameShape(expression.shape(node), domain) && alignment.get(node) !== "transposed";
  const isCells = (node: number) => ofDomain(node) && alignment.get(node) === "direct";
  const nonZeros: [number, number][] = [];
  for (let i = 0; i < driver.rows; i++) for (let j = 0; j < driver.cols; j++) if (driver.get(i, j) !== 0) nonZeros.push([i, j]);

  /** W's values at the non-zeros of X, zeros elsewhere. */
  const cellValues = (node: number): DenseMatrix => {
    const out = new DenseMatrix(domain.rows, domain.cols);
    for (const [i, j] of nonZeros) out.data[i * domain.cols + j] = expression.at(node, i, j);
    return out;
  };

  const results = new Map<number, Value>();
  for (const root of ctx.op.roots) {
    const node = ctx.dag.nodes[root]!;
    const o = node.op;
    const product = o.kind === "matmul" ? cellProduct(ctx, node.inputs as [number, number], isCells) : undefined;
    const below = o.kind === "transpose" && covered.has(node.inputs[0]!) ? ctx.dag.nodes[node.inputs[0]!]! : undefined;
    const transposedProduct = below?.op.kind === "matmul" ? cellProduct(ctx, below.inputs as [number, number], isCells) : undefined;
    if (product) {
      results.set(root, { kind: "matrix", matrix: productOverNonZeros(ctx, root, expression, product, nonZeros) });
    } else if (transposedProduct) {
      // t(t(U) %*% W): the product accumulated over the non-zeros, then transposed.
      results.set(root, { kind: "matrix", matrix: transpose(productOverNonZeros(ctx, below!.id, expression, transposedProduct, nonZeros)) });
    } else if (o.kind === "aggregate" && ofDomain(node.inputs[0]!)) {
      if (!OUTER_AGGREGATES.has(o.fn)) operatorFailure(ctx.dag, ctx.op, root, `an Outer skeleton cannot aggregate with ${o.fn}`);
      results.set(root, aggregateValue(o.fn, o.direction, { kind: "matrix", matrix: cellValues(node.inputs[0]!) }));
    } else if (ofDomain(root)) {
      results.set(root, { kind: "matrix", matrix: cellValues(root) });
    } else {
      operatorFailure(ctx.dag, ctx.op, root, `the root is neither the cell expression over the driver (${shapeText(domain)}), an aggregate of it, nor its product with a factor`);
    }
  }
  return results;
}

/**
 * The root product's side that is the cell expression W (a covered node of
 * X's shape that reads X), or its transpose, if any. `U %*% t(V)` itself
 * is not such a product: neither of its sides reads X.
 */
function cellProduct(ctx: OperatorContext, [a, b]: [number, number], isCells: (node: number) => boolean): CellProduct | undefined {
  const covered = new Set(ctx.op.covered);
  const transposedCells = (node: number) => {
    const n = ctx.dag.nodes[node]!;
    return covered.has(node) && n.op.kind === "transpose" && isCells(n.inputs[0]!) ? n.inputs[0]! : undefined;
  };
  if (isCells(a)) return { cells: a, other: b, left: true, transposed: false };
  const ta = transposedCells(a);
  if (ta !== undefined) return { cells: ta, other: b, left: true, transposed: true };
  if (isCells(b)) return { cells: b, other: a, left: false, transposed: false };
  const tb = transposedCells(b);
  if (tb !== undefined) return { cells: tb, other: a, left: false, transposed: true };
  return undefined;
}

/**
 * How covered nodes read `source` (the driver): cell by cell ("direct"),
 * through a transpose ("transposed"), both ("mixed"); nodes that do not
 * read it are absent.
 */
function driverAlignment(ctx: OperatorContext, source: number): Map<number, "direct" | "transposed" | "mixed"> {
  const alignment = new Map<number, "direct" | "transposed" | "mixed">([[source, "direct"]]);
  for (const node of ctx.op.covered) {
    const n = ctx.dag.nodes[node]!;
    const read = new Set(n.inputs.map((i) => alignment.get(i)).filter((a) => a !== undefined));
    if (read.size === 0) continue;
    const one = read.size === 1 ? [...read][0]! : "mixed";
    alignment.set(node, n.op.kind === "transpose" && one !== "mixed" ? (one === "direct" ? "transposed" : "direct") : one);
  }
  return alignment;
}

/** The product of the cell expression with a whole operand, accumulated over the non-zeros of X. */
function productOverNonZeros(ctx: OperatorContext, product: number, expression: CellExpression, p: CellProduct, nonZeros: readonly [number, number][]): DenseMatrix {
  const otherShape = expression.shape(p.other);
  const other = ctx.inputs.has(p.other) || !ctx.op.covered.includes(p.other) ? undefined : expression.allCells(p.other);
  const otherAt = (r: number, c: number) => (other ? other[r * otherShape.cols + c]! : expression.at(p.other, r, c));
  const out = new DenseMatrix(expression.shape(product).rows, expression.shape(product).cols);
  const cols = out.cols;
  for (const [i, j] of nonZeros) {
    const w = expression.at(p.cells, i, j);
    if (p.left && !p.transposed) for (let c = 0; c < cols; c++) out.data[i * cols + c]! += w * otherAt(j, c); // W %*% B
    else if (p.left) for (let c = 0; c < cols; c++) out.data[j * cols + c]! += w * otherAt(i, c); // t(W) %*% B
    else if (!p.transposed) for (let r = 0; r < out.rows; r++) out.data[r * cols + j]! += w * otherAt(r, i); // A %*% W
    else for (let r = 0; r < out.rows; r++) out.data[r * cols + i]! += w * otherAt(r, j); // A %*% t(W)
  }
  return out;
}
