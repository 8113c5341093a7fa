/**
 * Kernel memory: where the values of large matrices live. Arrays of at least
 * SHARED_MIN_LENGTH values are allocated on a SharedArrayBuffer, so that the
 * runtime's kernels (generated kernels, GEMV, SpMV) can split their rows over
 * worker threads without copying (engine/runtime/codegen/kernel-runner.ts);
 * smaller ones on an ordinary ArrayBuffer, which is cheaper to make and never
 * worth a thread. Both are garbage collected and hold the same bytes (the
 * memory budget counts them alike).
 *
 * A CSR matrix's three arrays are shared together when its stored size
 * (rows + 1 + non-zeros) is large (`csrShared`).
 *
 * Every allocation of matrix data goes through here: the matrix
 * constructors, the buffer pool, the CSR builder, the conversions and the
 * kernels' outputs. Note that `slice()` of a shared array gives an ordinary
 * one: copy with `copyF64` / `copyI32` instead.
 */

import { tagAllocation } from "./allocation-scope";

/** Arrays of at least this many values are shared. */
export const SHARED_MIN_LENGTH = 1 << 15;

/** Whether this JavaScript environment has SharedArrayBuffer (node always does; elsewhere every array is ordinary). */
const SHARED_AVAILABLE = typeof SharedArrayBuffer !== "undefined";

/**
 * Where shared arrays of at least `minLength` values are allocated instead,
 * when one is installed: the WebAssembly kernels' resident memory
 * (../wasm/resident-memory.ts), whose arrays are shared too and which the
 * WebAssembly kernels read in place. `allocate` returns undefined when it
 * cannot (the array is then an ordinary shared one).
 */
export interface LargeArrayAllocator {
  readonly minLength: number;
  allocate(length: number): Float64Array | undefined;
}

let largeArrays: LargeArrayAllocator | undefined;

/** Installs (or, with undefined, removes) the allocator of large shared arrays. */
export function installLargeArrayAllocator(allocator: LargeArrayAllocator | undefined): void {
  largeArrays = allocator;
}

/** Arrays the large-array allocator made: each owns its memory, though the memory is larger than the array (a scratch tail, whole pages). */
const largeAllocations = new WeakSet<Float64Array>();

/** A Float64Array of `length` zeros, shared when large (or as `shared` says). */
export function allocateF64(length: number, shared = length >= SHARED_MIN_LENGTH): Float64Array {
  const large = shared && largeArrays !== undefined && length >= largeArrays.minLength ? largeArrays.allocate(length) : undefined;
  if (large !== undefined) largeAllocations.add(large);
  const array = large ?? (shared && SHARED_AVAILABLE ? new Float64Array(new SharedArrayBuffer(length * 8)) : new Float64Array(length));
  // A large allocation owns its memory though the memory is longer than the array.
  if (large !== undefined) tagAllocation(large, true);
  else tagAllocation(array);
  return array;
}

/** An Int32Array of `length` zeros, shared when large (or as `shared` says). */
export function allocateI32(length: number, shared = length >= SHARED_MIN_LENGTH): Int32Array {
  return shared && SHARED_AVAILABLE ? new Int32Array(new SharedArrayBuffer(length * 4)) : new Int32Array(length);
}

/** Whether the arrays of a CSR matrix with `rows` rows and `nnz` non-zeros are shared: all of them when its stored size is large. */
export function csrShared(rows: number, nnz: number): boolean {
  return rows + 1 + nnz >= SHARED_MIN_LENGTH;
}

/** A copy of values [from, to) of `a`, shared when large or as `shared` says (what `a.slice(from, to)` gives, in kernel memory). */
export function copyF64(a: Float64Array, from = 0, to = a.length, shared?: boolean): Float64Array {
  const out = allocateF64(Math.max(0, to - from), shared);
  out.set(a.subarray(from, to));
  return out;
}

/** Like `copyF64` for Int32Arrays. */
export function copyI32(a: Int32Array, from = 0, to = a.length, shared?: boolean): Int32Array {
  const out = allocateI32(Math.max(0, to - from), shared);
  out.set(a.subarray(from, to));
  return out;
}

/** Whether the array's memory is shared (a SharedArrayBuffer, or the WebAssembly kernels' shared memory). */
export function isSharedArray(a: Float64Array | Int32Array): boolean {
  return SHARED_AVAILABLE && a.buffer instanceof SharedArrayBuffer;
}

/** Whether `a` is the only array on its memory (so the buffer pool may hand it out again): an allocation of its own, not a view into a larger buffer. */
export function ownsItsMemory(a: Float64Array): boolean {
  return (a.byteOffset === 0 && a.buffer.byteLength === a.byteLength) || largeAllocations.has(a);
}
