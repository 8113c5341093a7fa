/**
 * Row operators that are SystemDS's matrix-multiply chain (MMChain):
 * exactly `t(X) %*% (X %*% v)`, `t(X) %*% (w * (X %*% v))` (either operand
 * order of `*`) or `t(X) %*% ((X %*% v) - w)`, or the products
 * `t(X) %*% w` and `t(X) %*% (w * u)`, with X the operator's main input,
 * dense and large (resident in WebAssembly memory), v a column of X's
 * columns and w, u columns of X's rows. Such an operator runs the
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
  /** The v input node (absent for Xtw and Xtwu). */
  readonly v: number | undefined;
  /** The w input node (absent for XtXv). */
  readonly w: number | undefined;
  /** The u input node (Xtwu only). */
  readonly u?: number;
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
  if (rightId !== undefined && !covered.has(rightId)) return covered.size === 2 && rightId !== x ? { root, x, v: undefined, w: rightId, mode: "Xtw" } : undefined;
  if (right?.op.kind === "matmul") return shape(xv(rightId), undefined, "XtXv", 3);
  if (right?.op.kind !== "binary" || !isCovered(rightId)) return undefined;
  const [a, b] = right.inputs;
  if (right.op.op === "*") {
    const va = xv(a);
    if (va !== undefined) return shape(va, b, "XtwXv", 4);
    const vb = xv(b);
    if (vb !== undefined) return shape(vb, a, "XtwXv", 4);
    const plain = (id: number | undefined): id is number => id !== undefined && id !== x && !covered.has(id);
    return plain(a) && plain(b) && covered.size === 3 ? { root, x, v: undefined, w: a, u: b, mode: "Xtwu" } : undefined;
  }
  if (right.op.op === "-") return shape(xv(a), b, "XtXvy", 4);
  return undefined;
}

/** The root's value by the WebAssembly MMChain kernel, or undefined when the inputs do not suit it (X not dense and resident, shapes other than columns). */
export function runMmchain(shape: MmchainShape, inputs: ReadonlyMap<number, Value>): Value | undefined {
  const x = matrixOf(inputs.get(shape.x));
  if (x === undefined || x.format !== "dense") return undefined;
  let v: Float64Array = new Float64Array(0);
  if (shape.v !== undefined) {
    const vm = matrixOf(inputs.get(shape.v));
    if (vm === undefined || vm.cols !== 1 || vm.rows !== x.cols) return undefined;
    v = toDense(vm).data;
  }
  const w = rowColumn(shape.w, inputs, x.rows);
  const u = rowColumn(shape.u, inputs, x.rows);
  if (w === null || u === null) return undefined;
  const result = mmchain(x.data, x.rows, x.cols, v, w, shape.mode, u);
  return result === undefined ? undefined : { kind: "matrix", matrix: settleFormat(new DenseMatrix(x.cols, 1, result)) };
}

/** The data of input `node`, a column of `rows` rows; undefined without a node, null when it is not such a column (a scalar, a 1 x 1). */
function rowColumn(node: number | undefined, inputs: ReadonlyMap<number, Value>, rows: number): Float64Array | undefined | null {
  if (node === undefined) return undefined;
  const m = matrixOf(inputs.get(node));
  return m === undefined || m.cols !== 1 || m.rows !== rows ? null : toDense(m).data;
}

function matrixOf(value: Value | undefined): Matrix | undefined {
  return value?.kind === "matrix" ? value.matrix : undefined;
}
