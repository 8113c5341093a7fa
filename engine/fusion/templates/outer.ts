/**
 * The Outer template (SystemDS's TemplateOuterProduct): over the non-zeros
 * of a sparse driver X (m x n) and the rows of the factors U (m x k) and V
 * (n x k) of a low-rank product `U %*% t(V)`, computing each needed cell of
 * the product as a dot product of a row of U and a row of V, never the
 * m x n product itself. Examples: `sum(W * (X - U %*% t(V))^2)` (weighted
 * squared loss), `X * sigmoid(U %*% t(V))`, `sum(X * log(U %*% t(V) + eps))`,
 * `(X != 0) * (U %*% t(V))` and its products with V or U (wdivmm).
 *
 * - open: an outer-product-like `U %*% t(V)` (the common dimension smaller
 *   than both result dimensions) with more than 256 rows and columns; also
 *   a transpose read only by such products (`t(V)`) or by their final
 *   products (`t(U) %*% ...`), so the operator reads U and V directly;
 * - fuse: into a cell-wise unary or binary operation (with a scalar, a
 *   vector or a matrix), a full sum, a transpose of a final product
 *   (`t(t(U) %*% Z)`) or of Z before `t(Z) %*% U`, and a final product of
 *   the fused value with U or V (`Z %*% V`, `t(U) %*% Z`, `t(Z) %*% U`);
 * - merge: at a binary operation with a row vector or a scalar; at `*`, a
 *   sparse-safe binary operand without an outer product (`(X != 0) * ...`);
 *   at a product, its transposed operand;
 * - close: a full sum and a final product close, valid when the summed
 *   (or multiplied) value has a driver, a matrix of the product's size
 *   wherever whose zeros it is zero (zero-drivers.ts; SystemDS asks for a
 *   sparse-safe binary operation); a cell-wise operation with a driver is
 *   open-valid, one without (the bare product, `X - U %*% t(V)`) is
 *   open-invalid: validity needs a sparse-safe driver.
 *
 * The binding requires the driver: an input of the product's size for which
 * the operator is sparse-safe (every covered operation maps a zero of X to
 * zero, and only sums consume them). Variants (SystemDS's OutProdType):
 * `agg` (scalar result), `left` (`t(U) %*% Z` or `t(Z) %*% U`, n x k),
 * `right` (`Z %*% V`, m x k), `cellwise` (an m x n result).
 */
import type { FusionDag } from "../fusion-dag";
import type { CloseDecision, FusionTemplate, OperatorBinding } from "../types";
import { largestFirst, sideAndScalarInputs } from "./input-binding";
import { cellCount, sameShape, shapeOf } from "./node-shapes";
import {
  aggregateOf,
  consumersOf,
  isCellwise,
  isMatmul,
  isMatrixRowVectorBinary,
  isMatrixScalarBinary,
  isOuterProductLike,
  isSparseSafeBinary,
  isTranspose,
} from "./operation-classes";
import { isSparseSafe } from "./sparse-safety";
import { hasDriver } from "./zero-drivers";

/** The smallest result dimensions an outer product needs to be worth an Outer operator (SystemDS: 256). */
const OUTER_MIN_DIMENSION = 256;

