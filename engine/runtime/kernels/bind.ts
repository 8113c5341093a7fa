/** cbind (side by side, same number of rows) and rbind (stacked, same number of columns) of one or more matrices. */
import { CsrBuilder, settleFormat, isDense, pooledDense, type Matrix, dimsText, RuntimeError } from "../matrix";

function checkParts(what: "cbind" | "rbind", parts: readonly Matrix[]): void {
  if (parts.length === 0) throw new RuntimeError("invalid-argument", `${what}: needs at least one matrix`);
  const key = what === "cbind" ? "rows" : "cols";
  const first = parts[0]!;
  for (const m of parts) {
    if (m[key] !== first[key]) {
      throw new RuntimeError(
        "dimension-mismatch",
        `${what}: the matrices must have the same number of ${key === "rows" ? "rows" : "columns"}, ` +
          `but a ${dimsText(first.rows, first.cols)} is combined with a ${dimsText(m.rows, m.cols)}`,
      );
    }
  }
}

export function cbind(...parts: Matrix[]): Matrix {
  checkParts("cbind", parts);
  const rows = parts[0]!.rows;
  const cols = parts.reduce((s, m) => s + m.cols, 0);
  if (parts.every(isDense)) {
    const out = pooledDense(rows, cols);
    const dst = out.data;
    let offset = 0;
    for (const m of parts) {
      // Each part's columns into their band of every row: narrow parts cell by cell (no subarray object per row).
      const { data: src, cols: w } = m;
      if (w <= 32) for (let i = 0, p = 0; i < rows; i++) for (let j = 0, o = i * cols + offset; j < w; j++) dst[o + j] = src[p++]!;
      else for (let i = 0; i < rows; i++) dst.set(src.subarray(i * w, (i + 1) * w), i * cols + offset);
      offset += w;
    }
    return settleFormat(out);
  }
  const out = new CsrBuilder(rows, cols, parts.reduce((s, m) => s + m.nnz(), 0));
  for (let i = 0; i < rows; i++) {
    let offset = 0;
    for (const m of parts) {
      appendRow(out, m, i, offset);
      offset += m.cols;
    }
    out.endRow();
  }
  return settleFormat(out.finish());
}

export function rbind(...parts: Matrix[]): Matrix {
  checkParts("rbind", parts);
  const cols = parts[0]!.cols;
  const rows = parts.reduce((s, m) => s + m.rows, 0);
  if (parts.every(isDense)) {
    const out = pooledDense(rows, cols);
    let offset = 0;
    for (const m of parts) {
      out.data.set(m.data, offset);
      offset += m.data.length;
    }
    return settleFormat(out);
  }
  const out = new CsrBuilder(rows, cols, parts.reduce((s, m) => s + m.nnz(), 0));
  for (const m of parts) {
    for (let i = 0; i < m.rows; i++) {
      appendRow(out, m, i, 0);
      out.endRow();
    }
  }
  return settleFormat(out.finish());
}

/** Appends the non-zeros of row i of m, shifted right by `offset` columns. */
function appendRow(out: CsrBuilder, m: Matrix, i: number, offset: number): void {
  if (isDense(m)) {
    out.reserve(m.cols);
    for (let j = 0; j < m.cols; j++) {
      const v = m.data[i * m.cols + j]!;
      if (v !== 0) out.appendUnchecked(offset + j, v);
    }
    return;
  }
  const start = m.rowPtr[i]!;
  const end = m.rowPtr[i + 1]!;
  out.reserve(end - start);
  for (let p = start; p < end; p++) out.appendUnchecked(offset + m.colIdx[p]!, m.values[p]!);
}
