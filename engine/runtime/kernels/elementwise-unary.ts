/**
 * f(X) element-wise. On a CSR matrix, a function with f(0) = 0 (-, abs,
 * sqrt, round, sin, ...) is computed on the stored cells only and keeps
 * the pattern (dropping cells that become 0); any other function (exp,
 * cos, !, ...) gives a dense result filled with f(0) around them.
 */
import type { ElementwiseUnaryOp } from "../../program";
import { CsrMatrix, dropZeros, settleFormat, isDense, pooledDense, type Matrix } from "../matrix";
import { scalarUnary, unaryMapKernel } from "./unary-ops";

export function elementwiseUnary(op: ElementwiseUnaryOp, x: Matrix): Matrix {
  const map = unaryMapKernel(op);
  if (isDense(x)) {
    const out = pooledDense(x.rows, x.cols);
    map(out.data, x.data, x.data.length);
    return settleFormat(out);
  }
  const nnz = x.nnz();
  const atZero = scalarUnary(op, 0);
  if (atZero === 0) {
    const values = new Float64Array(nnz);
    map(values, x.values, nnz);
    return settleFormat(dropZeros(new CsrMatrix(x.rows, x.cols, x.rowPtr.slice(), x.colIdx.slice(0, nnz), values)));
  }
  const out = pooledDense(x.rows, x.cols);
  const d = out.data;
  d.fill(atZero);
  const mapped = new Float64Array(nnz);
  map(mapped, x.values, nnz);
  const { rowPtr, colIdx, cols } = x;
  for (let i = 0; i < x.rows; i++) {
    const base = i * cols;
    for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) d[base + colIdx[p]!] = mapped[p]!;
  }
  return settleFormat(out);
}

export { scalarUnary };