export const outerTemplate: FusionTemplate = {
  type: "outer",
  open(dag, node) {
    return isLargeOuterProduct(dag, node) || isOuterTransposedOperand(dag, node);
  },
  fuse(dag, node, input) {
    const n = dag.nodes[node]!;
    switch (n.op.kind) {
      case "unary":
      case "binary":
        return isCellwise(dag, node);
      case "aggregate":
        return n.op.direction === "full" && n.op.fn === "sum";
      case "transpose":
        return (isMatmul(dag, input) && !isOuterProductLike(dag, input)) || isTransposeBeforeLeftProduct(dag, node);
      case "matmul":
        return !isOuterProductLike(dag, node) && isFinalProduct(dag, node, input);
      default:
        return false;
    }
  },
  merge(dag, node, input) {
    const n = dag.nodes[node]!;
    if (n.op.kind === "matmul") return isTranspose(dag, input);
    if (isMatrixRowVectorBinary(dag, node) || isMatrixScalarBinary(dag, node)) return true;
    return n.op.kind === "binary" && n.op.op === "*" && isSparseSafeBinary(dag, input) && !containsOuterProduct(dag, input);
  },
  close(dag, node): CloseDecision {
    const n = dag.nodes[node]!;
    if (aggregateOf(dag, node)) return hasDriver(dag, n.inputs[0]!) ? "closed-valid" : "closed-invalid";
    if (isMatmul(dag, node)) {
      const [a, b] = n.inputs as [number, number];
      if (isOuterProductLike(dag, a) || isOuterProductLike(dag, b)) return "closed-invalid";
      if (isOuterProductLike(dag, node)) return "open-invalid";
      if (!hasDriver(dag, untransposed(dag, largestInput(dag, node)))) return "closed-invalid";
      const consumers = consumersOf(dag, node);
      return consumers.length > 0 && consumers.every((c) => isTranspose(dag, c)) ? "open-invalid" : "closed-valid";
    }
    if (isTranspose(dag, node)) return isMatmul(dag, n.inputs[0]!) && !isOuterProductLike(dag, n.inputs[0]!) ? "closed-valid" : "open-invalid";
    return hasDriver(dag, node) ? "open-valid" : "open-invalid";
  },
  describe(dag, root, covered, inputs) {
    return describeOuter(dag, root, covered, inputs);
  },
};

function isLargeOuterProduct(dag: FusionDag, node: number): boolean {
  const s = shapeOf(dag, node);
  return isOuterProductLike(dag, node) && !!s && s.rows > OUTER_MIN_DIMENSION && s.cols > OUTER_MIN_DIMENSION;
}

/** A transpose read only by outer products (`t(V)`) or by final products with a value computed from one (`t(U) %*% Z`). */
function isOuterTransposedOperand(dag: FusionDag, node: number): boolean {
  if (!isTranspose(dag, node) || !shapeOf(dag, node)) return false;
  const consumers = consumersOf(dag, node);
  return (
    consumers.length > 0 &&
    consumers.every((c) => {
      if (!isMatmul(dag, c)) return false;
      if (isLargeOuterProduct(dag, c)) return true;
      const [a, b] = dag.nodes[c]!.inputs as [number, number];
      const other = a === node ? b : a;
      return other !== node && !isOuterProductLike(dag, c) && containsOuterProductWith(dag, other, node);
    })
  );
}

/** `t(Z)` of a value computed from an outer product, read only as `t(Z) %*% U` with U a factor of that product. */
function isTransposeBeforeLeftProduct(dag: FusionDag, node: number): boolean {
  const z = dag.nodes[node]!.inputs[0]!;
  const consumers = consumersOf(dag, node);
  return (
    consumers.length > 0 &&
    consumers.every((c) => isMatmul(dag, c) && dag.nodes[c]!.inputs[0] === node && containsOuterProductWith(dag, z, dag.nodes[c]!.inputs[1]!))
  );
}

/** A product of the fused `input` (computed from an outer product) with one of that product's factors. */
function isFinalProduct(dag: FusionDag, node: number, input: number): boolean {
  const [a, b] = dag.nodes[node]!.inputs as [number, number];
  if (a === b) return false;
  const other = a === input ? b : a;
  const source = isTranspose(dag, input) ? dag.nodes[input]!.inputs[0]! : input;
  return containsOuterProductWith(dag, input, other) || containsOuterProductWith(dag, source, other);
}

/** The matmul input with the most cells. */
function largestInput(dag: FusionDag, node: number): number {
  const [a, b] = dag.nodes[node]!.inputs as [number, number];
  return (cellCount(dag, b) ?? 0) > (cellCount(dag, a) ?? 0) ? b : a;
}

function untransposed(dag: FusionDag, node: number): number {
  return isTranspose(dag, node) ? dag.nodes[node]!.inputs[0]! : node;
}

