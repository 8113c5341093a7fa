/**
 * A sparse matrix in compressed sparse row form. Row i's non-zeros are at
 * positions rowPtr[i] .. rowPtr[i + 1] - 1 of `colIdx` (0-based column)
 * and `values`. Invariants every kernel keeps and may rely on:
 *   - rowPtr has rows + 1 entries, rowPtr[0] = 0, non-decreasing;
 *   - within a row, column indices are strictly increasing;
 *   - no stored value is 0 (NaN is stored: it is not 0).
 * `colIdx` and `values` may be longer than nnz (spare capacity); only the
 * first rowPtr[rows] entries count.
 */
import { checkDims } from "./dense-matrix";
import { allocateF64, allocateI32, csrShared } from "./kernel-memory";

export class CsrMatrix {
  readonly format = "sparse" as const;
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: Float64Array;

  constructor(rows: number, cols: number, rowPtr: Int32Array, colIdx: Int32Array, values: Float64Array) {
    checkDims(rows, cols);
    if (rowPtr.length !== rows + 1) throw new RangeError(`CsrMatrix ${rows} x ${cols}: rowPtr has ${rowPtr.length} entries, expected ${rows + 1}`);
    const nnz = rowPtr[rows]!;
    if (colIdx.length < nnz || values.length < nnz) {
      throw new RangeError(`CsrMatrix ${rows} x ${cols}: ${nnz} non-zeros but ${colIdx.length} column indices and ${values.length} values`);
    }
    this.rows = rows;
    this.cols = cols;
    this.rowPtr = rowPtr;
    this.colIdx = colIdx;
    this.values = values;
  }

  /** A rows x cols matrix without non-zeros. */
  static empty(rows: number, cols: number): CsrMatrix {
    return new CsrMatrix(rows, cols, allocateI32(rows + 1), new Int32Array(0), new Float64Array(0));
  }

  /**
   * From (row, col, value) triples, 0-based, in any order; duplicates are
   * summed and zeros dropped (tests and readers).
   */
  static fromTriples(rows: number, cols: number, triples: readonly (readonly [number, number, number])[]): CsrMatrix {
    const sorted = [...triples].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const rowPtr = allocateI32(rows + 1, csrShared(rows, triples.length));
    const colIdx: number[] = [];
    const values: number[] = [];
    let lastRow = -1;
    let lastCol = -1;
    for (const [i, j, v] of sorted) {
      if (!(i >= 0 && i < rows && j >= 0 && j < cols)) throw new RangeError(`CsrMatrix.fromTriples: (${i}, ${j}) outside ${rows} x ${cols}`);
      if (i === lastRow && j === lastCol) values[values.length - 1]! += v;
      else {
        colIdx.push(j);
        values.push(v);
        rowPtr[i + 1]!++;
        lastRow = i;
        lastCol = j;
      }
    }
    for (let i = 0; i < rows; i++) rowPtr[i + 1]! += rowPtr[i]!;
    const idx = allocateI32(colIdx.length, csrShared(rows, triples.length));
    idx.set(colIdx);
    const vals = allocateF64(values.length, csrShared(rows, triples.length));
    vals.set(values);
    return dropZeros(new CsrMatrix(rows, cols, rowPtr, idx, vals));
  }

  /** Number of stored non-zeros. */
  nnz(): number {
    return this.rowPtr[this.rows]!;
  }

  /** The value of cell (row, col), 0-based (binary search in the row). */
  get(row: number, col: number): number {
    let lo = this.rowPtr[row]!;
    let hi = this.rowPtr[row + 1]! - 1;
    const idx = this.colIdx;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = idx[mid]!;
      if (c === col) return this.values[mid]!;
      if (c < col) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}

/** The same matrix without stored zeros (in place when there are none: returns `m`). */
export function dropZeros(m: CsrMatrix): CsrMatrix {
  const { rows, rowPtr, colIdx, values } = m;
  const nnz = rowPtr[rows]!;
  let zeros = 0;
  for (let p = 0; p < nnz; p++) if (values[p] === 0) zeros++;
  if (zeros === 0) return m;
  const shared = csrShared(rows, nnz - zeros);
  const outPtr = allocateI32(rows + 1, shared);
  const outIdx = allocateI32(nnz - zeros, shared);
  const outVal = allocateF64(nnz - zeros, shared);
  let n = 0;
  for (let i = 0; i < rows; i++) {
    for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) {
      const v = values[p]!;
      if (v !== 0) {
        outIdx[n] = colIdx[p]!;
        outVal[n++] = v;
      }
    }
    outPtr[i + 1] = n;
  }
  return new CsrMatrix(m.rows, m.cols, outPtr, outIdx, outVal);
}

/** Why `m` breaks the CSR invariants (see the file comment), or undefined. Used by tests. */
export function csrInvariantViolation(m: CsrMatrix): string | undefined {
  const { rows, cols, rowPtr, colIdx, values } = m;
  if (rowPtr[0] !== 0) return `rowPtr[0] = ${rowPtr[0]}`;
  for (let i = 0; i < rows; i++) {
    const start = rowPtr[i]!;
    const end = rowPtr[i + 1]!;
    if (end < start) return `rowPtr decreases at row ${i}`;
    for (let p = start; p < end; p++) {
      const c = colIdx[p]!;
      if (c < 0 || c >= cols) return `row ${i}: column ${c} outside 0..${cols - 1}`;
      if (p > start && c <= colIdx[p - 1]!) return `row ${i}: columns not strictly increasing at position ${p}`;
      if (values[p] === 0) return `row ${i}: explicit zero at column ${c}`;
    }
  }
  return undefined;
}
