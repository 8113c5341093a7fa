/**
 * The non-zero structure of a matrix, without its values: compressed sparse
 * rows (row pointers + sorted column indices). It is what the sparsity
 * estimators build their statistics from when the data is local, and what the
 * exact helpers of structure-ops.ts compute true non-zero counts on (boolean
 * semantics: a sum of products of non-zeros is never assumed to cancel).
 */

export interface SparsityStructure {
  readonly rows: number;
  readonly cols: number;
  /** Length rows + 1; row i holds colIndices[rowPointers[i] .. rowPointers[i + 1]). */
  readonly rowPointers: Int32Array;
  /** Column indices (0-based), strictly increasing within a row. */
  readonly colIndices: Int32Array;
}

/** The number of non-zeros. */
export function structureNnz(s: SparsityStructure): number {
  return s.colIndices.length;
}

/** From row-major values (`values[i * cols + j]`); every value other than 0 (NaN included) is a non-zero. */
export function structureFromDense(rows: number, cols: number, values: ArrayLike<number>): SparsityStructure {
  checkDims(rows, cols);
  if (values.length !== rows * cols) {
    throw new RangeError(`structureFromDense: ${values.length} values for a ${rows} x ${cols} matrix`);
  }
  const rowPointers = new Int32Array(rows + 1);
  let nnz = 0;
  for (let k = 0; k < values.length; k++) if (values[k] !== 0) nnz++;
  const colIndices = new Int32Array(nnz);
  let at = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) if (values[i * cols + j] !== 0) colIndices[at++] = j;
    rowPointers[i + 1] = at;
  }
  return { rows, cols, rowPointers, colIndices };
}

/** From nested rows, e.g. `[[1, 0], [0, 2]]`; all rows must have the same length. */
export function structureFromRows(matrix: readonly (readonly number[])[]): SparsityStructure {
  const rows = matrix.length;
  const cols = rows === 0 ? 0 : matrix[0]!.length;
  const flat = new Float64Array(rows * cols);
  matrix.forEach((row, i) => {
    if (row.length !== cols) throw new RangeError(`structureFromRows: row ${i} has ${row.length} values, not ${cols}`);
    flat.set(row, i * cols);
  });
  return structureFromDense(rows, cols, flat);
}

/** From 0-based (row, column) pairs in any order; duplicates count once. */
export function structureFromCoordinates(
  rows: number,
  cols: number,
  coordinates: Iterable<readonly [number, number]>,
): SparsityStructure {
  checkDims(rows, cols);
  const perRow: number[][] = Array.from({ length: rows }, () => []);
  for (const [i, j] of coordinates) {
    if (!Number.isInteger(i) || !Number.isInteger(j) || i < 0 || i >= rows || j < 0 || j >= cols) {
      throw new RangeError(`structureFromCoordinates: (${i}, ${j}) is outside a ${rows} x ${cols} matrix`);
    }
    perRow[i]!.push(j);
  }
  return fromRowLists(rows, cols, perRow);
}

/** From one list of column indices per row (any order, duplicates allowed). */
export function fromRowLists(rows: number, cols: number, perRow: readonly (readonly number[])[]): SparsityStructure {
  const rowPointers = new Int32Array(rows + 1);
  const sorted = perRow.map((list) => [...new Set(list)].sort((a, b) => a - b));
  for (let i = 0; i < rows; i++) rowPointers[i + 1] = rowPointers[i]! + (sorted[i]?.length ?? 0);
  const colIndices = new Int32Array(rowPointers[rows]!);
  sorted.forEach((list, i) => colIndices.set(list, rowPointers[i]!));
  return { rows, cols, rowPointers, colIndices };
}

/** The 0-based (row, column) pairs in row-major order. */
export function* structureCoordinates(s: SparsityStructure): Generator<[number, number]> {
  for (let i = 0; i < s.rows; i++) {
    for (let k = s.rowPointers[i]!; k < s.rowPointers[i + 1]!; k++) yield [i, s.colIndices[k]!];
  }
}

/** Non-zeros per row. */
export function rowCounts(s: SparsityStructure): Int32Array {
  const counts = new Int32Array(s.rows);
  for (let i = 0; i < s.rows; i++) counts[i] = s.rowPointers[i + 1]! - s.rowPointers[i]!;
  return counts;
}

/** Non-zeros per column. */
export function colCounts(s: SparsityStructure): Int32Array {
  const counts = new Int32Array(s.cols);
  for (let k = 0; k < s.colIndices.length; k++) counts[s.colIndices[k]!]!++;
  return counts;
}

/** The transpose (a counting sort by column, so rows stay sorted). */
export function transposeStructure(s: SparsityStructure): SparsityStructure {
  const counts = colCounts(s);
  const rowPointers = new Int32Array(s.cols + 1);
  for (let j = 0; j < s.cols; j++) rowPointers[j + 1] = rowPointers[j]! + counts[j]!;
  const next = rowPointers.slice(0, s.cols);
  const colIndices = new Int32Array(s.colIndices.length);
  for (let i = 0; i < s.rows; i++) {
    for (let k = s.rowPointers[i]!; k < s.rowPointers[i + 1]!; k++) colIndices[next[s.colIndices[k]!]!++] = i;
  }
  return { rows: s.cols, cols: s.rows, rowPointers, colIndices };
}

function checkDims(rows: number, cols: number): void {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new RangeError(`bad matrix dimensions ${rows} x ${cols}`);
  }
}