const outerProductsByDag = new WeakMap<FusionDag, readonly (readonly number[])[]>();

/** The outer-product-like products `node` is computed from (itself included), once per DAG. */
function outerProductsBelow(dag: FusionDag, node: number): readonly number[] {
  let below = outerProductsByDag.get(dag);
  if (!below) {
    const lists: number[][] = [];
    for (const n of dag.nodes) {
      const set = new Set<number>();
      for (const input of n.inputs) for (const o of lists[input]!) set.add(o);
      if (isOuterProductLike(dag, n.id)) set.add(n.id);
      lists[n.id] = [...set].sort((x, y) => x - y);
    }
    below = lists;
    outerProductsByDag.set(dag, below);
  }
  return below[node] ?? [];
}

function containsOuterProduct(dag: FusionDag, node: number): boolean {
  return outerProductsBelow(dag, node).length > 0;
}

/**
 * Whether `node` is computed from an outer product one of whose operands is
 * `probe`, its transpose, or transposed into it (SystemDS's
 * containsOuterProduct(hop, probe)): `probe` is a factor of that product.
 */
function containsOuterProductWith(dag: FusionDag, node: number, probe: number): boolean {
  return outerProductsBelow(dag, node).some((o) => dag.nodes[o]!.inputs.some((operand) => sameFactor(dag, operand, probe)));
}

function sameFactor(dag: FusionDag, operand: number, probe: number): boolean {
  if (operand === probe) return true;
  if (isTranspose(dag, operand) && dag.nodes[operand]!.inputs[0] === probe) return true;
  return isTranspose(dag, probe) && dag.nodes[probe]!.inputs[0] === operand;
}

/** The factor an operand of the outer product reads: through a covered transpose, the transposed matrix. */
function factorOf(dag: FusionDag, operand: number, covered: ReadonlySet<number>): number {
  return covered.has(operand) && isTranspose(dag, operand) ? dag.nodes[operand]!.inputs[0]! : operand;
}

function outerVariant(dag: FusionDag, root: number, u: number, v: number, covered: ReadonlySet<number>): string | undefined {
  const n = dag.nodes[root]!;
  if (dag.stats[root]?.type.dataType === "scalar") return "agg";
  if (isTranspose(dag, root)) return "left";
  if (isMatmul(dag, root)) {
    const [a, b] = n.inputs as [number, number];
    const isFactor = (operand: number, factor: number) => operand === factor || (isTranspose(dag, operand) && dag.nodes[operand]!.inputs[0] === factor);
    if (isFactor(a, u) || (isTranspose(dag, a) && covered.has(dag.nodes[a]!.inputs[0]!))) return "left";
    if (isFactor(b, v)) return "right";
    return undefined;
  }
  if (n.op.kind === "binary" && sameShape(shapeOf(dag, n.inputs[0]!), shapeOf(dag, n.inputs[1]!))) return "cellwise";
  return undefined;
}

function describeOuter(dag: FusionDag, root: number, covered: ReadonlySet<number>, inputs: readonly number[]): OperatorBinding | undefined {
  const product = [...covered].sort((a, b) => a - b).find((node) => isOuterProductLike(dag, node));
  if (product === undefined) return undefined;
  const [left, right] = dag.nodes[product]!.inputs as [number, number];
  const u = factorOf(dag, left, covered);
  const v = factorOf(dag, right, covered);
  if (!inputs.includes(u) || !inputs.includes(v)) return undefined;
  const productShape = shapeOf(dag, product);
  const driver = largestFirst(dag, inputs)
    .filter((i) => i !== u && i !== v && sameShape(shapeOf(dag, i), productShape))
    .find((i) => isSparseSafe(dag, covered, [root], i));
  if (driver === undefined) return undefined;
  const variant = outerVariant(dag, root, u, v, covered);
  if (variant === undefined) return undefined;
  return { mainInput: driver, ...sideAndScalarInputs(dag, inputs, driver, [u, v]), variant, sparseSafe: true };
}
