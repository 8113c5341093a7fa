/**
 * The neutral form in which the readers hand over a matrix and the writers
 * take one, independent of the runtime's matrix classes (which wrap it).
 *
 * - dense: row-major `values` of length rows · cols (cell (i, j) at i · cols + j).
 * - csr: compressed sparse rows: row i's entries are `colIdx`/`values` at
 *   rowPtr[i] .. rowPtr[i+1]-1, columns strictly ascending within a row,
 *   no explicit zeros (NaN is a non-zero, as in SystemDS); `colIdx` and
 *   `values` may be longer than rowPtr[rows] (spare capacity of a runtime
 *   CsrMatrix), so code reads them within rowPtr's bounds only.
 * Indices are 0-based here; files are 1-based. Conversions allocate in kernel
 * memory (shared when large), as the runtime's own matrices.
 */
import { allocateF64, allocateI32, csrShared } from "../matrix";

export interface DenseMatrixData {
  format: "dense";
  rows: number;
  cols: number;
  values: Float64Array;
}

export interface CsrMatrixData {
  format: "csr";
  rows: number;
  cols: number;
  /** Length rows + 1; rowPtr[0] = 0, rowPtr[rows] = nnz. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

export type MatrixData = DenseMatrixData | CsrMatrixData;

export function denseMatrixData(rows: number, cols: number, values: Float64Array = new Float64Array(rows * cols)): DenseMatrixData {
  if (values.length !== rows * cols) throw new RangeError(`dense data of ${rows} x ${cols} needs ${rows * cols} values, not ${values.length}`);
  return { format: "dense", rows, cols, values };
}

/** Non-zeros (NaN counts, as in SystemDS). */
export function matrixDataNnz(data: MatrixData): number {
  if (data.format === "csr") return data.rowPtr[data.rows]!;
  let nnz = 0;
  for (const v of data.values) if (v !== 0) nnz++;
  return nnz;
}

/** Cell (i, j), 0-based. */
export function matrixDataGet(data: MatrixData, i: number, j: number): number {
  if (data.format === "dense") return data.values[i * data.cols + j]!;
  let low = data.rowPtr[i]!;
  let high = data.rowPtr[i + 1]! - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const c = data.colIdx[mid]!;
    if (c === j) return data.values[mid]!;
    if (c < j) low = mid + 1;
    else high = mid - 1;
  }
  return 0;
}

/** Calls `visit` for each non-zero in row-major order (0-based indices). */
export function forEachNonZero(data: MatrixData, visit: (i: number, j: number, value: number) => void): void {
  if (data.format === "csr") {
    for (let i = 0; i < data.rows; i++) {
      for (let k = data.rowPtr[i]!; k < data.rowPtr[i + 1]!; k++) visit(i, data.colIdx[k]!, data.values[k]!);
    }
    return;
  }
  const { rows, cols, values } = data;
  for (let i = 0, at = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++, at++) {
      const v = values[at]!;
      if (v !== 0) visit(i, j, v);
    }
  }
}

export function toDenseMatrixData(data: MatrixData): DenseMatrixData {
  if (data.format === "dense") return data;
  const values = allocateF64(data.rows * data.cols);
  forEachNonZero(data, (i, j, v) => {
    values[i * data.cols + j] = v;
  });
  return { format: "dense", rows: data.rows, cols: data.cols, values };
}

export function toCsrMatrixData(data: MatrixData): CsrMatrixData {
  if (data.format === "csr") return data;
  const nnz = matrixDataNnz(data);
  const shared = csrShared(data.rows, nnz);
  const rowPtr = allocateI32(data.rows + 1, shared);
  const colIdx = allocateI32(nnz, shared);
  const values = allocateF64(nnz, shared);
  let k = 0;
  for (let i = 0, at = 0; i < data.rows; i++) {
    for (let j = 0; j < data.cols; j++, at++) {
      const v = data.values[at]!;
      if (v !== 0) {
        colIdx[k] = j;
        values[k++] = v;
      }
    }
    rowPtr[i + 1] = k;
  }
  return { format: "csr", rows: data.rows, cols: data.cols, rowPtr, colIdx, values };
}
