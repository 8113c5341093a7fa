/**
 * Shared-memory copies of the small arrays a threaded kernel call reads or
 * writes that are not in shared memory themselves (vectors, rank-k factors
 * below kernel-memory's sharing threshold, small outputs): kernel-runner.ts
 * copies them in for the call and gives them back after it. Allocating a
 * SharedArrayBuffer costs far more than copying a few thousand values, and
 * a loop makes the same calls again and again (ALS-CG's inner CG steps), so
 * the copies are reused, kept per type and length up to `maxBytes`.
 *
 * A buffer given back is reused by a later call only: a call finishes (every
 * range done) before it gives its buffers back, and a worker that takes up
 * a finished call late finds no range left (its progress counter is never
 * reused), so it never reads a reused buffer.
 */
import type { KernelArray } from "./kernel-program";

export class StagingBuffers {
  private readonly free = new Map<string, KernelArray[]>();
  private retained = 0;
  private allocated = 0;

  constructor(readonly maxBytes = 32 * 1024 * 1024) {}

  /** A shared copy of `a` (a reused buffer when one of its type and length is free). */
  copyOf(a: KernelArray): KernelArray {
    const stack = this.free.get(keyOf(a));
    const reused = stack?.pop();
    if (reused !== undefined) this.retained -= reused.byteLength;
    const copy = reused ?? this.allocate(a);
    if (copy instanceof Int32Array && a instanceof Int32Array) copy.set(a);
    else if (copy instanceof Float64Array && a instanceof Float64Array) copy.set(a);
    return copy;
  }

  /** Hands copies back after the call that used them finished (dropped beyond `maxBytes`). */
  giveBack(copies: readonly KernelArray[]): void {
    for (const copy of copies) {
      if (this.retained + copy.byteLength > this.maxBytes) continue;
      const key = keyOf(copy);
      let stack = this.free.get(key);
      if (stack === undefined) this.free.set(key, (stack = []));
      stack.push(copy);
      this.retained += copy.byteLength;
    }
  }

  /** Shared buffers allocated so far (reuse shows as calls without allocations). */
  allocations(): number {
    return this.allocated;
  }

  private allocate(a: KernelArray): KernelArray {
    this.allocated++;
    return a instanceof Int32Array ? new Int32Array(new SharedArrayBuffer(a.byteLength)) : new Float64Array(new SharedArrayBuffer(a.byteLength));
  }
}

function keyOf(a: KernelArray): string {
  return `${a instanceof Int32Array ? "i32" : "f64"} ${a.length}`;
}
