/**
 * Kahan (compensated) summation, as SystemDS sums (its KahanPlus): the
 * rounding error of each addition is carried into the next, so the sum of
 * many values is accurate to a few units in the last place instead of
 * growing with their count. Two interleaved accumulators break the
 * dependency chain of a single one (about twice as fast), combined at
 * the end. When the result is not finite (an Inf or NaN among the values,
 * or an overflow), the compensation itself would turn Inf into NaN, so the
 * plain sum is returned instead (SystemDS's fast path for infinities).
 */

/** Σ a[i] for start ≤ i < end (Σ a[i]² when `squared`). */
export function kahanSum(a: Float64Array, start: number, end: number, squared = false): number {
  kahanSumRanges(a, 1, null, end - start, squared, ONE_SUM, start);
  return ONE_SUM[0]!;
}

/** kahanSum's result (one range). */
const ONE_SUM = new Float64Array(1);

/**
 * kahanSum of each of `rows` ranges of `a` into out[r]: range r is
 * [offsets[r], offsets[r + 1]) (a CSR matrix's rows), or the r-th run of
 * `width` values from `first` when `offsets` is null (a dense matrix's
 * rows). One loop over the rows, so the per-row work does not depend on V8
 * inlining a call per row (with a small inlining budget, jit-flags.ts,
 * rowSums over 1e6 rows through a kahanSum per row took 2x as long). Each
 * range: even and odd cells in two compensated sums, combined with one more
 * compensated step; the plain sum when that is not finite.
 */
export function kahanSumRanges(a: Float64Array, rows: number, offsets: Int32Array | null, width: number, squared: boolean, out: Float64Array, first = 0): void {
  let start = offsets === null ? first : offsets[0]!;
  for (let r = 0; r < rows; r++) {
    const end = offsets === null ? start + width : offsets[r + 1]!;
    let s0 = 0, c0 = 0, s1 = 0, c1 = 0;
    let i = start;
    // Two loops instead of a test of `squared` per cell (V8 does not move it out of the loop).
    if (squared) {
      for (; i + 1 < end; i += 2) {
        const y0 = a[i]! * a[i]! - c0;
        const t0 = s0 + y0;
        c0 = t0 - s0 - y0;
        s0 = t0;
        const y1 = a[i + 1]! * a[i + 1]! - c1;
        const t1 = s1 + y1;
        c1 = t1 - s1 - y1;
        s1 = t1;
      }
    } else {
      for (; i + 1 < end; i += 2) {
        const y0 = a[i]! - c0;
        const t0 = s0 + y0;
        c0 = t0 - s0 - y0;
        s0 = t0;
        const y1 = a[i + 1]! - c1;
        const t1 = s1 + y1;
        c1 = t1 - s1 - y1;
        s1 = t1;
      }
    }
    if (i < end) {
      const y0 = (squared ? a[i]! * a[i]! : a[i]!) - c0;
      const t0 = s0 + y0;
      c0 = t0 - s0 - y0;
      s0 = t0;
    }
    const y = s1 - c1 - c0;
    const t = s0 + y;
    const c = t - s0 - y;
    let sum = t - c;
    if (sum - sum !== 0) {
      sum = 0;
      for (let k = start; k < end; k++) sum += squared ? a[k]! * a[k]! : a[k]!;
    }
    out[r] = sum;
    start = end;
  }
}

/**
 * Per-column compensated sums: `add(j, v)` adds v to column j; `result(j)`
 * is its sum (with the plain-sum fallback for non-finite columns).
 */
export class KahanColumns {
  readonly sums: Float64Array;
  private readonly corrections: Float64Array;
  private readonly plain: Float64Array;

  constructor(readonly cols: number) {
    this.sums = new Float64Array(cols);
    this.corrections = new Float64Array(cols);
    this.plain = new Float64Array(cols);
  }

  /** Adds row `a[start .. start + cols)` (squared values when `squared`). */
  addRow(a: Float64Array, start: number, squared: boolean): void {
    const { sums, corrections, plain, cols } = this;
    for (let j = 0; j < cols; j++) {
      const v = squared ? a[start + j]! * a[start + j]! : a[start + j]!;
      plain[j]! += v;
      const y = v - corrections[j]!;
      const t = sums[j]! + y;
      corrections[j] = t - sums[j]! - y;
      sums[j] = t;
    }
  }

  add(j: number, v: number): void {
    this.plain[j]! += v;
    const y = v - this.corrections[j]!;
    const t = this.sums[j]! + y;
    this.corrections[j] = t - this.sums[j]! - y;
    this.sums[j] = t;
  }

  result(j: number): number {
    const s = this.sums[j]!;
    return s - s === 0 ? s : this.plain[j]!;
  }
}
