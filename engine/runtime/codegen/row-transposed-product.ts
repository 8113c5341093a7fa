/**
 * Row operators of one product with a transposed left operand and nothing
 * else, `t(X) %*% X` or `t(X) %*% b` with X the main input: they run the
 * kernel that computes it from X in place (../kernels/transposed-product.ts:
 * tsmm, or one pass over X's rows for a column b or a CSR B) where it takes the call, like
 * SystemDS, whose codegen leaves a plan of one operation to the operator
 * that has it built in. A generated kernel for it does the same pass over
 * X, but V8 compiles every new kernel before it runs at speed: about 10 ms
 * for the 100 unrolled multiply-adds of `t(U) %*% U` with 10 columns, while
 * the shared kernels are compiled once per process. The WebAssembly MMChain
 * (row-mmchain.ts) is tried first.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import { transposedLeftProduct } from "../kernels";
import { settleFormat } from "../matrix";

export interface TransposedProductShape {
  readonly root: number;
  /** The transpose's input: the operator's main input. */
  readonly x: number;
  /** The right operand: x itself, or another input. */
  readonly right: number;
}

/** The operator's shape when it covers exactly `t(X) %*% B` (the transpose and the product), else undefined. */
export function transposedProductShape(dag: FusionDag, op: FusedOperator): TransposedProductShape | undefined {
  const x = op.binding.mainInput;
  if (x === null || op.roots.length !== 1 || op.covered.length !== 2) return undefined;
  const root = op.roots[0]!;
  const product = dag.nodes[root];
  if (product?.op.kind !== "matmul") return undefined;
  const [t, right] = product.inputs as [number, number];
  const transpose = dag.nodes[t];
  if (transpose?.op.kind !== "transpose" || transpose.inputs[0] !== x || !op.covered.includes(t) || op.covered.includes(right)) return undefined;
  return { root, x, right };
}

/** The root's value computed from X in place, or undefined when that kernel does not take the call (the generated kernel runs). */
export function runTransposedProduct(shape: TransposedProductShape, inputs: ReadonlyMap<number, Value>): Value | undefined {
  const x = inputs.get(shape.x);
  const b = inputs.get(shape.right);
  if (x?.kind !== "matrix" || b?.kind !== "matrix") return undefined;
  // For `t(X) %*% X` both are the same input's value, so the kernel sees b === x (tsmm).
  const result = transposedLeftProduct(x.matrix, b.matrix);
  return result === undefined ? undefined : { kind: "matrix", matrix: settleFormat(result) };
}
