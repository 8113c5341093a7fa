// The deep-learning builtins (conv2d, its gradients, pooling, bias_add/multiply) against
// numpy on random shapes, strides and paddings; the gradients against finite differences;
// sparse inputs; the errors for shapes that do not fit; the speed of a LeNet-sized conv2d.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { CallArgs } from "../../engine/runtime/interpreter/builtins";
import { DNN_BUILTINS } from "../../engine/runtime/interpreter/builtins-dnn";
import type { EvalContext } from "../../engine/runtime/interpreter/context";
import { MemoryMeter } from "../../engine/runtime/interpreter/memory-meter";
import type { Value } from "../../engine/runtime/interpreter/values";
import { toDense } from "../../engine/runtime/matrix/convert";
import { denseToCsr } from "../../engine/runtime/matrix/convert";
import { DenseMatrix } from "../../engine/runtime/matrix/dense-matrix";
import { SeededRandom } from "../../engine/runtime/kernels/seeded-random";
import { numpyReference, type DnnCase, type DnnResults } from "./dnn-reference";

const ctx = { memory: new MemoryMeter(2 * 1024 ** 3) } as unknown as EvalContext;

const matrix = (rows: number, cols: number, cells: ArrayLike<number>): Value => ({ kind: "matrix", matrix: new DenseMatrix(rows, cols, Float64Array.from(cells)) });
const int = (value: number): Value => ({ kind: "scalar", type: "int", value });
const shape = (...values: number[]): Value => ({ kind: "list", items: values.map(int) });

interface Geometry {
  N: number; C: number; H: number; W: number; K: number; R: number; S: number;
  stride: [number, number]; pad: [number, number];
}

/** A call of builtin `name` with positional matrices and the named shapes of `g` (pool_size when `pool`). */
function call(name: string, matrices: Value[], g: Geometry, pool = false): DenseMatrix {
  const shapes: [string, Value][] = [
    ["input_shape", shape(g.N, g.C, g.H, g.W)],
    pool ? ["pool_size", shape(g.R, g.S)] : ["filter_shape", shape(g.K, g.C, g.R, g.S)],
    ["stride", shape(...g.stride)],
    ["padding", shape(...g.pad)],
  ];
  const args: CallArgs = { values: [...matrices, ...shapes.map(([, v]) => v)], names: [...matrices.map(() => undefined), ...shapes.map(([n]) => n)] };
  const result = DNN_BUILTINS[name]!(args, ctx);
  assert.equal(result.kind, "matrix");
  return toDense((result as Extract<Value, { kind: "matrix" }>).matrix);
}

const extent = (size: number, filter: number, stride: number, pad: number) => Math.floor((size + 2 * pad - filter) / stride) + 1;

function randomValues(random: SeededRandom, n: number): number[] {
  return Array.from({ length: n }, () => random.nextDouble() * 2 - 1);
}

/** A random geometry whose filter fits the padded image, with a pooling geometry of its own. */
function randomCase(random: SeededRandom): DnnCase {
  const pick = (lo: number, hi: number) => lo + Math.floor(random.nextDouble() * (hi - lo + 1));
  const [N, C, H, W, K] = [pick(1, 3), pick(1, 3), pick(3, 9), pick(3, 9), pick(1, 4)];
  const pad: [number, number] = [pick(0, 2), pick(0, 2)];
  const R = pick(1, Math.min(5, H + 2 * pad[0]));
  const S = pick(1, Math.min(5, W + 2 * pad[1]));
  const stride: [number, number] = [pick(1, 3), pick(1, 3)];
  const [poolR, poolS] = [pick(1, Math.min(3, H)), pick(1, Math.min(3, W))];
  const poolPad: [number, number] = [pick(0, poolR - 1), pick(0, poolS - 1)];
  const poolStride: [number, number] = [pick(1, 3), pick(1, 3)];
  const P = extent(H, R, stride[0], pad[0]);
  const Q = extent(W, S, stride[1], pad[1]);
  const P2 = extent(H, poolR, poolStride[0], poolPad[0]);
  const Q2 = extent(W, poolS, poolStride[1], poolPad[1]);
  return {
    N, C, H, W, K, R, S, stride, pad, poolR, poolS, poolStride, poolPad,
    X: randomValues(random, N * C * H * W), Wt: randomValues(random, K * C * R * S),
    dconv: randomValues(random, N * K * P * Q), dpool: randomValues(random, N * C * P2 * Q2), bias: randomValues(random, K),
  };
}

