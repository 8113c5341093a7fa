// The kernel runner splits a large call into row ranges over worker threads:
// the same values as one range (sums, minima, maxima, row-partitioned
// outputs), the same bits on every run for a fixed thread count, ranges that
// workers did not take run on the caller, non-shared arrays keep a call on
// the caller, a kernel that fails in a worker is a clear error, and the
// operators' helpers reach the workers as source text.
import { strict as assert } from "node:assert";
import { after, before, describe, test } from "node:test";
import { buildHelpersSource, helpersSource } from "../../engine/runtime/codegen/kernel-helpers-source";
import type { Combine, KernelCall, KernelProgram } from "../../engine/runtime/codegen/kernel-program";
import { accumulatorAllocations, KERNEL_PARALLEL_MIN_WORK, kernelRanges, kernelThreadSetting, MAX_RANGES, RANGE_WORK, rangeCount, runKernelOn, stagingAllocations, type KernelThreads } from "../../engine/runtime/codegen/kernel-runner";
import { KernelThreadPool } from "../../engine/runtime/codegen/kernel-thread-pool";

/** Per row of a[0] (s[0] columns): acc = [sum, min, max] of the cells; out[i] = 2 · the row's sum. */
const STATS: KernelProgram = {
  source: `function (a, s, r0, r1, acc, out) {
  const X = a[0], n = s[0] | 0;
  for (let i = r0; i < r1; i++) {
    let rowSum = 0;
    for (let j = 0; j < n; j++) {
      const v = X[i * n + j];
      rowSum += v;
      if (v < acc[1]) acc[1] = v;
      if (v > acc[2]) acc[2] = v;
    }
    acc[0] += rowSum;
    out[i] = 2 * rowSum;
  }
}`,
};
const STATS_COMBINE: readonly Combine[] = ["sum", "min", "max"];

/** acc[0] = sum over the rows of a[0] of H.mod(x, 7) · a[1][j] (a helper and a small side vector). */
const MOD_DOT: KernelProgram = {
  source: `function (a, s, r0, r1, acc, out) {
  const X = a[0], v = a[1], n = s[0] | 0;
  for (let i = r0; i < r1; i++) for (let j = 0; j < n; j++) acc[0] += H.mod(X[i * n + j], 7) * v[j];
}`,
};

const FAILS_PAST_ROW_0: KernelProgram = {
  source: `function (a, s, r0, r1, acc, out) { if (r0 > 0) throw new Error("boom at row " + r0); }`,
};

function sharedF64(length: number, value: (i: number) => number): Float64Array {
  const a = new Float64Array(new SharedArrayBuffer(length * 8));
  for (let i = 0; i < length; i++) a[i] = value(i);
  return a;
}

function statsCall(X: Float64Array, rows: number, cols: number, out: Float64Array, workPerRow = cols): KernelCall {
  return {
    program: STATS,
    arrays: [X],
    scalars: Float64Array.of(cols),
    rows,
    output: out,
    accumulators: { init: Float64Array.of(0, Infinity, -Infinity), combine: STATS_COMBINE },
    workPerRow,
  };
}

const ONE_THREAD: KernelThreads = { threads: 1, pool: undefined };
let pool: KernelThreadPool;
const on = (threads: number): KernelThreads => ({ threads, pool });

before(async () => {
  pool = new KernelThreadPool(2, helpersSource().text);
  await pool.whenReady();
  assert.equal(pool.readyCount, 2, "both kernel workers started");
});
after(() => pool.close());

