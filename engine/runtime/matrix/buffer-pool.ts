/**
 * A pool of Float64Arrays for intermediates, so that a loop computing
 * same-sized temporaries reuses memory instead of allocating (and zeroing,
 * and collecting) a new array per operation.
 *
 * Buffers are kept by exact length. `acquire(n)` returns a free buffer of
 * length n, or a new one; its contents are unspecified (`acquireZeroed`
 * clears them). `release(buffer)` hands a buffer back: the caller promises
 * that nothing uses it any more. The pool keeps at most `maxBytes` of free
 * buffers, dropping the oldest released ones first; buffers shorter than
 * `minLength` are not pooled (allocation is cheaper than bookkeeping), nor
 * views into a larger ArrayBuffer.
 *
 * New buffers come from kernel memory (kernel-memory.ts: shared when large).
 *
 * Kernels take their dense outputs and scratch arrays from `bufferPool`
 * and release only their scratch arrays; an output belongs to the caller
 * (the interpreter releases a matrix's buffer when no variable refers to
 * it any more). Kernels never return a buffer of one of their inputs, so
 * releasing a result never frees an input.
 */
import { tagAllocation } from "./allocation-scope";
import { allocateF64, ownsItsMemory } from "./kernel-memory";

export interface BufferPoolStats {
  /** acquire calls served from the pool. */
  hits: number;
  /** acquire calls that allocated. */
  misses: number;
  /** Bytes of free buffers held now. */
  retainedBytes: number;
}

export class BufferPool {
  private readonly free = new Map<number, Float64Array[]>();
  /** Free buffers in release order (oldest first), for eviction. */
  private readonly order = new Set<Float64Array>();
  private retained = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly maxBytes = 256 * 1024 * 1024,
    readonly minLength = 1024,
  ) {}

  /** A buffer of exactly `length` values with unspecified contents. */
  acquire(length: number): Float64Array {
    const stack = length >= this.minLength ? this.free.get(length) : undefined;
    const buffer = stack?.pop();
    if (buffer === undefined) {
      this.misses++;
      return allocateF64(length);
    }
    this.hits++;
    // Pooled buffers own their memory (release keeps no other).
    tagAllocation(buffer, true);
    this.order.delete(buffer);
    this.retained -= buffer.byteLength;
    return buffer;
  }

  /** A buffer of exactly `length` zeros. */
  acquireZeroed(length: number): Float64Array {
    const stack = length >= this.minLength ? this.free.get(length) : undefined;
    if (stack === undefined || stack.length === 0) {
      this.misses++;
      return allocateF64(length);
    }
    return this.acquire(length).fill(0);
  }

  /** Hands `buffer` back; it must not be used afterwards. Releasing a buffer twice is ignored. */
  release(buffer: Float64Array): void {
    const bytes = buffer.byteLength;
    if (buffer.length < this.minLength || bytes > this.maxBytes || this.order.has(buffer)) return;
    if (!ownsItsMemory(buffer)) return;
    while (this.retained + bytes > this.maxBytes) this.evictOldest();
    let stack = this.free.get(buffer.length);
    if (stack === undefined) this.free.set(buffer.length, (stack = []));
    stack.push(buffer);
    this.order.add(buffer);
    this.retained += bytes;
  }

  /** Drops every free buffer. */
  clear(): void {
    this.free.clear();
    this.order.clear();
    this.retained = 0;
  }

  stats(): BufferPoolStats {
    return { hits: this.hits, misses: this.misses, retainedBytes: this.retained };
  }

  private evictOldest(): void {
    const oldest = this.order.values().next().value;
    if (oldest === undefined) return;
    this.order.delete(oldest);
    const stack = this.free.get(oldest.length)!;
    stack.splice(stack.indexOf(oldest), 1);
    if (stack.length === 0) this.free.delete(oldest.length);
    this.retained -= oldest.byteLength;
  }
}

/** The pool the kernels use. */
export const bufferPool = new BufferPool();
