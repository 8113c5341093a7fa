/**
 * Exact structure of matrix operations under boolean semantics (non-zeros
 * never cancel): the ground truth that sparsity estimators are tested and
 * benchmarked against.
 */
import { type AggregateAxis, broadcastOf, type MatrixShape, productShape } from "./matrix-shape";
import { rowCounts, type SparsityStructure } from "./structure";

/** `A %*% B`: C[i, k] is non-zero when some j has A[i, j] and B[j, k] non-zero. */
export function exactProduct(a: SparsityStructure, b: SparsityStructure): SparsityStructure {
  const { rows, cols } = productShape(a, b);
  const rowPointers = new Int32Array(rows + 1);
  const marker = new Int32Array(cols).fill(-1);
  let out: Int32Array = new Int32Array(Math.max(16, a.colIndices.length));
  let at = 0;
  for (let i = 0; i < rows; i++) {
    const start = at;
    for (let p = a.rowPointers[i]!; p < a.rowPointers[i + 1]!; p++) {
      const j = a.colIndices[p]!;
      for (let q = b.rowPointers[j]!; q < b.rowPointers[j + 1]!; q++) {
        const k = b.colIndices[q]!;
        if (marker[k] === i) continue;
        marker[k] = i;
        if (at === out.length) out = grow(out);
        out[at++] = k;
      }
    }
    out.subarray(start, at).sort();
    rowPointers[i + 1] = at;
  }
  return { rows, cols, rowPointers, colIndices: out.slice(0, at) };
}

/** The number of non-zeros of `A %*% B` without building it. */
export function exactProductNnz(a: SparsityStructure, b: SparsityStructure): number {
  const { rows, cols } = productShape(a, b);
  const marker = new Int32Array(cols).fill(-1);
  let nnz = 0;
  for (let i = 0; i < rows; i++) {
    for (let p = a.rowPointers[i]!; p < a.rowPointers[i + 1]!; p++) {
      const j = a.colIndices[p]!;
      for (let q = b.rowPointers[j]!; q < b.rowPointers[j + 1]!; q++) {
        const k = b.colIndices[q]!;
        if (marker[k] !== i) {
          marker[k] = i;
          nnz++;
        }
      }
    }
  }
  return nnz;
}

/**
 * An element-wise operation with DML broadcasting. `"intersect"` is an
 * annihilating map such as `*` (non-zero where every input is), `"union"` a
 * non-annihilating one such as `+` or `-` (non-zero where any input is).
 */
export function exactElementwise(
  kind: "intersect" | "union",
  inputs: readonly SparsityStructure[],
  output: MatrixShape,
): SparsityStructure {
  if (inputs.length === 0) throw new RangeError("exactElementwise: no inputs");
  const views = inputs.map((s) => ({ s, how: broadcastOf(s, output) }));
  const rowPointers = new Int32Array(output.rows + 1);
  const mark = new Int32Array(output.cols);
  const cols: number[] = [];
  for (let i = 0; i < output.rows; i++) {
    // Count, per column, how many inputs are non-zero at (i, j).
    mark.fill(0);
    for (const { s, how } of views) {
      const row = how === "same" || how === "column" ? i : 0;
      const from = s.rowPointers[row]!;
      const to = s.rowPointers[row + 1]!;
      if (how === "column" || how === "scalar") {
        if (to > from) for (let j = 0; j < output.cols; j++) mark[j]!++;
      } else {
        for (let p = from; p < to; p++) mark[s.colIndices[p]!]!++;
      }
    }
    const need = kind === "intersect" ? views.length : 1;
    for (let j = 0; j < output.cols; j++) if (mark[j]! >= need) cols.push(j);
    rowPointers[i + 1] = cols.length;
  }
  return { rows: output.rows, cols: output.cols, rowPointers, colIndices: Int32Array.from(cols) };
}

/** `rowSums` (over "cols"), `colSums` (over "rows") or `sum` (over "all"), without cancellation. */
export function exactAggregate(s: SparsityStructure, over: AggregateAxis): SparsityStructure {
  const counts = rowCounts(s);
  if (over === "cols") {
    const rowPointers = new Int32Array(s.rows + 1);
    const cols: number[] = [];
    for (let i = 0; i < s.rows; i++) {
      if (counts[i]! > 0) cols.push(0);
      rowPointers[i + 1] = cols.length;
    }
    return { rows: s.rows, cols: 1, rowPointers, colIndices: Int32Array.from(cols) };
  }
  if (over === "rows") {
    const seen = new Uint8Array(s.cols);
    for (const j of s.colIndices) seen[j] = 1;
    const cols: number[] = [];
    seen.forEach((v, j) => v && cols.push(j));
    return { rows: 1, cols: s.cols, rowPointers: Int32Array.of(0, cols.length), colIndices: Int32Array.from(cols) };
  }
  const any = s.colIndices.length > 0 ? 1 : 0;
  return { rows: 1, cols: 1, rowPointers: Int32Array.of(0, any), colIndices: new Int32Array(any) };
}

function grow(a: Int32Array): Int32Array {
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
