/**
 * Row operators that are SystemDS's matrix-multiply chain (MMChain):
 * exactly `t(X) %*% (X %*% v)`, `t(X) %*% (w * (X %*% v))` (either operand
 * order of `*`) or `t(X) %*% ((X %*% v) - w)`, with X the operator's main
 * input, dense and large (resident in WebAssembly memory), v a column of
 * X's columns and w a column of X's rows. Such an operator runs the
 * WebAssembly kernel (../wasm/resident-kernels.ts): one pass over X in
 * place, SIMD, over the kernel threads. Anything else (or a call the
 * kernel cannot take) returns undefined and runs the generated JS kernel.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import { DenseMatrix, settleFormat, toDense, type Matrix } from "../matrix";
import { mmchain, type MmchainMode } from "../wasm";

export interface MmchainShape {
  readonly root: number;
  readonly x: number;
  readonly v: number;
  /** The w input node (absent for XtXv). */
  readonly w: number | undefined;
  readonly mode: MmchainMode;
}

/** The operator's MMChain shape, or undefined when it is not one. */
export function mmchainShape(dag: FusionDag, op: FusedOperator): MmchainShape | undefined {
  const x = op.binding.mainInput;
  if (x === null || op.roots.length !== 1) return undefined;
  const root = op.roots[0]!;
  const covered = new Set(op.covered);
  const node = (id: number | undefined) => (id === undefined ? undefined : dag.nodes[id]);
  const isCovered = (id: number | undefined): id is number => id !== undefined && covered.has(id);
  const r = node(root);
  if (r?.op.kind !== "matmul") return undefined;
  const [tId, rightId] = r.inputs;
  const t = node(tId);
  if (!isCovered(tId) || t?.op.kind !== "transpose" || t.inputs[0] !== x) return undefined;
  /** `X %*% v` covered, with v not covered: v's node. */
  const xv = (id: number | undefined): number | undefined => {
    const m = node(id);
    if (!isCovered(id) || m?.op.kind !== "matmul" || m.inputs[0] !== x) return undefined;
    const v = m.inputs[1];
    return v === undefined || covered.has(v) ? undefined : v;
  };
  const shape = (v: number | undefined, w: number | undefined, mode: MmchainMode, nodes: number): MmchainShape | undefined =>
    v !== undefined && (w === undefined || !covered.has(w)) && covered.size === nodes ? { root, x, v, w, mode } : undefined;
  const right = node(rightId);
  if (right?.op.kind === "matmul") return shape(xv(rightId), undefined, "XtXv", 3);
  if (right?.op.kind !== "binary" || !isCovered(rightId)) return undefined;
  const [a, b] = right.inputs;
  if (right.op.op === "*") {
    const va = xv(a);
    if (va !== undefined) return shape(va, b, "XtwXv", 4);
    return shape(xv(b), a, "XtwXv", 4);
  }
  if (right.op.op === "-") return shape(xv(a), b, "XtXvy", 4);
  return undefined;
}

/** The root's value by the WebAssembly MMChain kernel, or undefined when the inputs do not suit it (X not dense and resident, shapes other than columns). */
export function runMmchain(shape: MmchainShape, inputs: ReadonlyMap<number, Value>): Value | undefined {
  const x = matrixOf(inputs.get(shape.x));
  const v = matrixOf(inputs.get(shape.v));
  if (x === undefined || x.format !== "dense" || v === undefined || v.cols !== 1 || v.rows !== x.cols) return undefined;
  let w: Float64Array | undefined;
  if (shape.w !== undefined) {
    const wm = matrixOf(inputs.get(shape.w));
    if (wm === undefined || wm.cols !== 1 || wm.rows !== x.rows) return undefined;
    w = toDense(wm).data;
  }
  const result = mmchain(x.data, x.rows, x.cols, toDense(v).data, w, shape.mode);
  return result === undefined ? undefined : { kind: "matrix", matrix: settleFormat(new DenseMatrix(x.cols, 1, result)) };
}

function matrixOf(value: Value | undefined): Matrix | undefined {
  return value?.kind === "matrix" ? value.matrix : undefined;
}