/** Every builtin's result on a case, in the layout of the numpy reference. */
function runtimeResults(c: DnnCase, sparse = false): DnnResults {
  const g: Geometry = { N: c.N, C: c.C, H: c.H, W: c.W, K: c.K, R: c.R, S: c.S, stride: c.stride, pad: c.pad };
  const pg: Geometry = { ...g, K: 1, R: c.poolR, S: c.poolS, stride: c.poolStride, pad: c.poolPad };
  const P = extent(c.H, c.R, c.stride[0], c.pad[0]);
  const Q = extent(c.W, c.S, c.stride[1], c.pad[1]);
  const P2 = extent(c.H, c.poolR, c.poolStride[0], c.poolPad[0]);
  const Q2 = extent(c.W, c.poolS, c.poolStride[1], c.poolPad[1]);
  const asInput = (v: Value): Value => (sparse && v.kind === "matrix" ? { kind: "matrix", matrix: denseToCsr(toDense(v.matrix)) } : v);
  const X = asInput(matrix(c.N, c.C * c.H * c.W, c.X));
  const Wt = asInput(matrix(c.K, c.C * c.R * c.S, c.Wt));
  const dconv = asInput(matrix(c.N, c.K * P * Q, c.dconv));
  const dpool = asInput(matrix(c.N, c.C * P2 * Q2, c.dpool));
  const conv = call("conv2d", [X, Wt], g);
  const bias = matrix(c.K, 1, c.bias);
  const biasCall = (name: string) => {
    const r = DNN_BUILTINS[name]!({ values: [{ kind: "matrix", matrix: conv }, bias], names: [undefined, undefined] }, ctx);
    return Array.from(toDense((r as Extract<Value, { kind: "matrix" }>).matrix).data);
  };
  return {
    conv: Array.from(conv.data),
    dW: Array.from(call("conv2d_backward_filter", [X, dconv], g).data),
    dX: Array.from(call("conv2d_backward_data", [Wt, dconv], g).data),
    maxp: Array.from(call("max_pool", [X], pg, true).data),
    avgp: Array.from(call("avg_pool", [X], pg, true).data),
    dmax: Array.from(call("max_pool_backward", [X, dpool], pg, true).data),
    davg: Array.from(call("avg_pool_backward", [X, dpool], pg, true).data),
    biasAdd: biasCall("bias_add"),
    biasMul: biasCall("bias_multiply"),
  };
}

function assertClose(actual: number[], expected: number[], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} cells, numpy has ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    const tolerance = 1e-9 * Math.max(1, Math.abs(expected[i]!));
    if (!(Math.abs(actual[i]! - expected[i]!) <= tolerance)) assert.fail(`${what}: cell ${i} is ${actual[i]}, numpy says ${expected[i]}`);
  }
}

describe("deep-learning builtins against numpy", () => {
  const random = new SeededRandom(20261126);
  const cases = Array.from({ length: 40 }, () => randomCase(random));
  const reference = numpyReference(cases);

  it("conv2d, its gradients, pooling and bias on 40 random geometries (strides 1-3, paddings 0-2)", (t) => {
    if ("skip" in reference) return t.skip(reference.skip);
    cases.forEach((c, k) => {
      const ours = runtimeResults(c);
      const label = `case ${k} (N=${c.N} C=${c.C} ${c.H}x${c.W} K=${c.K} ${c.R}x${c.S} stride=${c.stride} pad=${c.pad}; pool ${c.poolR}x${c.poolS} stride=${c.poolStride} pad=${c.poolPad})`;
      for (const key of Object.keys(ours) as (keyof DnnResults)[]) assertClose(ours[key], reference.results[k]![key], `${label} ${key}`);
    });
  });

  it("gives the same results for sparse inputs", (t) => {
    if ("skip" in reference) return t.skip(reference.skip);
    cases.slice(0, 10).forEach((c, k) => {
      const ours = runtimeResults(c, true);
      for (const key of Object.keys(ours) as (keyof DnnResults)[]) assertClose(ours[key], reference.results[k]![key], `sparse case ${k} ${key}`);
    });
  });
});

/** sum(dout * f(input)) of a forward builtin, the scalar whose gradient the backward builtins compute. */
function objective(forward: (input: number[]) => DenseMatrix, dout: number[], input: number[]): number {
  const out = forward(input).data;
  let s = 0;
  for (let i = 0; i < out.length; i++) s += dout[i]! * out[i]!;
  return s;
}

