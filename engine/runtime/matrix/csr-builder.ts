/**
 * Builds a CSR matrix row by row when the number of non-zeros is not known
 * in advance (the arrays grow by doubling). Append the non-zeros of row 0
 * in increasing column order, call `endRow()`, then row 1, and so on;
 * `finish()` after the last row. Zeros must not be appended.
 */
import { CsrMatrix } from "./csr-matrix";
import { allocateF64, allocateI32, copyF64, copyI32, csrShared, isSharedArray } from "./kernel-memory";

export class CsrBuilder {
  private readonly rowPtr: Int32Array;
  private colIdx: Int32Array;
  private values: Float64Array;
  private n = 0;
  private row = 0;

  constructor(
    readonly rows: number,
    readonly cols: number,
    capacity = 16,
  ) {
    const cap = Math.max(16, Math.min(capacity, rows * cols));
    this.rowPtr = allocateI32(rows + 1, csrShared(rows, cap));
    this.colIdx = allocateI32(cap, csrShared(rows, cap));
    this.values = allocateF64(cap, csrShared(rows, cap));
  }

  /** Makes room for `extra` more non-zeros (call before a burst of `appendUnchecked`). */
  reserve(extra: number): void {
    const need = this.n + extra;
    if (need <= this.colIdx.length) return;
    let cap = this.colIdx.length * 2;
    while (cap < need) cap *= 2;
    const idx = allocateI32(cap, csrShared(this.rows, cap));
    idx.set(this.colIdx.subarray(0, this.n));
    const val = allocateF64(cap, csrShared(this.rows, cap));
    val.set(this.values.subarray(0, this.n));
    this.colIdx = idx;
    this.values = val;
  }

  append(col: number, value: number): void {
    if (this.n === this.colIdx.length) this.reserve(1);
    this.colIdx[this.n] = col;
    this.values[this.n++] = value;
  }

  /** `append` without the capacity check: `reserve` must have made room. */
  appendUnchecked(col: number, value: number): void {
    this.colIdx[this.n] = col;
    this.values[this.n++] = value;
  }

  endRow(): void {
    this.rowPtr[++this.row] = this.n;
  }

  /** The matrix; rows not ended are empty. The arrays are trimmed when more than a quarter is spare. */
  finish(): CsrMatrix {
    while (this.row < this.rows) this.endRow();
    const n = this.n;
    const trim = n < (this.colIdx.length * 3) / 4;
    // All three arrays shared or none: the kept arrays decide, else the final size.
    const shared = trim ? csrShared(this.rows, n) : isSharedArray(this.colIdx);
    const rowPtr = shared === isSharedArray(this.rowPtr) ? this.rowPtr : copyI32(this.rowPtr, 0, this.rows + 1, shared);
    return new CsrMatrix(
      this.rows,
      this.cols,
      rowPtr,
      trim ? copyI32(this.colIdx, 0, n, shared) : this.colIdx,
      trim ? copyF64(this.values, 0, n, shared) : this.values,
    );
  }
}
