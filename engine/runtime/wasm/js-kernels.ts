/**
 * The pure-JS kernels: used where WebAssembly SIMD is not available, for
 * operands that do not live in the WebAssembly heap where copying them in
 * would cost more than the kernel (the memory-bound ones), and as the
 * reference the WebAssembly kernels are tested against. Simple loops in the
 * orders V8 optimizes well (i-k-j GEMM, several accumulators), not naive ones.
 */
import {
  checkElementwise,
  checkGemm,
  checkGemv,
  checkSpmm,
  checkSpmv,
  checkSumProduct3,
  type CsrArrays,
  type ElementwiseOp,
  type MatrixKernels,
} from "./kernel-api";
import { gemm } from "../kernels";

/** C = A·B (overwriting C), with the runtime's cache-blocked JS GEMM, which accumulates into C. */
function jsGemm(m: number, k: number, n: number, a: Float64Array, b: Float64Array, c: Float64Array): void {
  checkGemm(m, k, n, a, b, c);
  c.fill(0, 0, m * n);
  gemm(a, b, c, m, k, n);
}

function jsGemv(m: number, n: number, a: Float64Array, x: Float64Array, y: Float64Array): void {
  checkGemv(m, n, a, x, y);
  for (let i = 0; i < m; i++) {
    const o = i * n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      s0 += a[o + j]! * x[j]!;
      s1 += a[o + j + 1]! * x[j + 1]!;
      s2 += a[o + j + 2]! * x[j + 2]!;
      s3 += a[o + j + 3]! * x[j + 3]!;
    }
    for (; j < n; j++) s0 += a[o + j]! * x[j]!;
    y[i] = s0 + s1 + (s2 + s3);
  }
}

function jsElementwise(op: ElementwiseOp, a: Float64Array, b: Float64Array, out: Float64Array): void {
  checkElementwise(a, b, out);
  const len = out.length;
  switch (op) {
    case "+":
      for (let i = 0; i < len; i++) out[i] = a[i]! + b[i]!;
      return;
    case "-":
      for (let i = 0; i < len; i++) out[i] = a[i]! - b[i]!;
      return;
    case "*":
      for (let i = 0; i < len; i++) out[i] = a[i]! * b[i]!;
      return;
    case "/":
      for (let i = 0; i < len; i++) out[i] = a[i]! / b[i]!;
      return;
  }
}

function jsSumProduct3(x: Float64Array, y: Float64Array, z: Float64Array): number {
  checkSumProduct3(x, y, z);
  const len = x.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < len; i += 4) {
    s0 += x[i]! * y[i]! * z[i]!;
    s1 += x[i + 1]! * y[i + 1]! * z[i + 1]!;
    s2 += x[i + 2]! * y[i + 2]! * z[i + 2]!;
    s3 += x[i + 3]! * y[i + 3]! * z[i + 3]!;
  }
  for (; i < len; i++) s0 += x[i]! * y[i]! * z[i]!;
  return s0 + s1 + (s2 + s3);
}

function jsSpmv(a: CsrArrays, x: Float64Array, y: Float64Array): void {
  checkSpmv(a, x, y);
  const { rowPtr, colIdx, values } = a;
  for (let r = 0; r < a.rows; r++) {
    let s = 0;
    const end = rowPtr[r + 1]!;
    for (let p = rowPtr[r]!; p < end; p++) s += values[p]! * x[colIdx[p]!]!;
    y[r] = s;
  }
}

function jsSpmm(a: CsrArrays, n: number, b: Float64Array, c: Float64Array): void {
  checkSpmm(a, n, b, c);
  const { rowPtr, colIdx, values } = a;
  c.fill(0, 0, a.rows * n);
  for (let r = 0; r < a.rows; r++) {
    const o = r * n;
    const end = rowPtr[r + 1]!;
    for (let p = rowPtr[r]!; p < end; p++) {
      const v = values[p]!;
      const bo = colIdx[p]! * n;
      for (let j = 0; j < n; j++) c[o + j]! += v * b[bo + j]!;
    }
  }
}

export const jsKernels: MatrixKernels = {
  backend: "js",
  gemm: jsGemm,
  gemv: jsGemv,
  elementwise: jsElementwise,
  sumProduct3: jsSumProduct3,
  spmv: jsSpmv,
  spmm: jsSpmm,
};
