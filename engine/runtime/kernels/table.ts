/**
 * table(A, B[, W][, rows, cols]): the contingency table. For each cell
 * position k of A (row-major), out[A_k, B_k] += W_k (1 without weights);
 * A, B and W have the same dimensions, or are scalars repeated for every
 * cell. Category values are truncated to integers; a cell where A, B or W
 * is NaN is skipped (missing), a category below 1 is a RuntimeError. The
 * result is max(A) x max(B), or `dims` when given (cells outside are then
 * dropped, as SystemDS does).
 */
import { CsrMatrix, DenseMatrix, settleFormat, type Matrix, dimsText, RuntimeError, toDense } from "../matrix";

export type TableOperand = Matrix | number;

export function table(a: TableOperand, b: TableOperand, weights: TableOperand = 1, dims?: { rows: number; cols: number }): Matrix {
  const shape = [a, b, weights].find((x): x is Matrix => typeof x !== "number");
  const cells = shape === undefined ? 1 : shape.rows * shape.cols;
  for (const [name, x] of [["A", a], ["B", b], ["W", weights]] as const) {
    if (typeof x !== "number" && shape !== undefined && (x.rows !== shape.rows || x.cols !== shape.cols)) {
      throw new RuntimeError(
        "dimension-mismatch",
        `table: ${name} is ${dimsText(x.rows, x.cols)} but the first matrix operand is ${dimsText(shape.rows, shape.cols)}`,
      );
    }
  }
  const av = valuesOf(a, cells);
  const bv = valuesOf(b, cells);
  const given = typeof weights === "number" ? weights : valuesOf(weights, cells);
  const oneHot = dims === undefined || typeof a === "number" ? undefined : increasingRowsTable(av, bv, given, cells, dims.rows, dims.cols);
  if (oneHot !== undefined) return settleFormat(oneHot);
  const wv = typeof given === "number" ? valuesOf(given, cells) : given;
  const rowOf = new Int32Array(cells);
  const colOf = new Int32Array(cells);
  let maxRow = 0;
  let maxCol = 0;
  for (let k = 0; k < cells; k++) {
    const r = av[k]!;
    const c = bv[k]!;
    if (Number.isNaN(r) || Number.isNaN(c) || Number.isNaN(wv[k]!)) {
      rowOf[k] = -1;
      continue;
    }
    const ri = Math.trunc(r);
    const ci = Math.trunc(c);
    if (ri < 1 || ci < 1) {
      throw new RuntimeError("invalid-argument", `table: categories must be positive integers, but cell ${k + 1} has (${r}, ${c})`);
    }
    rowOf[k] = ri - 1;
    colOf[k] = ci - 1;
    maxRow = Math.max(maxRow, ri);
    maxCol = Math.max(maxCol, ci);
  }
  const rows = dims?.rows ?? maxRow;
  const cols = dims?.cols ?? maxCol;
  // A table with about as many cells as entries (one-hot labels, 1e6 x 3) is summed densely; settleFormat then picks its format.
  const denseEnough = rows * cols <= DENSE_CELLS_PER_ENTRY * cells;
  return settleFormat(denseEnough ? accumulateDense(rows, cols, rowOf, colOf, wv) : accumulate(rows, cols, rowOf, colOf, wv));
}

/** A table is summed into a dense matrix when it has at most this many cells per entry of its operands. */
const DENSE_CELLS_PER_ENTRY = 4;

/** Sums the weights per (row, col) into a dense matrix, dropping entries outside rows x cols. */
function accumulateDense(rows: number, cols: number, rowOf: Int32Array, colOf: Int32Array, w: Float64Array): DenseMatrix {
  const out = new DenseMatrix(rows, cols);
  const data = out.data;
  for (let k = 0; k < rowOf.length; k++) {
    const r = rowOf[k]!;
    const c = colOf[k]!;
    if (r >= 0 && r < rows && c < cols) data[r * cols + c]! += w[k]!;
  }
  return out;
}

