/**
 * min, max and prod over all cells, each row or each column. A CSR matrix's
 * unstored cells count as zeros. NaN propagates (min / max of a slice with
 * a NaN is NaN). A slice without cells gives the operation's identity:
 * Inf for min, -Inf for max, 1 for prod.
 *
 * Per-row results go into a pooled buffer (a fresh array of a million rows
 * costs its first touch of every page, about 0.1 s on virtual machines,
 * per call of a loop's rowMins).
 */
import { bufferPool, type Matrix } from "../matrix";

export type ExtremumFunction = "min" | "max" | "prod";

function identity(fn: ExtremumFunction): number {
  return fn === "min" ? Infinity : fn === "max" ? -Infinity : 1;
}

/** Folds a[start .. end) into acc. */
function fold(fn: ExtremumFunction, acc: number, a: Float64Array, start: number, end: number): number {
  if (fn === "min") return foldMin(acc, a, start, end);
  if (fn === "max") return foldMax(acc, a, start, end);
  for (let i = start; i < end; i++) acc *= a[i]!;
  return acc;
}

/**
 * Math.min folded over a[start .. end) by comparisons (Math.min per cell,
 * which handles NaN and -0 in every call, takes about 3x as long): a NaN
 * makes it NaN, and when the minimum is zero it is -0 if a -0 was among
 * the values (acc included), as Math.min gives.
 */
function foldMin(acc: number, a: Float64Array, start: number, end: number): number {
  let nan = acc !== acc;
  for (let i = start; i < end; i++) {
    const v = a[i]!;
    if (v < acc) acc = v;
    else if (v !== v) nan = true;
  }
  if (nan) return NaN;
  if (acc === 0) for (let i = start; i < end; i++) if (a[i] === 0 && 1 / a[i]! < 0) return -0;
  return acc;
}

/** Math.max folded the same way: NaN if any; a zero maximum is +0 if a +0 was among the values. */
function foldMax(acc: number, a: Float64Array, start: number, end: number): number {
  let nan = acc !== acc;
  for (let i = start; i < end; i++) {
    const v = a[i]!;
    if (v > acc) acc = v;
    else if (v !== v) nan = true;
  }
  if (nan) return NaN;
  if (acc === 0) for (let i = start; i < end; i++) if (a[i] === 0 && 1 / a[i]! > 0) return 0;
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
  const out = bufferPool.acquire(x.rows);
  if (x.format === "dense") {
    if (fn === "min") denseRowMins(x.data, x.rows, x.cols, out);
    else if (fn === "max") denseRowMaxs(x.data, x.rows, x.cols, out);
    else for (let i = 0; i < x.rows; i++) out[i] = fold(fn, 1, x.data, i * x.cols, (i + 1) * x.cols);
    return out;
  }
  for (let i = 0; i < x.rows; i++) {
    const start = x.rowPtr[i]!;
    const end = x.rowPtr[i + 1]!;
    const acc = fold(fn, identity(fn), x.values, start, end);
    out[i] = end - start < x.cols ? foldZero(fn, acc) : acc;
  }
  return out;
}

/** rowMins of a dense rows x cols matrix into out (Math.min: NaN propagates, -0 below 0). */
function denseRowMins(d: Float64Array, rows: number, cols: number, out: Float64Array): void {
  for (let i = 0, base = 0; i < rows; i++, base += cols) {
    let acc = Infinity;
    for (let j = base; j < base + cols; j++) acc = Math.min(acc, d[j]!);
    out[i] = acc;
  }
}

/** rowMaxs of a dense rows x cols matrix into out. */
function denseRowMaxs(d: Float64Array, rows: number, cols: number, out: Float64Array): void {
  for (let i = 0, base = 0; i < rows; i++, base += cols) {
    let acc = -Infinity;
    for (let j = base; j < base + cols; j++) acc = Math.max(acc, d[j]!);
    out[i] = acc;
  }
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
