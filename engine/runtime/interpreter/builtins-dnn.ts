/**
 * SystemDS's deep-learning builtins in the embedded runtime: conv2d,
 * conv2d_backward_filter, conv2d_backward_data, max_pool, avg_pool,
 * max_pool_backward, avg_pool_backward, bias_add and bias_multiply, on
 * matrices of images in NCHW rows (N rows, C*H*W columns). Shapes come from
 * the named list arguments (dnn-shapes.ts); every matrix must have the
 * dims its shape says, else a runtime error names both. Sparse inputs are
 * made dense first; results are kept in the format SystemDS would pick.
 */
import { biasApply, conv2dBackwardData, conv2dBackwardFilter, conv2dForward, type DnnGeometry, avgPoolBackward, maxPoolBackward, poolForward } from "../kernels";
import { toDense, DenseMatrix, settleFormat, type Matrix } from "../matrix";
import type { CallArgs } from "./builtins";
import type { EvalContext } from "./context";
import { dnnGeometry, positionalMatrices } from "./dnn-shapes";
import { fail } from "./errors";
import { mat } from "./operations";
import type { Value } from "./values";

type Builtin = (a: CallArgs, ctx: EvalContext) => Value;

/** Checks that `m` is rows x cols, naming what the shape argument says those are. */
function expectDims(fn: string, what: string, m: Matrix, rows: number, cols: number, says: string): void {
  if (m.rows !== rows || m.cols !== cols) fail(`${fn}: ${what} is ${m.rows} x ${m.cols}, but ${says} says ${rows} x ${cols}`);
}

/** Refuses a result (plus kernel workspace) of `cells` doubles that would not fit the memory budget. */
function reserve(fn: string, ctx: EvalContext, rows: number, cols: number, workspaceCells = 0): void {
  const refusal = ctx.memory.refusal(8 * (rows * cols + workspaceCells), 0);
  if (refusal) fail(`${fn} would build a dense ${rows} x ${cols} matrix: it ${refusal}`);
}

function dense(m: Matrix): Float64Array {
  return toDense(m).data;
}

function result(rows: number, cols: number, data: Float64Array): Value {
  return { kind: "matrix", matrix: settleFormat(new DenseMatrix(rows, cols, data)) };
}

const IMAGES = "input_shape=[N, C, H, W] (N x C*H*W)";
const FILTERS = "filter_shape=[F, C, Hf, Wf] (F x C*Hf*Wf)";
const CONV_OUT = "the shapes (N x F*Hout*Wout)";
const POOL_OUT = "the shapes (N x C*Hout*Wout)";

function images(fn: string, x: Matrix, g: DnnGeometry): void {
  expectDims(fn, "the input", x, g.N, g.C * g.H * g.W, IMAGES);
}

function conv2d(a: CallArgs, ctx: EvalContext): Value {
  const fn = "conv2d";
  const [xv, wv] = positionalMatrices(fn, a, ["input", "filter"]);
  const g = dnnGeometry(fn, a, "conv");
  const [x, w] = [mat(xv!, fn), mat(wv!, fn)];
  images(fn, x, g);
  expectDims(fn, "the filter", w, g.K, g.C * g.R * g.S, FILTERS);
  reserve(fn, ctx, g.N, g.K * g.P * g.Q, g.C * g.R * g.S * g.P * g.Q);
  return result(g.N, g.K * g.P * g.Q, conv2dForward(dense(x), dense(w), g));
}

function conv2dFilterGradient(a: CallArgs, ctx: EvalContext): Value {
  const fn = "conv2d_backward_filter";
  const [xv, dv] = positionalMatrices(fn, a, ["input", "dout"]);
  const g = dnnGeometry(fn, a, "conv");
  const [x, dout] = [mat(xv!, fn), mat(dv!, fn)];
  images(fn, x, g);
  expectDims(fn, "dout", dout, g.N, g.K * g.P * g.Q, CONV_OUT);
  reserve(fn, ctx, g.K, g.C * g.R * g.S, g.C * g.R * g.S * g.P * g.Q);
  return result(g.K, g.C * g.R * g.S, conv2dBackwardFilter(dense(x), dense(dout), g));
}

function conv2dDataGradient(a: CallArgs, ctx: EvalContext): Value {
  const fn = "conv2d_backward_data";
  const [wv, dv] = positionalMatrices(fn, a, ["filter", "dout"]);
  const g = dnnGeometry(fn, a, "conv");
  const [w, dout] = [mat(wv!, fn), mat(dv!, fn)];
  expectDims(fn, "the filter", w, g.K, g.C * g.R * g.S, FILTERS);
  expectDims(fn, "dout", dout, g.N, g.K * g.P * g.Q, CONV_OUT);
  reserve(fn, ctx, g.N, g.C * g.H * g.W, g.C * g.R * g.S * g.P * g.Q);
  return result(g.N, g.C * g.H * g.W, conv2dBackwardData(dense(w), dense(dout), g));
}

function pool(kind: "max" | "avg"): Builtin {
  const fn = `${kind}_pool`;
  return (a, ctx) => {
    const [xv] = positionalMatrices(fn, a, ["input"]);
    const g = dnnGeometry(fn, a, "pool");
    const x = mat(xv!, fn);
    images(fn, x, g);
    reserve(fn, ctx, g.N, g.C * g.P * g.Q);
    return result(g.N, g.C * g.P * g.Q, poolForward(kind, dense(x), g));
  };
}

function poolGradient(kind: "max" | "avg"): Builtin {
  const fn = `${kind}_pool_backward`;
  return (a, ctx) => {
    const [xv, dv] = positionalMatrices(fn, a, ["input", "dout"]);
    const g = dnnGeometry(fn, a, "pool");
    const [x, dout] = [mat(xv!, fn), mat(dv!, fn)];
    // As in SystemDS, average pooling's gradient does not read the input, so only max pooling checks it.
    if (kind === "max") images(fn, x, g);
    expectDims(fn, "dout", dout, g.N, g.C * g.P * g.Q, POOL_OUT);
    reserve(fn, ctx, g.N, g.C * g.H * g.W);
    const dx = kind === "max" ? maxPoolBackward(dense(x), dense(dout), g) : avgPoolBackward(dense(dout), g);
    return result(g.N, g.C * g.H * g.W, dx);
  };
}

function bias(kind: "add" | "multiply"): Builtin {
  const fn = `bias_${kind}`;
  return (a, ctx) => {
    const [xv, bv] = positionalMatrices(fn, a, ["input", "bias"]);
    const [x, b] = [mat(xv!, fn), mat(bv!, fn)];
    if (b.cols !== 1 || b.rows === 0 || x.cols % b.rows !== 0) {
      fail(`${fn}: the bias must be a column of one value per feature map (K x 1, K dividing ncol(input)), but the input is ${x.rows} x ${x.cols} and the bias ${b.rows} x ${b.cols}`);
    }
    reserve(fn, ctx, x.rows, x.cols);
    return result(x.rows, x.cols, biasApply(kind, dense(x), x.rows, x.cols, dense(b)));
  };
}

export const DNN_BUILTINS: Record<string, Builtin> = {
  conv2d,
  conv2d_backward_filter: conv2dFilterGradient,
  conv2d_backward_data: conv2dDataGradient,
  max_pool: pool("max"),
  avg_pool: pool("avg"),
  max_pool_backward: poolGradient("max"),
  avg_pool_backward: poolGradient("avg"),
  bias_add: bias("add"),
  bias_multiply: bias("multiply"),
};
