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
/** The scope that allocated each tagged buffer, and the length of the array that owns it. */
const scopes = new WeakMap<ArrayBufferLike, { scope: object; length: number }>();

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

/**
 * Tags `array`'s buffer with the current scope (when there is one and the
 * array owns its buffer). An array owns its buffer when it is the whole
 * buffer, or when the allocator says so (`owned`): a resident WebAssembly
 * memory holds the array at offset 0 and a scratch tail after it.
 */
export function tagAllocation(array: Float64Array, owned = wholeBuffer(array)): void {
  if (current === undefined || array.length < SCOPED_MIN_LENGTH) return;
  if (!owned || array.byteOffset !== 0) return;
  scopes.set(array.buffer, { scope: current, length: array.length });
}

/** Whether `array` is the array that owns a buffer allocated in the current scope (not another view of it). */
export function allocatedInCurrentScope(array: Float64Array): boolean {
  const tag = current === undefined ? undefined : scopes.get(array.buffer);
  return tag !== undefined && tag.scope === current && array.byteOffset === 0 && array.length === tag.length;
}

/** Forgets `array`'s tag (its buffer went back to the pool; the pool tags it again when it hands it out). */
export function untagAllocation(array: Float64Array): void {
  scopes.delete(array.buffer);
}

function wholeBuffer(array: Float64Array): boolean {
  return array.byteOffset === 0 && array.byteLength === array.buffer.byteLength;
}
