/**
 * `A %*% B` in every combination of dense and CSR operands: dense GEMM or
 * GEMV, CSR x dense (SpMM, SpMV), dense x CSR, CSR x CSR (Gustavson). The
 * result is in the format SystemDS's rule picks. A tall A times a skinny B
 * runs one pass over A's rows (skinny-matmul.ts). GEMV, SpMV and SpMM run as
 * kernel calls (../codegen/kernel-matmul.ts): split over the kernel threads
 * when their operands live in kernel memory, with the reference arithmetic;
 * a GEMV whose matrix is resident in WebAssembly memory (a large one) runs
 * the WebAssembly SIMD kernel on it in place (../wasm/resident-kernels.ts).
 */
import { CsrMatrix, settleFormat, isDense, pooledDense, pooledZeros, type Matrix, dimsText, RuntimeError } from "../matrix";
import { kernelGemv, kernelSpmm, kernelSpmv } from "../codegen";
import { gemvResident } from "../wasm";
import { gemm } from "./gemm";
import { isSkinnyDenseProduct, skinnyMatmul } from "./skinny-matmul";
import { csrTimesCsr, denseTimesCsr } from "./sparse-matmul";

/** Throws the RuntimeError of `A %*% B` when A's columns differ from B's rows. */
export function checkMatmulDims(a: { rows: number; cols: number }, b: { rows: number; cols: number }): void {
  if (a.cols !== b.rows) {
    throw new RuntimeError(
      "dimension-mismatch",
      `matrix multiply: the left operand is ${dimsText(a.rows, a.cols)} and the right ${dimsText(b.rows, b.cols)}; ` +
        `the columns of the left (${a.cols}) must equal the rows of the right (${b.rows})`,
    );
  }
}

export function matmul(a: Matrix, b: Matrix): Matrix {
  checkMatmulDims(a, b);
  const m = a.rows;
  const k = a.cols;
  const n = b.cols;
  if (m === 0 || n === 0 || k === 0 || emptySparse(a) || emptySparse(b)) return settleFormat(CsrMatrix.empty(m, n));
  if (isDense(a)) {
    if (isDense(b)) {
      if (n === 1) {
        const y = pooledDense(m, 1);
        if (!gemvResident(a.data, m, k, b.data, y.data)) kernelGemv(a.data, b.data, y.data, m, k);
        return settleFormat(y);
      }
      if (isSkinnyDenseProduct(m, k, n)) {
        const c = pooledDense(m, n);
        skinnyMatmul(a.data, b.data, c.data, m, k, n);
        return settleFormat(c);
      }
      const c = pooledZeros(m, n);
      gemm(a.data, b.data, c.data, m, k, n);
      return settleFormat(c);
    }
    const c = pooledZeros(m, n);
    denseTimesCsr(a.data, m, k, b, c.data);
    return settleFormat(c);
  }
  if (isDense(b)) {
    if (n === 1) {
      const y = pooledDense(m, 1);
      kernelSpmv(a, b.data, y.data);
      return settleFormat(y);
    }
    const c = pooledZeros(m, n);
    kernelSpmm(a, b.data, c.data, n);
    return settleFormat(c);
  }
  return settleFormat(csrTimesCsr(a, b));
}

/** A CSR matrix without non-zeros (a dense operand is not scanned: that would cost as much as a GEMV). */
function emptySparse(x: Matrix): boolean {
  return !isDense(x) && x.nnz() === 0;
}
