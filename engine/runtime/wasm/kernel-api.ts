/**
 * The hot kernels of the runtime behind one interface, in plain typed arrays:
 * dense matrices are row-major Float64Arrays, sparse ones CSR (Int32Array
 * rowPtr/colIdx, Float64Array values). Two implementations: the WebAssembly
 * SIMD one (wasm-kernels.ts) and the pure-JS fallback (js-kernels.ts).
 * Outputs are overwritten, never accumulated into; they must not alias inputs
 * (except the element-wise output, which may be one of its inputs).
 */

/** A CSR matrix as arrays: row r's entries are at positions rowPtr[r] .. rowPtr[r+1]-1. */
export interface CsrArrays {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: Float64Array;
}

export type ElementwiseOp = "+" | "-" | "*" | "/";

export interface MatrixKernels {
  /** Which implementation this is. */
  readonly backend: "wasm-simd" | "js";
  /** c (m×n) = a (m×k) · b (k×n). */
  gemm(m: number, k: number, n: number, a: Float64Array, b: Float64Array, c: Float64Array): void;
  /** y (m) = a (m×n) · x (n). */
  gemv(m: number, n: number, a: Float64Array, x: Float64Array, y: Float64Array): void;
  /** out[i] = a[i] op b[i] for i < out.length (a and b at least as long). */
  elementwise(op: ElementwiseOp, a: Float64Array, b: Float64Array, out: Float64Array): void;
  /** sum(x*y*z) over all cells, fused: no intermediate is materialized. */
  sumProduct3(x: Float64Array, y: Float64Array, z: Float64Array): number;
  /** y (a.rows) = a · x (a.cols). */
  spmv(a: CsrArrays, x: Float64Array, y: Float64Array): void;
  /** c (a.rows×n) = a · b (a.cols×n), b and c row-major dense. */
  spmm(a: CsrArrays, n: number, b: Float64Array, c: Float64Array): void;
}

/** Throws unless the arrays hold what the dimensions say (a programming error, not a user error). */
export function checkGemm(m: number, k: number, n: number, a: Float64Array, b: Float64Array, c: Float64Array): void {
  checkDims(m, k, n);
  if (a.length < m * k || b.length < k * n || c.length < m * n) {
    throw new RangeError(`gemm ${m}x${k}x${n}: arrays of ${a.length}, ${b.length}, ${c.length} elements are too short`);
  }
}

export function checkGemv(m: number, n: number, a: Float64Array, x: Float64Array, y: Float64Array): void {
  checkDims(m, n);
  if (a.length < m * n || x.length < n || y.length < m) {
    throw new RangeError(`gemv ${m}x${n}: arrays of ${a.length}, ${x.length}, ${y.length} elements are too short`);
  }
}

export function checkElementwise(a: Float64Array, b: Float64Array, out: Float64Array): void {
  if (a.length < out.length || b.length < out.length) {
    throw new RangeError(`elementwise: inputs of ${a.length} and ${b.length} elements for an output of ${out.length}`);
  }
}

export function checkSumProduct3(x: Float64Array, y: Float64Array, z: Float64Array): void {
  if (x.length !== y.length || x.length !== z.length) {
    throw new RangeError(`sumProduct3: lengths ${x.length}, ${y.length}, ${z.length} differ`);
  }
}

function checkCsr(a: CsrArrays): void {
  checkDims(a.rows, a.cols);
  if (a.rowPtr.length < a.rows + 1) throw new RangeError(`csr: rowPtr has ${a.rowPtr.length} entries for ${a.rows} rows`);
  const nnz = a.rows === 0 ? 0 : a.rowPtr[a.rows]!;
  if (a.colIdx.length < nnz || a.values.length < nnz) {
    throw new RangeError(`csr: ${nnz} entries but colIdx has ${a.colIdx.length} and values ${a.values.length}`);
  }
}

export function checkSpmv(a: CsrArrays, x: Float64Array, y: Float64Array): void {
  checkCsr(a);
  if (x.length < a.cols || y.length < a.rows) throw new RangeError(`spmv ${a.rows}x${a.cols}: x has ${x.length}, y ${y.length} elements`);
}

export function checkSpmm(a: CsrArrays, n: number, b: Float64Array, c: Float64Array): void {
  checkCsr(a);
  checkDims(n);
  if (b.length < a.cols * n || c.length < a.rows * n) {
    throw new RangeError(`spmm ${a.rows}x${a.cols}x${n}: b has ${b.length}, c ${c.length} elements`);
  }
}

function checkDims(...dims: number[]): void {
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0) throw new RangeError(`matrix dimension ${d} is not a non-negative integer`);
  }
}
