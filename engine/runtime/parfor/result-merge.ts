/**
 * SystemDS's parfor result merge with compare: the value of a result after
 * the loop is its value before the loop with every cell that a worker's
 * copy changed taken from that copy (copies in iteration order). The
 * iterations wrote disjoint cells, so this is what the sequential loop
 * leaves; a cell written with the value it had is unchanged either way.
 * Cells compare with Object.is (NaN equals NaN, -0 differs from 0). The
 * merged matrix is stored in the format the runtime's rule picks for its
 * values (as left indexing leaves it); unchanged, it is `before` itself.
 */
import { toDense, DenseMatrix, settleFormat, type Matrix, allocateF64 } from "../matrix";

export function mergeResult(before: Matrix, copies: readonly Matrix[]): Matrix {
  const original = toDense(before).data;
  let merged: Float64Array | undefined;
  for (const copy of copies) {
    if (copy === before) continue;
    if (copy.rows !== before.rows || copy.cols !== before.cols) throw new Error(`parfor result merge: a worker's result is ${copy.rows} x ${copy.cols}, the matrix before the loop ${before.rows} x ${before.cols}`);
    const values = toDense(copy).data;
    for (let c = 0; c < values.length; c++) {
      const v = values[c]!;
      if (Object.is(v, original[c]!)) continue;
      if (merged === undefined) {
        merged = allocateF64(original.length);
        merged.set(original);
      }
      merged[c] = v;
    }
  }
  return merged === undefined ? before : settleFormat(new DenseMatrix(before.rows, before.cols, merged));
}