/** Central finite differences of `objective` at every input cell, against `gradient`. */
function assertGradient(forward: (input: number[]) => DenseMatrix, dout: number[], input: number[], gradient: Float64Array, what: string): void {
  const eps = 1e-6;
  for (let i = 0; i < input.length; i++) {
    const plus = [...input];
    const minus = [...input];
    plus[i]! += eps;
    minus[i]! -= eps;
    const numeric = (objective(forward, dout, plus) - objective(forward, dout, minus)) / (2 * eps);
    if (!(Math.abs(numeric - gradient[i]!) <= 1e-5 * Math.max(1, Math.abs(numeric)))) assert.fail(`${what}: cell ${i}: finite differences ${numeric}, gradient ${gradient[i]}`);
  }
}

const geometryArb = fc
  .record({ N: fc.integer({ min: 1, max: 2 }), C: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 2, max: 6 }), W: fc.integer({ min: 2, max: 6 }), K: fc.integer({ min: 1, max: 3 }) })
  .chain((base) =>
    fc
      .record({ ph: fc.integer({ min: 0, max: 2 }), pw: fc.integer({ min: 0, max: 2 }), sh: fc.integer({ min: 1, max: 3 }), sw: fc.integer({ min: 1, max: 3 }), seed: fc.integer() })
      .chain((rest) =>
        fc.record({ R: fc.integer({ min: 1, max: base.H + 2 * rest.ph }), S: fc.integer({ min: 1, max: base.W + 2 * rest.pw }) }).map((f) => ({ ...base, ...rest, ...f })),
      ),
  );

