/**
 * A scratch Float64Array reused across kernel calls (kernel-runner.ts: the
 * accumulators of the ranges after the first on the calling thread, and a
 * threaded call's shared accumulators). Accumulators can be large (a column
 * aggregate or `t(U) %*% X` has one slot per output cell, 20,000 for ALS-CG's
 * 10 x 2,000) and a loop makes the same calls again and again; allocating
 * such arrays per range and call cost more than running the kernel.
 *
 * One spare array is kept (the largest given back, up to `maxLength`
 * values); `take` hands out a view of it, or a new array when it is too
 * small or in use, so a nested or concurrent use never shares one.
 */
export class ScratchArrays {
  private spare: Float64Array | undefined;
  private allocated = 0;

  /** `shared`: arrays in shared memory (SharedArrayBuffer), for worker threads. */
  constructor(
    private readonly shared: boolean,
    private readonly maxLength = 1 << 21,
  ) {}

  /** An array of `length` values, contents unspecified; give it back (`giveBack`) once the call that used it finished. */
  take(length: number): Float64Array {
    const spare = this.spare;
    if (spare !== undefined && spare.length >= length) {
      this.spare = undefined;
      return spare.subarray(0, length);
    }
    this.allocated++;
    return this.shared ? new Float64Array(new SharedArrayBuffer(length * 8)) : new Float64Array(length);
  }

  /** Hands an array from `take` back: kept as the spare when it is larger than the current one (and not beyond maxLength). */
  giveBack(a: Float64Array): void {
    const whole = a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : new Float64Array(a.buffer);
    if (whole.length > this.maxLength) return;
    if (this.spare === undefined || this.spare.length < whole.length) this.spare = whole;
  }

  /** Arrays allocated so far (reuse shows as calls without allocations). */
  allocations(): number {
    return this.allocated;
  }
}
