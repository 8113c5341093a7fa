/**
 * Sizes of SystemDS's deep-learning builtins and of the list literal `[a, b]`
 * their shapes are written as (BuiltinFunctionExpression's validation):
 *
 * | call | result |
 * |---|---|
 * | `conv2d(X, W, input_shape=[N,C,H,W], filter_shape=[F,C,Hf,Wf], stride, padding)` | N x F*Hout*Wout |
 * | `conv2d_backward_filter(X, dout, ...)` | F x C*Hf*Wf |
 * | `conv2d_backward_data(W, dout, ...)` | N x C*H*W |
 * | `max_pool(X, input_shape, pool_size=[Hf,Wf], stride, padding)`, `avg_pool` | N x C*Hout*Wout |
 * | `max_pool_backward(X, dout, ...)`, `avg_pool_backward` | the dims of X |
 * | `bias_add(X, b)`, `bias_multiply(X, b)` | the dims of X |
 *
 * with Hout = floor((H + 2*pad_h - Hf)/stride_h) + 1 (and Wout alike); a
 * dimension whose shape values are not constants is unknown.
 */
import type { DagNode } from "../../program";
import { isMatrix, listStats, matrixStats, type NodeStats } from "./node-stats";

/** The calls sized here. */
export const DNN_CALL_NAMES: ReadonlySet<string> = new Set([
  "[]", "conv2d", "conv2d_backward_filter", "conv2d_backward_data", "max_pool", "avg_pool",
  "max_pool_backward", "avg_pool_backward", "bias_add", "bias_multiply",
]);

/** The stats of a DNN call or list literal, or undefined for any other call. */
export function dnnCallStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  if (node.op.kind !== "call" || node.op.user || node.op.output !== 0) return undefined;
  const shape = (name: string) => shapeValues(node, inputs, name);
  switch (node.op.name) {
    case "[]":
      return listStats(inputs);
    case "conv2d":
    case "max_pool":
    case "avg_pool": {
      const [N, C, H, W] = shape("input_shape");
      const conv = node.op.name === "conv2d";
      const [F, , R, S] = conv ? shape("filter_shape") : [1, undefined, ...shape("pool_size")];
      const [sh, sw] = shape("stride");
      const [ph, pw] = shape("padding");
      const P = extent(H, R, sh, ph);
      const Q = extent(W, S, sw, pw);
      return matrixStats(N ?? positional(node, inputs, 0)?.rows ?? null, product(conv ? F : C, P, Q), null);
    }
    case "conv2d_backward_filter": {
      const [F, C, R, S] = shape("filter_shape");
      return matrixStats(F ?? null, product(C, R, S), null);
    }
    case "conv2d_backward_data": {
      const [N, C, H, W] = shape("input_shape");
      return matrixStats(N ?? positional(node, inputs, 1)?.rows ?? null, product(C, H, W), null);
    }
    case "max_pool_backward":
    case "avg_pool_backward":
    case "bias_add":
    case "bias_multiply": {
      const x = positional(node, inputs, 0);
      return x && isMatrix(x) ? matrixStats(x.rows, x.cols, null) : matrixStats(null, null, null);
    }
    default:
      return undefined;
  }
}

/** The constant integers of a shape argument (`stride=[1, 1]`), undefined where not known. */
function shapeValues(node: DagNode, inputs: readonly NodeStats[], name: string): (number | undefined)[] {
  const k = node.argNames?.indexOf(name) ?? -1;
  const items = k < 0 ? undefined : inputs[k]?.items;
  return (items ?? []).map((item) => (typeof item.value === "number" && Number.isInteger(item.value) ? item.value : undefined));
}

/** The stats of the call's `position`-th unnamed argument. */
function positional(node: DagNode, inputs: readonly NodeStats[], position: number): NodeStats | undefined {
  let p = 0;
  for (let k = 0; k < inputs.length; k++) {
    if (node.argNames?.[k] !== undefined) continue;
    if (p++ === position) return inputs[k];
  }
  return undefined;
}

function extent(size: number | undefined, filter: number | undefined, stride: number | undefined, pad: number | undefined): number | undefined {
  if (size === undefined || filter === undefined || stride === undefined || pad === undefined || stride <= 0 || pad < 0) return undefined;
  const out = Math.floor((size + 2 * pad - filter) / stride) + 1;
  return out > 0 ? out : undefined;
}

function product(...factors: (number | undefined)[]): number | null {
  return factors.every((f): f is number => f !== undefined && f >= 0) ? factors.reduce((a, b) => a * b, 1) : null;
}