describe("deep-learning gradients against finite differences", () => {
  it("conv2d_backward_filter and conv2d_backward_data are the gradients of sum(dout * conv2d(X, W))", () => {
    fc.assert(
      fc.property(geometryArb, (a) => {
        const g: Geometry = { N: a.N, C: a.C, H: a.H, W: a.W, K: a.K, R: a.R, S: a.S, stride: [a.sh, a.sw], pad: [a.ph, a.pw] };
        const random = new SeededRandom(a.seed);
        const X = randomValues(random, a.N * a.C * a.H * a.W);
        const W = randomValues(random, a.K * a.C * a.R * a.S);
        const P = extent(a.H, a.R, a.sh, a.ph);
        const Q = extent(a.W, a.S, a.sw, a.pw);
        const dout = randomValues(random, a.N * a.K * P * Q);
        const doutM = matrix(a.N, a.K * P * Q, dout);
        const dW = call("conv2d_backward_filter", [matrix(a.N, a.C * a.H * a.W, X), doutM], g).data;
        const dX = call("conv2d_backward_data", [matrix(a.K, a.C * a.R * a.S, W), doutM], g).data;
        assertGradient((w) => call("conv2d", [matrix(a.N, a.C * a.H * a.W, X), matrix(a.K, a.C * a.R * a.S, w)], g), dout, W, dW, "dW");
        assertGradient((x) => call("conv2d", [matrix(a.N, a.C * a.H * a.W, x), matrix(a.K, a.C * a.R * a.S, W)], g), dout, X, dX, "dX");
      }),
      { numRuns: 60 },
    );
  });

  it("max_pool_backward and avg_pool_backward are the gradients of sum(dout * pool(X))", () => {
    fc.assert(
      fc.property(geometryArb, (a) => {
        const R = Math.min(a.R, a.H);
        const S = Math.min(a.S, a.W);
        const g: Geometry = { N: a.N, C: a.C, H: a.H, W: a.W, K: 1, R, S, stride: [a.sh, a.sw], pad: [Math.min(a.ph, R - 1), Math.min(a.pw, S - 1)] };
        const random = new SeededRandom(a.seed);
        const X = randomValues(random, a.N * a.C * a.H * a.W);
        const P = extent(a.H, R, g.stride[0], g.pad[0]);
        const Q = extent(a.W, S, g.stride[1], g.pad[1]);
        const dout = randomValues(random, a.N * a.C * P * Q);
        const xM = matrix(a.N, a.C * a.H * a.W, X);
        const doutM = matrix(a.N, a.C * P * Q, dout);
        for (const kind of ["max", "avg"]) {
          const dX = call(`${kind}_pool_backward`, [xM, doutM], g, true).data;
          assertGradient((x) => call(`${kind}_pool`, [matrix(a.N, a.C * a.H * a.W, x)], g, true), dout, X, dX, `${kind}_pool dX`);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("deep-learning builtins: shapes that do not fit", () => {
  const g: Geometry = { N: 2, C: 1, H: 4, W: 4, K: 3, R: 3, S: 3, stride: [1, 1], pad: [0, 0] };
  const X = matrix(2, 16, new Array(32).fill(1));
  const W = matrix(3, 9, new Array(27).fill(1));
  const error = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return assert.fail("no error");
  };

  it("names the matrix and the shape argument that disagree", () => {
    assert.equal(error(() => call("conv2d", [matrix(3, 16, new Array(48).fill(1)), W], g)), "conv2d: the input is 3 x 16, but input_shape=[N, C, H, W] (N x C*H*W) says 2 x 16");
    assert.equal(error(() => call("conv2d", [X, matrix(3, 8, new Array(24).fill(1))], g)), "conv2d: the filter is 3 x 8, but filter_shape=[F, C, Hf, Wf] (F x C*Hf*Wf) says 3 x 9");
    assert.equal(error(() => call("conv2d_backward_data", [W, matrix(2, 5, new Array(10).fill(1))], g)), "conv2d_backward_data: dout is 2 x 5, but the shapes (N x F*Hout*Wout) says 2 x 12");
  });

  it("rejects strides, paddings and filters that make no output", () => {
    assert.equal(error(() => call("conv2d", [X, W], { ...g, stride: [0, 1] })), "conv2d: only positive strides are supported, found stride=[0, 1]");
    assert.equal(error(() => call("conv2d", [X, W], { ...g, pad: [-1, 0] })), "conv2d: padding must not be negative, found padding=[-1, 0]");
    assert.equal(error(() => call("max_pool", [X], { ...g, R: 5, S: 2 }, true)), "max_pool: the 5 x 2 pool is larger than the padded 4 x 4 image (input 4 x 4, padding=[0, 0])");
  });

  it("needs every shape argument, as lists of integers, after the matrices (named or not)", () => {
    const args: CallArgs = { values: [X, W, shape(2, 1, 4, 4), shape(3, 1, 3, 3), shape(1, 1)], names: [undefined, undefined, "input_shape", "filter_shape", "stride"] };
    assert.equal(error(() => DNN_BUILTINS["conv2d"]!(args, ctx)), "conv2d: missing argument padding=[pad_h, pad_w]");
    const half: CallArgs = { ...args, values: [...args.values, { kind: "list", items: [int(1), { kind: "scalar", type: "double", value: 0.5 }] }], names: [...args.names, "padding"] };
    assert.equal(error(() => DNN_BUILTINS["conv2d"]!(half, ctx)), "conv2d: padding must hold integers [pad_h, pad_w], but value 2 is 0.5");
    const named: CallArgs = { values: [...args.values, shape(0, 0)], names: ["input", "filter", ...args.names.slice(2), "padding"] };
    assert.deepEqual((DNN_BUILTINS["conv2d"]!(named, ctx) as Extract<Value, { kind: "matrix" }>).matrix.rows, 2);
    const extra: CallArgs = { values: [X, W, X, ...named.values.slice(2)], names: [undefined, undefined, undefined, ...named.names.slice(2)] };
    assert.equal(error(() => DNN_BUILTINS["conv2d"]!(extra, ctx)), "conv2d: takes the input and filter and the shapes, but 3 other arguments were given");
    const bias = { values: [X, matrix(3, 1, [1, 2, 3])], names: [undefined, undefined] };
    assert.match(error(() => DNN_BUILTINS["bias_add"]!(bias, ctx)), /^bias_add: the bias must be a column of one value per feature map .* the input is 2 x 16 and the bias 3 x 1$/);
  });
});

describe("conv2d speed", () => {
  it("a LeNet-sized layer (64 images 1x28x28, 32 filters 5x5, padding 2) and its gradients take well under a second of CPU each", () => {
    const random = new SeededRandom(7);
    const g: Geometry = { N: 64, C: 1, H: 28, W: 28, K: 32, R: 5, S: 5, stride: [1, 1], pad: [2, 2] };
    const X = matrix(64, 784, randomValues(random, 64 * 784));
    const W = matrix(32, 25, randomValues(random, 32 * 25));
    const dout = matrix(64, 32 * 784, randomValues(random, 64 * 32 * 784));
    for (const [name, inputs] of [["conv2d", [X, W]], ["conv2d_backward_filter", [X, dout]], ["conv2d_backward_data", [W, dout]]] as const) {
      // CPU seconds (of all the process's threads), the best of three runs: other processes on the machine do not count.
      let seconds = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = process.cpuUsage();
        call(name, [...inputs], g);
        const used = process.cpuUsage(start);
        seconds = Math.min(seconds, (used.user + used.system) / 1e6);
      }
      assert.ok(seconds < 1, `${name} took ${seconds.toFixed(2)} s of CPU`);
    }
  });
});
