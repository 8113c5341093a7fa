/**
 * min, max and prod over all cells, each row or each column. A CSR matrix's
 * unstored cells count as zeros. NaN propagates (min / max of a slice with
 * a NaN is NaN). A slice without cells gives the operation's identity:
 * Inf for min, -Inf for max, 1 for prod.
 */
import type { Matrix } from "../matrix";

export type ExtremumFunction = "min" | "max" | "prod";

function identity(fn: ExtremumFunction): number {
  return fn === "min" ? Infinity : fn === "max" ? -Infinity : 1;
}

/** Folds a[start .. end) into acc. */
function fold(fn: ExtremumFunction, acc: number, a: Float64Array, start: number, end: number): number {
  if (fn === "min") for (let i = start; i < end; i++) acc = Math.min(acc, a[i]!);
  else if (fn === "max") for (let i = start; i < end; i++) acc = Math.max(acc, a[i]!);
  else for (let i = start; i < end; i++) acc *= a[i]!;
  return acc;
}

/** Folds one 0 (an unstored cell) into acc. */
function foldZero(fn: ExtremumFunction, acc: number): number {
  return fn === "min" ? Math.min(acc, 0) : fn === "max" ? Math.max(acc, 0) : acc * 0;
}

export function extremumFull(fn: ExtremumFunction, x: Matrix): number {
  if (x.format === "dense") return fold(fn, identity(fn), x.data, 0, x.data.length);
  const nnz = x.nnz();
  const acc = fold(fn, identity(fn), x.values, 0, nnz);
  return nnz < x.rows * x.cols ? foldZero(fn, acc) : acc;
}

export function extremumRows(fn: ExtremumFunction, x: Matrix): Float64Array {
  const out = new Float64Array(x.rows);
  for (let i = 0; i < x.rows; i++) {
    if (x.format === "dense") out[i] = fold(fn, identity(fn), x.data, i * x.cols, (i + 1) * x.cols);
    else {
      const start = x.rowPtr[i]!;
      const end = x.rowPtr[i + 1]!;
      const acc = fold(fn, identity(fn), x.values, start, end);
      out[i] = end - start < x.cols ? foldZero(fn, acc) : acc;
    }
  }
  return out;
}

export function extremumCols(fn: ExtremumFunction, x: Matrix): Float64Array {
  const { rows, cols } = x;
  const out = new Float64Array(cols).fill(identity(fn));
  if (x.format === "dense") {
    const d = x.data;
    for (let i = 0; i < rows; i++) {
      const base = i * cols;
      if (fn === "min") for (let j = 0; j < cols; j++) out[j] = Math.min(out[j]!, d[base + j]!);
      else if (fn === "max") for (let j = 0; j < cols; j++) out[j] = Math.max(out[j]!, d[base + j]!);
      else for (let j = 0; j < cols; j++) out[j]! *= d[base + j]!;
    }
    return out;
  }
  const counts = new Int32Array(cols);
  const { colIdx, values } = x;
  const nnz = x.nnz();
  for (let p = 0; p < nnz; p++) {
    const j = colIdx[p]!;
    counts[j]!++;
    const v = values[p]!;
    out[j] = fn === "min" ? Math.min(out[j]!, v) : fn === "max" ? Math.max(out[j]!, v) : out[j]! * v;
  }
  for (let j = 0; j < cols; j++) if (counts[j]! < rows) out[j] = foldZero(fn, out[j]!);
  return out;
}
