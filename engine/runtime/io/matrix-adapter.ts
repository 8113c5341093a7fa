/**
 * Between the I/O's neutral MatrixData and the runtime's matrices
 * (engine/runtime/matrix): a read matrix is wrapped without copying its
 * arrays and then kept in the format SystemDS's rule picks for its
 * sparsity; a matrix to write is viewed as MatrixData without copying.
 */
import { CsrMatrix, DenseMatrix, toPreferredFormat, type Matrix } from "../matrix";
import type { MatrixData } from "./matrix-data";

/** The runtime matrix of read data, in its preferred format (dense csv data of a sparse matrix becomes CSR). */
export function matrixFromData(data: MatrixData): Matrix {
  const m = data.format === "dense" ? new DenseMatrix(data.rows, data.cols, data.values) : new CsrMatrix(data.rows, data.cols, data.rowPtr, data.colIdx, data.values);
  return toPreferredFormat(m);
}

/** A runtime matrix as MatrixData for the writers (shares its arrays). */
export function dataFromMatrix(m: Matrix): MatrixData {
  if (m.format === "dense") return { format: "dense", rows: m.rows, cols: m.cols, values: m.data };
  return { format: "csr", rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx, values: m.values };
}
