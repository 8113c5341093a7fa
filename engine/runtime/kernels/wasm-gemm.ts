/**
 * The dense products the WebAssembly GEMM runs: dense operands with enough
 * work in every dimension, when its kernels load. The interpreter's products
 * go there (fastMatmul), and it decides whether tsmm is the faster kernel
 * for `t(X) %*% X` (transposed-product.ts).
 */
import { DenseMatrix, isDense, type Matrix } from "../matrix";
import { matrixKernels } from "../wasm";
import { matmul } from "./matmul";

/** Products of dense operands with at least this many multiply-adds go to the WebAssembly GEMM (when it loads). */
const WASM_GEMM_MIN_FLOPS = 1e6;

/**
 * Products with a dimension below this are memory-bound: the WebAssembly GEMM would copy its operands in and
 * its result out (more bytes than the product reads), so they run in place (matmul).
 */
const WASM_GEMM_MIN_DIM = 16;

/** Whether a dense m x k by k x n product goes to the WebAssembly GEMM: enough work in every dimension, and the kernels loaded. */
export function wasmGemmTakes(m: number, k: number, n: number): boolean {
  if (n <= 1 || Math.min(m, k, n) < WASM_GEMM_MIN_DIM) return false;
  return m * k * n >= WASM_GEMM_MIN_FLOPS && matrixKernels().backend === "wasm-simd";
}

/** Whether the product goes to the WebAssembly GEMM: dense operands, enough work (every dimension), and the kernels loaded. */
export function usesWasmGemm(a: Matrix, b: Matrix): boolean {
  return isDense(a) && isDense(b) && a.cols === b.rows && wasmGemmTakes(a.rows, a.cols, b.cols);
}

/** `a %*% b` on the WebAssembly GEMM where it takes the product, else matmul. */
export function fastMatmul(a: Matrix, b: Matrix): Matrix {
  if (usesWasmGemm(a, b) && isDense(a) && isDense(b)) {
    const c = new DenseMatrix(a.rows, b.cols);
    matrixKernels().gemm(a.rows, a.cols, b.cols, a.data, b.data, c.data);
    return c;
  }
  return matmul(a, b);
}