describe("kernel runner: row ranges over threads", () => {
  const [rows, cols] = [1200, 300];
  assert.ok(rows * cols >= KERNEL_PARALLEL_MIN_WORK);
  // Integers: every order of summing gives the same value, so all thread counts must agree exactly.
  const X = sharedF64(rows * cols, (i) => ((i * 7919) % 201) - 100);

  test("sum, min, max and a row-partitioned output equal one range on 1, 2 and 3 threads", () => {
    const refOut = new Float64Array(rows);
    const ref = runKernelOn(statsCall(X, rows, cols, refOut), ONE_THREAD);
    let expectedSum = 0;
    for (const v of X) expectedSum += v;
    assert.deepEqual(Array.from(ref), [expectedSum, -100, 100]);
    for (const threads of [1, 2, 3]) {
      const out = sharedF64(rows, () => Number.NaN);
      const before = pool.dispatched;
      const acc = runKernelOn(statsCall(X, rows, cols, out), on(threads));
      assert.deepEqual(Array.from(acc), Array.from(ref), `accumulators on ${threads} threads`);
      assert.deepEqual(Array.from(out), Array.from(refOut), `output on ${threads} threads`);
      assert.equal(pool.dispatched - before, threads - 1, `workers taking part on ${threads} threads`);
    }
  });

  test("while the thread that took the first range is held up, workers run the others, with the same values", () => {
    // The first range waits 300 ms: whoever claims it, the other ranges are run meanwhile, some by workers.
    const slowFirst: KernelProgram = { source: STATS.source.replace("{\n", "{\n  if (r0 === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);\n") };
    assert.notEqual(slowFirst.source, STATS.source);
    const out = sharedF64(rows, () => 0);
    const workerChunks = pool.chunksRunByWorkers;
    const acc = runKernelOn({ ...statsCall(X, rows, cols, out), program: slowFirst }, on(3));
    assert.ok(pool.chunksRunByWorkers - workerChunks >= 1, "workers ran ranges");
    const refOut = new Float64Array(rows);
    assert.deepEqual(Array.from(acc), Array.from(runKernelOn(statsCall(X, rows, cols, refOut), ONE_THREAD)));
    assert.deepEqual(Array.from(out), Array.from(refOut));
  });

  test("a non-integer sum is the combination of its ranges in range order, the same on every run and for any thread count", () => {
    const Y = sharedF64(rows * cols, (i) => Math.sin(i) * 1e3);
    const count = rangeCount({ rows, workPerRow: cols });
    assert.equal(count, Math.min(MAX_RANGES, Math.ceil((rows * cols) / RANGE_WORK), rows));
    assert.ok(count > 1);
    const ranges = kernelRanges(rows, count);
    // The expected value: each range on its own, combined in order.
    const parts = ranges.map(([r0, r1]) => {
      const sub = Y.slice(r0 * cols, r1 * cols);
      return runKernelOn(statsCall(sub, r1 - r0, cols, new Float64Array(r1 - r0)), ONE_THREAD);
    });
    const expected = parts[0]!;
    for (const p of parts.slice(1)) {
      expected[0] = expected[0]! + p[0]!;
      expected[1] = Math.min(expected[1]!, p[1]!);
      expected[2] = Math.max(expected[2]!, p[2]!);
    }
    for (const threads of [1, 2, 3, 3]) {
      const acc = runKernelOn(statsCall(Y, rows, cols, sharedF64(rows, () => 0)), threads === 1 ? ONE_THREAD : on(threads));
      assert.deepEqual(Array.from(acc), Array.from(expected), `${threads} threads`);
    }
  });

  test("large accumulators (a column sum per cell): the ranges' own sums combined in order, on 1 to 3 threads, with no new arrays for repeated calls", () => {
    const columnSums: KernelProgram = {
      source: `function (a, s, r0, r1, acc, out) {
  const X = a[0], n = s[0] | 0;
  for (let i = r0; i < r1; i++) for (let j = 0; j < n; j++) acc[j] += X[i * n + j];
}`,
    };
    const call = (data: Float64Array, r: number): KernelCall => ({
      program: columnSums,
      arrays: [data],
      scalars: Float64Array.of(cols),
      rows: r,
      output: new Float64Array(0),
      accumulators: { init: new Float64Array(cols).fill(0.5), combine: new Array<Combine>(cols).fill("sum") },
      workPerRow: cols,
    });
    const ranges = kernelRanges(rows, rangeCount({ rows, workPerRow: cols }));
    assert.ok(ranges.length > 2);
    for (const seed of [1, 2, 3]) {
      const Y = sharedF64(rows * cols, (i) => Math.sin(i * seed) * 1e3);
      const parts = ranges.map(([r0, r1]) => runKernelOn(call(Y.slice(r0 * cols, r1 * cols), r1 - r0), ONE_THREAD));
      const expected = parts[0]!;
      for (const p of parts.slice(1)) for (let j = 0; j < cols; j++) expected[j] = expected[j]! + p[j]!;
      const allocated = accumulatorAllocations();
      for (const threads of [1, 2, 3]) {
        const acc = runKernelOn(call(Y, rows), threads === 1 ? ONE_THREAD : on(threads));
        assert.deepEqual(Array.from(acc), Array.from(expected), `seed ${seed}, ${threads} threads`);
      }
      if (seed > 1) assert.equal(accumulatorAllocations(), allocated, `seed ${seed}: the accumulator arrays of earlier calls were reused`);
    }
  });

  test("ranges no ready worker takes run on the calling thread (4 threads, 2 workers)", () => {
    const out = sharedF64(rows, () => 0);
    const before = pool.dispatched;
    const acc = runKernelOn(statsCall(X, rows, cols, out), on(4));
    assert.equal(pool.dispatched - before, 2);
    const refOut = new Float64Array(rows);
    assert.deepEqual(Array.from(acc), Array.from(runKernelOn(statsCall(X, rows, cols, refOut), ONE_THREAD)));
    assert.deepEqual(Array.from(out), Array.from(refOut));
  });

  test("an empty range and fewer rows than threads", () => {
    const empty = runKernelOn(statsCall(new Float64Array(new SharedArrayBuffer(0)), 0, cols, new Float64Array(0)), on(3));
    assert.deepEqual(Array.from(empty), [0, Infinity, -Infinity]);
    assert.deepEqual(kernelRanges(0, 3), [[0, 0]]);
    assert.deepEqual(kernelRanges(2, 3), [
      [0, 1],
      [1, 2],
    ]);
    const two = sharedF64(2 * cols, (i) => i - 250);
    const out = sharedF64(2, () => 0);
    const before = pool.dispatched;
    const acc = runKernelOn(statsCall(two, 2, cols, out, KERNEL_PARALLEL_MIN_WORK), on(3));
    assert.equal(rangeCount({ rows: 2, workPerRow: KERNEL_PARALLEL_MIN_WORK }), 2);
    assert.equal(pool.dispatched - before, 2, "two rows: two ranges, posted to the two workers (three threads)");
    assert.deepEqual(Array.from(acc), [(299 * 300) / 2 - 250 * 300 + ((599 * 600) / 2 - (299 * 300) / 2) - 250 * 300, -250, 349]);
    assert.deepEqual(Array.from(out), [2 * ((299 * 300) / 2 - 250 * 300), 2 * ((599 * 600) / 2 - (299 * 300) / 2 - 250 * 300)]);
  });

  test("a small call stays in one range on the calling thread", () => {
    const before = pool.dispatched;
    const small = sharedF64(10 * cols, (i) => i);
    const acc = runKernelOn(statsCall(small, 10, cols, new Float64Array(10)), on(3));
    assert.equal(pool.dispatched, before);
    assert.equal(acc[0], ((10 * cols - 1) * 10 * cols) / 2);
  });

  test("large arrays that are not shared run on the calling thread, with the same result", () => {
    const plain = Float64Array.from(X);
    const out = new Float64Array(rows);
    const before = pool.dispatched;
    const acc = runKernelOn(statsCall(plain, rows, cols, out), on(3));
    assert.equal(pool.dispatched, before, "no range went to a worker");
    const refOut = new Float64Array(rows);
    assert.deepEqual(Array.from(acc), Array.from(runKernelOn(statsCall(X, rows, cols, refOut), ONE_THREAD)));
    assert.deepEqual(Array.from(out), Array.from(refOut));
  });

  test("a non-shared output of at most an eighth of the work is copied for the threads and back", () => {
    const [tall, narrow] = [70_000, 8];
    const Z = sharedF64(tall * narrow, (i) => (i % 11) - 5);
    const out = new Float64Array(tall);
    const before = pool.dispatched;
    const acc = runKernelOn(statsCall(Z, tall, narrow, out), on(2));
    assert.equal(pool.dispatched - before, 1, "posted to the workers");
    const refOut = new Float64Array(tall);
    assert.deepEqual(Array.from(acc), Array.from(runKernelOn(statsCall(Z, tall, narrow, refOut), ONE_THREAD)));
    assert.deepEqual(Array.from(out), Array.from(refOut));
  });

  test("a kernel using a helper and a small non-shared side vector runs in the workers", () => {
    const v = Float64Array.from({ length: cols }, (_, j) => (j % 5) - 2);
    const call = (): KernelCall => ({
      program: MOD_DOT,
      arrays: [X, v],
      scalars: Float64Array.of(cols),
      rows,
      output: new Float64Array(0),
      accumulators: { init: Float64Array.of(0), combine: ["sum"] },
      workPerRow: cols,
    });
    const ref = runKernelOn(call(), ONE_THREAD);
    let expected = 0;
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) expected += (((X[i * cols + j]! % 7) + 7) % 7) * v[j]!;
    assert.equal(ref[0], expected);
    const before = pool.dispatched;
    assert.deepEqual(Array.from(runKernelOn(call(), on(3))), Array.from(ref));
    assert.equal(pool.dispatched - before, 2);
  });

  test("repeated threaded calls reuse the shared copies of their small arrays, refilled each time", () => {
    const [tall, narrow] = [70_000, 8];
    const Z = sharedF64(tall * narrow, (i) => (i % 13) - 6);
    const run = (scale: number) => {
      const v = Float64Array.from({ length: narrow }, (_, j) => scale * (j - 3));
      const call = (out: Float64Array): KernelCall => ({
        program: {
          source: `function (a, s, r0, r1, acc, out) {
  const X = a[0], v = a[1], n = s[0] | 0;
  for (let i = r0; i < r1; i++) { let d = 0; for (let j = 0; j < n; j++) d += X[i * n + j] * v[j]; out[i] = d; acc[0] += d; }
}`,
        },
        arrays: [Z, v],
        scalars: Float64Array.of(narrow),
        rows: tall,
        output: out,
        accumulators: { init: Float64Array.of(0), combine: ["sum"] },
        workPerRow: narrow,
      });
      const out = new Float64Array(tall);
      const before = pool.dispatched;
      const acc = runKernelOn(call(out), on(2));
      assert.equal(pool.dispatched - before, 1, "posted to the workers");
      const refOut = new Float64Array(tall);
      const ref = runKernelOn(call(refOut), ONE_THREAD);
      assert.deepEqual(Array.from(out), Array.from(refOut), `scale ${scale}: the output copied back`);
      assert.equal(acc[0], ref[0]);
      assert.notEqual(refOut[1], 0);
    };
    run(1);
    const allocated = stagingAllocations();
    run(-2);
    run(3);
    assert.equal(stagingAllocations(), allocated, "no shared buffer allocated by the later calls");
  });

  test("a kernel that throws in a worker is a clear error, and the pool keeps working", () => {
    const call: KernelCall = { program: FAILS_PAST_ROW_0, arrays: [], scalars: new Float64Array(0), rows: 10, output: new Float64Array(0), workPerRow: KERNEL_PARALLEL_MIN_WORK };
    // Whichever thread runs a failing range, the call fails.
    assert.throws(() => runKernelOn(call, on(2)), /boom at row [1-9]/);
    // The calling thread sleeps in the range it claims, so a worker runs the other one (or both) and fails.
    const sleep = new Int32Array(new SharedArrayBuffer(4));
    const task = {
      source: `function (a, s, r0, r1, acc, out) { throw new Error("boom at row " + r0); }`,
      arrays: [],
      scalars: new Float64Array(0),
      bounds: Int32Array.from([0, 5, 10]),
      acc: new Float64Array(new SharedArrayBuffer(8)),
      accLength: 0,
      out: new Float64Array(new SharedArrayBuffer(0)),
      writes: [],
      progress: new Int32Array(new SharedArrayBuffer(12)),
    };
    const workerChunks = pool.chunksRunByWorkers;
    assert.throws(() => pool.run(task, 1, () => Atomics.wait(sleep, 0, 0, 500)), /^Error: a generated kernel failed in a worker thread: boom at row (0|5)$/);
    assert.ok(pool.chunksRunByWorkers - workerChunks >= 1);
    assert.equal(pool.readyCount, 2);
    const out = sharedF64(rows, () => 0);
    assert.equal(runKernelOn(statsCall(X, rows, cols, out), on(3))[1], -100);
  });

  test("DML_LENS_KERNEL_THREADS sets the thread count", () => {
    const saved = process.env["DML_LENS_KERNEL_THREADS"];
    try {
      process.env["DML_LENS_KERNEL_THREADS"] = "3";
      assert.equal(kernelThreadSetting(), 3);
      process.env["DML_LENS_KERNEL_THREADS"] = "zero";
      assert.ok(kernelThreadSetting() >= 1);
    } finally {
      if (saved === undefined) delete process.env["DML_LENS_KERNEL_THREADS"];
      else process.env["DML_LENS_KERNEL_THREADS"] = saved;
    }
  });
});

describe("kernel runner: helpers as source text", () => {
  test("the operators' helpers that compile alone are available, with the same results", () => {
    const h = helpersSource();
    assert.ok(h.available.has("intDiv") && h.available.has("mod"), [...h.available].join(", "));
    const compiled = new Function(`return ${h.text}();`)() as Record<string, (a: number, b: number) => number>;
    assert.equal(compiled["mod"]!(-5, 3), 1);
    assert.equal(compiled["intDiv"]!(-7, 2), -4);
  });

  test("a helper that refers to something outside the helpers is left out", () => {
    const outside = 10;
    const helpers = { plus: (a: number, b: number) => a + b, plusOutside: (a: number, b: number) => a + b + outside };
    const h = buildHelpersSource(helpers);
    assert.deepEqual([...h.available], ["plus"]);
  });
});
