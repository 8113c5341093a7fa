/**
 * `A op B` element-wise on matrices (and scalars), with broadcasting (see
 * broadcast.ts) and SystemDS's sparse-safe shortcuts on CSR operands:
 *   - CSR op CSR of one shape: `*` (and `&`, bitwAnd) touches only cells
 *     stored in both; operators with op(0, 0) = 0 (`+`, `-`, `!=`, min,
 *     ...) only cells stored in either;
 *   - CSR * dense of one shape: only the CSR operand's cells;
 *   - CSR op s, CSR op vector (and s op CSR, ...): when op(0, v) = 0 for
 *     every value v of the other operand (X * 2, X / 2, X ^ 2, X > 0,
 *     X * rowvector), the CSR operand's pattern is kept and only its
 *     stored cells are computed.
 * Everything else runs the dense loop. Results are in the format
 * SystemDS's rule picks (`settleFormat`).
 */
import type { ElementwiseBinaryOp } from "../../program";
import { toDense, CsrMatrix, dropZeros, settleFormat, isDense, isSparse, pooledDense, releaseIfTemporary, type Matrix } from "../matrix";
import { denseBinaryKernel, sparseIntersectionKernel, sparseKeepKernel, sparseUnionKernel } from "./binary-kernels";
import { scalarBinary, scalarFunction, sparsityClass } from "./binary-ops";
import { broadcastRole, broadcastShape, broadcastStrides, type Shape } from "./broadcast";

/** An operand of an element-wise operation: a matrix or a scalar. */
export type Operand = Matrix | number;

/** `a op b` where at least one side is a matrix; throws a RuntimeError when the shapes do not combine. */
export function elementwiseBinary(op: ElementwiseBinaryOp, a: Matrix, b: Operand): Matrix;
export function elementwiseBinary(op: ElementwiseBinaryOp, a: Operand, b: Matrix): Matrix;
export function elementwiseBinary(op: ElementwiseBinaryOp, a: Operand, b: Operand): Matrix {
  if (typeof a === "number" && typeof b === "number") {
    throw new TypeError(`elementwiseBinary(${op}): both operands are scalars; use scalarBinary`);
  }
  const sa = shapeOf(a);
  const sb = shapeOf(b);
  const out = broadcastShape(`'${op}'`, sa, sb);
  return settleFormat(sparseShortcut(op, a, b, out) ?? denseBinary(op, a, b, out));
}

function shapeOf(x: Operand): Shape {
  return typeof x === "number" ? { rows: 1, cols: 1 } : x;
}

/** A scalar as a 1 x 1 dense operand. */
function valuesOf(x: Operand): { data: Float64Array; release: () => void } {
  if (typeof x === "number") return { data: Float64Array.of(x), release: () => {} };
  const d = toDense(x);
  return { data: d.data, release: () => releaseIfTemporary(d, x) };
}

function denseBinary(op: ElementwiseBinaryOp, a: Operand, b: Operand, out: Shape): Matrix {
  const sa = shapeOf(a);
  const sb = shapeOf(b);
  const va = valuesOf(a);
  const vb = valuesOf(b);
  const result = pooledDense(out.rows, out.cols);
  const as = broadcastStrides(sa, out);
  const bs = broadcastStrides(sb, out);
  if (isWholeOrScalar(as, out) && isWholeOrScalar(bs, out)) {
    // Every operand is the output's shape or a scalar: all cells as one row (a column vector is one loop, not a loop per cell).
    denseBinaryKernel(op)(result.data, va.data, vb.data, 1, out.rows * out.cols, 0, as.colStep, 0, bs.colStep);
  } else {
    denseBinaryKernel(op)(result.data, va.data, vb.data, out.rows, out.cols, as.rowStep, as.colStep, bs.rowStep, bs.colStep);
  }
  va.release();
  vb.release();
  return result;
}

/** Strides of an operand that covers the output cell for cell (row-major), or of a scalar. */
function isWholeOrScalar(strides: { rowStep: number; colStep: number }, out: Shape): boolean {
  return (strides.rowStep === out.cols && strides.colStep === 1) || (strides.rowStep === 0 && strides.colStep === 0);
}

/** The result through a sparse-safe path, or undefined when none applies. */
function sparseShortcut(op: ElementwiseBinaryOp, a: Operand, b: Operand, out: Shape): Matrix | undefined {
  const aFull = typeof a !== "number" && broadcastRole(a, out) === "full";
  const bFull = typeof b !== "number" && broadcastRole(b, out) === "full";
  const cls = sparsityClass(op);
  if (aFull && bFull && isSparse(a as Matrix) && isSparse(b as Matrix)) {
    if (cls === "intersection") return mergeSparse(op, a as CsrMatrix, b as CsrMatrix, false);
    if (cls === "union") return mergeSparse(op, a as CsrMatrix, b as CsrMatrix, true);
    return undefined;
  }
  if (aFull && isSparse(a as Matrix)) return keepPattern(op, a as CsrMatrix, b, out, false, bFull);
  if (bFull && isSparse(b as Matrix)) return keepPattern(op, b as CsrMatrix, a, out, true, aFull);
  return undefined;
}

/**
 * x op other (other op x when `swapped`) over x's stored cells, when that
 * is exact: `other` is a full dense operand and op an intersection
 * operator, or a broadcast operand with op(0, v) = 0 for all its values.
 */
function keepPattern(op: ElementwiseBinaryOp, x: CsrMatrix, other: Operand, out: Shape, swapped: boolean, otherFull: boolean): Matrix | undefined {
  if (otherFull) {
    if (sparsityClass(op) !== "intersection" || !isDense(other as Matrix)) return undefined;
  }
  const vals = valuesOf(other);
  if (!otherFull && !zeroPreserving(op, vals.data, swapped)) {
    vals.release();
    return undefined;
  }
  const nnz = x.nnz();
  const outVal = new Float64Array(nnz);
  const s = broadcastStrides(shapeOf(other), out);
  sparseKeepKernel(op, swapped)(outVal, x.rowPtr, x.colIdx, x.values, x.rows, vals.data, s.rowStep, s.colStep);
  vals.release();
  const result = new CsrMatrix(out.rows, out.cols, x.rowPtr.slice(0, out.rows + 1), x.colIdx.slice(0, nnz), outVal);
  return dropZeros(result);
}

/** op(0, v) = 0 (v op 0 when swapped) for every v. */
function zeroPreserving(op: ElementwiseBinaryOp, values: Float64Array, swapped: boolean): boolean {
  const f = scalarFunction(op);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if ((swapped ? f(v, 0) : f(0, v)) !== 0) return false;
  }
  return true;
}

function mergeSparse(op: ElementwiseBinaryOp, a: CsrMatrix, b: CsrMatrix, union: boolean): CsrMatrix {
  const capacity = union ? a.nnz() + b.nnz() : Math.min(a.nnz(), b.nnz());
  const outPtr = new Int32Array(a.rows + 1);
  const outCol = new Int32Array(capacity);
  const outVal = new Float64Array(capacity);
  const kernel = union ? sparseUnionKernel(op) : sparseIntersectionKernel(op);
  const n = kernel(a.rows, a.rowPtr, a.colIdx, a.values, b.rowPtr, b.colIdx, b.values, outPtr, outCol, outVal);
  const trim = n < capacity;
  return new CsrMatrix(a.rows, a.cols, outPtr, trim ? outCol.slice(0, n) : outCol, trim ? outVal.slice(0, n) : outVal);
}

export { scalarBinary };
