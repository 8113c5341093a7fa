/**
 * Which run allocated a matrix buffer. While an interpreter runs a program
 * (`withAllocationScope`), every large array kernel memory hands out
 * (allocateF64, the buffer pool's reuses) is tagged with that run's scope.
 * The interpreter may give a buffer back to the pool once nothing refers
 * to it (buffer-liveness.ts in the interpreter), but only a buffer of its
 * own run: data made outside it (a caller's values put into a session, a
 * previous cell's variables) is never recycled, whoever else may hold it.
 *
 * Why recycle at all: a fresh large array costs its first touch of every
 * page (on virtual machines about 0.1 s per 8 MB); a loop over 1e6-row
 * vectors would pay that for every intermediate of every iteration.
 */

/** Buffers smaller than this are not tagged (the pool does not keep them either). */
export const SCOPED_MIN_LENGTH = 1024;

let current: object | undefined;
const scopes = new WeakMap<ArrayBufferLike, object>();

/** Runs `body` with a new allocation scope (the previous one is restored after). */
export function withAllocationScope<T>(body: () => T): T {
  const outer = current;
  current = {};
  try {
    return body();
  } finally {
    current = outer;
  }
}

/** Tags `array`'s buffer with the current scope (when there is one and the array owns its whole buffer). */
export function tagAllocation(array: Float64Array): void {
  if (current === undefined || array.length < SCOPED_MIN_LENGTH) return;
  if (array.byteOffset !== 0 || array.byteLength !== array.buffer.byteLength) return;
  scopes.set(array.buffer, current);
}

/** Whether `array` owns a buffer allocated in the current scope. */
export function allocatedInCurrentScope(array: Float64Array): boolean {
  return current !== undefined && scopes.get(array.buffer) === current && array.byteOffset === 0 && array.byteLength === array.buffer.byteLength;
}

/** Forgets `array`'s tag (its buffer went back to the pool; the pool tags it again when it hands it out). */
export function untagAllocation(array: Float64Array): void {
  scopes.delete(array.buffer);
}