/**
 * The table with given dimensions when the entries' rows increase (each row
 * holds at most one entry, in order: one-hot labels table(seq(1, n), y, n,
 * k)): its CSR arrays in one pass, without the general path's per-entry
 * arrays, dense sums and sort; entries outside rows x cols and zero weights
 * are dropped. Undefined at the first entry that does not fit (a row not
 * above the previous one, a category below 1): the general path then runs
 * (and reports the error).
 */
function increasingRowsTable(av: Float64Array, bv: Float64Array, weights: number | Float64Array, cells: number, rows: number, cols: number): CsrMatrix | undefined {
  const capacity = Math.min(cells, rows);
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(capacity);
  const values = new Float64Array(capacity);
  let n = 0;
  let last = 0;
  for (let k = 0; k < cells; k++) {
    const r = av[k]!;
    const c = bv[k]!;
    const w = typeof weights === "number" ? weights : weights[k]!;
    if (Number.isNaN(r) || Number.isNaN(c) || Number.isNaN(w)) continue;
    const ri = Math.trunc(r);
    const ci = Math.trunc(c);
    if (ri <= last || ci < 1) return undefined;
    last = ri;
    if (ri <= rows && ci <= cols && w !== 0) {
      rowPtr[ri] = 1;
      colIdx[n] = ci - 1;
      values[n++] = w;
    }
  }
  for (let i = 0; i < rows; i++) rowPtr[i + 1]! += rowPtr[i]!;
  return new CsrMatrix(rows, cols, rowPtr, n === capacity ? colIdx : colIdx.slice(0, n), n === capacity ? values : values.slice(0, n));
}

/** The cells of an operand, row-major; a scalar repeated `cells` times. */
function valuesOf(x: TableOperand, cells: number): Float64Array {
  if (typeof x === "number") return new Float64Array(cells).fill(x);
  const d = toDense(x);
  return d === x ? d.data : d.data.slice();
}

/** Sums the weights per (row, col) into a CSR matrix, dropping entries outside rows x cols and sums of 0. */
function accumulate(rows: number, cols: number, rowOf: Int32Array, colOf: Int32Array, w: Float64Array): CsrMatrix {
  const counts = new Int32Array(rows + 1);
  const inside = (k: number) => rowOf[k]! >= 0 && rowOf[k]! < rows && colOf[k]! < cols;
  for (let k = 0; k < rowOf.length; k++) if (inside(k)) counts[rowOf[k]! + 1]!++;
  for (let i = 0; i < rows; i++) counts[i + 1]! += counts[i]!;
  const order = new Int32Array(counts[rows]!);
  const next = counts.slice(0, rows);
  for (let k = 0; k < rowOf.length; k++) if (inside(k)) order[next[rowOf[k]!]!++] = k;
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(order.length);
  const values = new Float64Array(order.length);
  let n = 0;
  for (let i = 0; i < rows; i++) {
    const start = counts[i]!;
    const end = counts[i + 1]!;
    sortByColumn(order, start, end, colOf);
    for (let e = start; e < end; ) {
      const c = colOf[order[e]!]!;
      let sum = 0;
      for (; e < end && colOf[order[e]!] === c; e++) sum += w[order[e]!]!;
      if (sum !== 0) {
        colIdx[n] = c;
        values[n++] = sum;
      }
    }
    rowPtr[i + 1] = n;
  }
  return new CsrMatrix(rows, cols, rowPtr, colIdx, values);
}

/**
 * Sorts order[start, end) by column, in place and stably (a row's cells come
 * in row-major order, so equal columns keep that order): insertion sort for
 * the few cells of a typical row, a comparison sort for long ones.
 */
function sortByColumn(order: Int32Array, start: number, end: number, colOf: Int32Array): void {
  if (end - start > 32) {
    order.subarray(start, end).sort((x, y) => colOf[x]! - colOf[y]! || x - y);
    return;
  }
  for (let e = start + 1; e < end; e++) {
    const k = order[e]!;
    const c = colOf[k]!;
    let j = e - 1;
    for (; j >= start && colOf[order[j]!]! > c; j--) order[j + 1] = order[j]!;
    order[j + 1] = k;
  }
}
