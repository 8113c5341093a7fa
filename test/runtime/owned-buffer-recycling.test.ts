// A large array that owns its memory though the memory is longer than the
// array (a resident WebAssembly memory: the values at offset 0, a scratch
// tail after them) is recycled like any other: before, only arrays that
// were their whole buffer were tagged with the run's allocation scope, so
// every 1e6 x 5 intermediate of kmeans' loop was a fresh allocation (and a
// first touch of 40 MB) in every iteration.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { allocatedInCurrentScope, bufferPool, installLargeArrayAllocator, SHARED_MIN_LENGTH, withAllocationScope } from "../../engine/runtime/matrix";
import { tagAllocation } from "../../engine/runtime/matrix/allocation-scope";

/** Shared arrays (the large-array allocator makes only those). */
const N = SHARED_MIN_LENGTH;
const TAIL = 64;

/** Arrays of N or more values as views at offset 0 of a longer shared buffer, as resident memory makes them. */
const withTail = { minLength: N, allocate: (length: number) => new Float64Array(new SharedArrayBuffer((length + TAIL) * 8), 0, length) };

describe("recycling arrays that own a longer memory", () => {
  after(() => installLargeArrayAllocator(undefined));

  it("tags the owning array, not other views of its buffer", () => {
    withAllocationScope(() => {
      const owner = withTail.allocate(N);
      tagAllocation(owner, true);
      assert.equal(allocatedInCurrentScope(owner), true);
      assert.equal(allocatedInCurrentScope(owner.subarray(0, N - 1)), false, "a shorter view");
      assert.equal(allocatedInCurrentScope(new Float64Array(owner.buffer, 8, N - 1)), false, "a view at an offset");
      const notOwned = withTail.allocate(N);
      tagAllocation(notOwned);
      assert.equal(allocatedInCurrentScope(notOwned), false, "a view of a longer buffer is not owned unless the allocator says so");
    });
  });

  it("a loop over such arrays reuses their buffers and keeps its results", () => {
    installLargeArrayAllocator(withTail);
    const lines: string[] = [];
    const session = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line) });
    const before = bufferPool.stats();
    const result = session.runScript(`x = seq(1, ${N})\ns = 0\nfor (i in 1:10) { y = x * i; z = y + 1; s = s + sum(z) }\nprint(s)\nprint(sum(x))`);
    assert.deepEqual(result.errors, []);
    const sum = (N * (N + 1)) / 2;
    assert.deepEqual(lines.map(Number), [55 * sum + 10 * N, sum]);
    const stats = bufferPool.stats();
    // 10 iterations of two results: all but the first few reuse freed buffers (without recycling: 20 misses, 0 hits).
    assert.ok(stats.hits - before.hits >= 14 && stats.misses - before.misses <= 6, `pool hits ${stats.hits - before.hits}, misses ${stats.misses - before.misses}`);
  });
});
