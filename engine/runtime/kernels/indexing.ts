/**
 * Right indexing X[rl:ru, cl:cu] (a copy of the cells in the range) and
 * left indexing X[rl:ru, cl:cu] = Y (a new X with the range replaced).
 * Ranges are 1-based and inclusive (index-range.ts).
 */
import { CsrBuilder, type CsrMatrix, type DenseMatrix, settleFormat, isDense, pooledDense, type Matrix, dimsText, RuntimeError } from "../matrix";
import { rangeText, resolveRange, type IndexRange, type ResolvedRange } from "./index-range";

/** Rows at most this wide are copied cell by cell (a subarray per row costs more than the copy). */
const NARROW_COPY = 32;

/** X[rl:ru, cl:cu]. */
export function rightIndex(x: Matrix, range: IndexRange): Matrix {
  const r = resolveRange("indexing", x.rows, x.cols, range);
  return settleFormat(isDense(x) ? sliceDense(x, r) : sliceCsr(x, r));
}

function sliceDense(x: DenseMatrix, { rl, ru, cl, cu }: ResolvedRange): DenseMatrix {
  const w = cu - cl;
  const out = pooledDense(ru - rl, w);
  const { data: src, cols } = x;
  const dst = out.data;
  if (w === cols) dst.set(src.subarray(rl * cols, ru * cols));
  else if (w === 1) for (let i = rl, o = 0; i < ru; i++) dst[o++] = src[i * cols + cl]!;
  else if (w === 2) {
    // Two columns (mlogreg's P[, 1:(k - 1)] with 3 classes): no inner loop per row.
    for (let i = rl, o = 0; i < ru; i++, o += 2) {
      const p = i * cols + cl;
      dst[o] = src[p]!;
      dst[o + 1] = src[p + 1]!;
    }
  } else if (w <= NARROW_COPY) {
    // Narrow rows: a loop per cell, not a subarray object per row.
    for (let i = rl, o = 0; i < ru; i++) for (let p = i * cols + cl, e = i * cols + cu; p < e; p++) dst[o++] = src[p]!;
  } else for (let i = rl; i < ru; i++) dst.set(src.subarray(i * cols + cl, i * cols + cu), (i - rl) * w);
  return out;
}

/** First position in row i of x whose column is ≥ col. */
function lowerBound(x: CsrMatrix, i: number, col: number): number {
  let lo = x.rowPtr[i]!;
  let hi = x.rowPtr[i + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x.colIdx[mid]! < col) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sliceCsr(x: CsrMatrix, { rl, ru, cl, cu }: ResolvedRange): CsrMatrix {
  const out = new CsrBuilder(ru - rl, cu - cl);
  const wholeRows = cl === 0 && cu === x.cols;
  for (let i = rl; i < ru; i++) {
    const end = x.rowPtr[i + 1]!;
    const start = wholeRows ? x.rowPtr[i]! : lowerBound(x, i, cl);
    out.reserve(end - start);
    for (let p = start; p < end && x.colIdx[p]! < cu; p++) out.appendUnchecked(x.colIdx[p]! - cl, x.values[p]!);
    out.endRow();
  }
  return out.finish();
}

export interface LeftIndexOptions {
  /**
   * Write into `target` itself when it is dense and return it (for a
   * loop that updates a matrix no other variable refers to); by default
   * the target is left unchanged and a new matrix returned.
   */
  inPlace?: boolean;
}

/**
 * target[rl:ru, cl:cu] = source. The source must have the range's
 * dimensions; a scalar fills the whole range.
 */
export function leftIndex(target: Matrix, source: Matrix | number, range: IndexRange, options: LeftIndexOptions = {}): Matrix {
  const r = resolveRange("left indexing", target.rows, target.cols, range);
  const h = r.ru - r.rl;
  const w = r.cu - r.cl;
  if (typeof source !== "number" && (source.rows !== h || source.cols !== w)) {
    throw new RuntimeError(
      "dimension-mismatch",
      `left indexing: the right-hand side is ${dimsText(source.rows, source.cols)} but the range ${rangeText(range)} of the ` +
        `${dimsText(target.rows, target.cols)} target is ${dimsText(h, w)}`,
    );
  }
  if (isDense(target)) {
    const out = options.inPlace ? target : copyDense(target);
    writeDense(out, source, r);
    return options.inPlace ? out : settleFormat(out);
  }
  return settleFormat(replaceInCsr(target, source, r));
}

function copyDense(x: DenseMatrix): DenseMatrix {
  const out = pooledDense(x.rows, x.cols);
  out.data.set(x.data);
  return out;
}

function writeDense(out: DenseMatrix, source: Matrix | number, { rl, ru, cl, cu }: ResolvedRange): void {
  const n = out.cols;
  const d = out.data;
  if (typeof source === "number") {
    for (let i = rl; i < ru; i++) d.fill(source, i * n + cl, i * n + cu);
    return;
  }
  const w = cu - cl;
  if (isDense(source)) {
    for (let i = rl; i < ru; i++) d.set(source.data.subarray((i - rl) * w, (i - rl + 1) * w), i * n + cl);
    return;
  }
  for (let i = rl; i < ru; i++) {
    d.fill(0, i * n + cl, i * n + cu);
    for (let p = source.rowPtr[i - rl]!, end = source.rowPtr[i - rl + 1]!; p < end; p++) d[i * n + cl + source.colIdx[p]!] = source.values[p]!;
  }
}

/** A CSR target with the range replaced: rows outside are copied, rows inside are (left part, source row, right part). */
function replaceInCsr(x: CsrMatrix, source: Matrix | number, { rl, ru, cl, cu }: ResolvedRange): CsrMatrix {
  const out = new CsrBuilder(x.rows, x.cols, x.nnz() + (typeof source === "number" ? (ru - rl) * (cu - cl) : source.nnz()));
  for (let i = 0; i < x.rows; i++) {
    const start = x.rowPtr[i]!;
    const end = x.rowPtr[i + 1]!;
    out.reserve(end - start + cu - cl);
    if (i < rl || i >= ru) {
      for (let p = start; p < end; p++) out.appendUnchecked(x.colIdx[p]!, x.values[p]!);
    } else {
      let p = start;
      for (; p < end && x.colIdx[p]! < cl; p++) out.appendUnchecked(x.colIdx[p]!, x.values[p]!);
      appendSourceRow(out, source, i - rl, cl, cu);
      for (; p < end && x.colIdx[p]! < cu; p++);
      for (; p < end; p++) out.appendUnchecked(x.colIdx[p]!, x.values[p]!);
    }
    out.endRow();
  }
  return out.finish();
}

function appendSourceRow(out: CsrBuilder, source: Matrix | number, row: number, cl: number, cu: number): void {
  if (typeof source === "number") {
    if (source !== 0) for (let j = cl; j < cu; j++) out.appendUnchecked(j, source);
  } else if (isDense(source)) {
    const w = cu - cl;
    for (let j = 0; j < w; j++) {
      const v = source.data[row * w + j]!;
      if (v !== 0) out.appendUnchecked(cl + j, v);
    }
  } else {
    for (let p = source.rowPtr[row]!, end = source.rowPtr[row + 1]!; p < end; p++) out.appendUnchecked(cl + source.colIdx[p]!, source.values[p]!);
  }
}
