/**
 * Collects (row, column, value) entries of a cell-wise file (text/IJV,
 * Matrix Market coordinate, libsvm) with the line each came from, and
 * builds the CSR form: rows in order, columns ascending, explicit zeros
 * dropped. An entry given twice is an error naming both lines (SystemDS's
 * dense reader would silently keep the last one, its sparse one both).
 */
import { DataFileError } from "./data-file-error";
import type { CsrMatrixData } from "./matrix-data";
import { allocateF64, allocateI32, csrShared } from "../matrix";

export class TripletBuilder {
  private rowIndex: Int32Array;
  private colIndex: Int32Array;
  private value: Float64Array;
  private lineOf: Int32Array;
  private count = 0;

  /** `file` names the source in errors. */
  constructor(
    readonly rows: number,
    readonly cols: number,
    private readonly file: string,
    capacity = 1024,
  ) {
    const size = Math.max(16, Math.min(capacity, 1 << 24));
    this.rowIndex = new Int32Array(size);
    this.colIndex = new Int32Array(size);
    this.value = new Float64Array(size);
    this.lineOf = new Int32Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Adds cell (i, j), 0-based and already checked to be in range, read on 1-based `line`. */
  add(i: number, j: number, value: number, line: number): void {
    if (this.count === this.rowIndex.length) this.grow();
    const k = this.count++;
    this.rowIndex[k] = i;
    this.colIndex[k] = j;
    this.value[k] = value;
    this.lineOf[k] = line;
  }

  /** The CSR matrix; `rows` and `cols` replace the constructor's when the dims were found while reading. */
  build(rows = this.rows, cols = this.cols): CsrMatrixData {
    const count = this.count;
    const rowIndex = this.rowIndex;
    const colIndex = this.colIndex;
    // Counting sort by row (stable: the file's order within a row).
    const start = new Int32Array(rows + 1);
    for (let k = 0; k < count; k++) start[rowIndex[k]! + 1]!++;
    for (let i = 0; i < rows; i++) start[i + 1]! += start[i]!;
    const order = new Int32Array(count);
    const next = start.slice(0, rows);
    for (let k = 0; k < count; k++) order[next[rowIndex[k]!]!++] = k;

    let nnz = 0;
    for (let k = 0; k < count; k++) if (this.value[k] !== 0) nnz++;
    // In kernel memory (shared when large), as the runtime's own matrices.
    const rowPtr = allocateI32(rows + 1, csrShared(rows, nnz));
    const colIdx = allocateI32(nnz, csrShared(rows, nnz));
    const values = allocateF64(nnz, csrShared(rows, nnz));
    let out = 0;
    for (let i = 0; i < rows; i++) {
      const from = start[i]!;
      const to = start[i + 1]!;
      let sorted = true;
      for (let p = from + 1; p < to; p++) {
        if (colIndex[order[p]!]! <= colIndex[order[p - 1]!]!) {
          sorted = false;
          break;
        }
      }
      if (!sorted) {
        order.subarray(from, to).sort((a, b) => colIndex[a]! - colIndex[b]! || a - b);
        for (let p = from + 1; p < to; p++) {
          const a = order[p - 1]!;
          const b = order[p]!;
          if (colIndex[a] === colIndex[b]) this.duplicate(a, b);
        }
      }
      for (let p = from; p < to; p++) {
        const k = order[p]!;
        const v = this.value[k]!;
        if (v === 0) continue;
        colIdx[out] = colIndex[k]!;
        values[out++] = v;
      }
      rowPtr[i + 1] = out;
    }
    return { format: "csr", rows, cols, rowPtr, colIdx, values };
  }

  private duplicate(first: number, second: number): never {
    const [a, b] = this.lineOf[first]! <= this.lineOf[second]! ? [first, second] : [second, first];
    const cell = `(${this.rowIndex[a]! + 1}, ${this.colIndex[a]! + 1})`;
    const same = this.lineOf[a] === this.lineOf[b];
    const detail = same
      ? `entry ${cell} is given twice (once mirrored)`
      : `entry ${cell} is given twice (also on line ${this.lineOf[a]})`;
    throw new DataFileError(detail, { file: this.file, line: this.lineOf[b]!, code: "syntax" });
  }

  private grow(): void {
    const size = this.rowIndex.length * 2;
    const copy = <T extends Int32Array | Float64Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.rowIndex = copy(this.rowIndex, new Int32Array(size));
    this.colIndex = copy(this.colIndex, new Int32Array(size));
    this.value = copy(this.value, new Float64Array(size));
    this.lineOf = copy(this.lineOf, new Int32Array(size));
  }
}
