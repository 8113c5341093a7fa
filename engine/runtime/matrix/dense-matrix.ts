/**
 * A dense matrix: every cell stored, row-major, in one Float64Array
 * (cell (i, j), 0-based, at `data[i * cols + j]`); large matrices in shared
 * kernel memory (kernel-memory.ts).
 */
import { allocateF64 } from "./kernel-memory";

export class DenseMatrix {
  readonly format = "dense" as const;
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;

  /** A matrix over `data` (not copied; length rows · cols), or of zeros when `data` is omitted. */
  constructor(rows: number, cols: number, data?: Float64Array) {
    checkDims(rows, cols);
    const cells = rows * cols;
    if (data !== undefined && data.length !== cells) {
      throw new RangeError(`DenseMatrix ${rows} x ${cols}: data has ${data.length} values, expected ${cells}`);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data ?? allocateF64(cells);
  }

  /** From an array of rows (all of the same length); `cols` is needed for a matrix without rows. */
  static fromRows(values: readonly (readonly number[])[], cols = values[0]?.length ?? 0): DenseMatrix {
    const m = new DenseMatrix(values.length, cols);
    values.forEach((row, i) => {
      if (row.length !== cols) throw new RangeError(`DenseMatrix.fromRows: row ${i} has ${row.length} values, expected ${cols}`);
      m.data.set(row, i * cols);
    });
    return m;
  }

  /** A rows x cols matrix with every cell `value`. */
  static filled(rows: number, cols: number, value: number): DenseMatrix {
    const m = new DenseMatrix(rows, cols);
    if (value !== 0) m.data.fill(value);
    return m;
  }

  /** The value of cell (row, col), 0-based. */
  get(row: number, col: number): number {
    return this.data[row * this.cols + col]!;
  }

  /** Number of cells that are not 0 (NaN counts as non-zero). Counted on each call. */
  nnz(): number {
    return countNonZeros(this.data, 0, this.data.length);
  }

  /** Rows as plain arrays (tests, printing). */
  toRows(): number[][] {
    const out: number[][] = [];
    for (let i = 0; i < this.rows; i++) out.push(Array.from(this.data.subarray(i * this.cols, (i + 1) * this.cols)));
    return out;
  }
}

export function checkDims(rows: number, cols: number): void {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new RangeError(`matrix dimensions must be non-negative integers, got ${rows} x ${cols}`);
  }
}

/**
 * Non-zeros of data[start .. end). Branch-free (the zero tests are summed
 * as numbers, four at a time): a branch per cell would be mispredicted on
 * a matrix with scattered zeros and run several times slower.
 */
export function countNonZeros(data: Float64Array, start: number, end: number): number {
  let z0 = 0, z1 = 0, z2 = 0, z3 = 0;
  let i = start;
  for (; i + 3 < end; i += 4) {
    z0 += +(data[i] === 0);
    z1 += +(data[i + 1] === 0);
    z2 += +(data[i + 2] === 0);
    z3 += +(data[i + 3] === 0);
  }
  for (; i < end; i++) z0 += +(data[i] === 0);
  return end - start - (z0 + z1 + z2 + z3);
}
