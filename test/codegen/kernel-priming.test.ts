// Priming a generated kernel before its first large call
// (engine/runtime/codegen/kernel-priming.ts): with --allow-natives-syntax
// (set here as our processes set it, jit-flags.ts) a kernel first runs on
// scratch copies of what it writes, then is optimized; the call's values
// are those of an unprimed call, also for a kernel that adds into its
// output and into an array it lists in `writes`, on the calling thread and
// split over the worker threads; the kernel stays optimized through its
// real calls (the bounds are Smis, and integral values in the rows it was
// primed on do not make V8 compile integer arithmetic). Without the flag
// nothing is primed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runKernel, type KernelCall } from "../../engine/runtime/codegen";
import { kernelFunction } from "../../engine/runtime/codegen/kernel-cache";
import { PRIME_MIN_WORK, PRIME_ROWS, PRIMING_SOURCE, primedKernels, primingAvailable } from "../../engine/runtime/codegen/kernel-priming";
import { KERNEL_PARALLEL_MIN_WORK } from "../../engine/runtime/codegen/kernel-runner";
import { optimized, primerInFreshProcess } from "../v8-natives";

/** A number V8 keeps boxed as a double, as a row count computed in floating point often is. */
function boxed(n: number): number {
  return Float64Array.of(n)[0]!;
}

/** `out[i] = 1 / (1 + exp(-x[i] * b[0]))`, glm_logit's `mu` for a one-column X. */
function logisticCall(tag: string, x: Float64Array, b: number, rows: number): KernelCall {
  const source = `function (a, s, r0, r1, acc, out) { /* ${tag} */ const x = a[0], b = a[1][0]; for (let i = r0; i < r1; i++) { const e = Math.exp(-(x[i] * b)); out[i] = 1 / (1 + e); } }`;
  return { program: { source }, arrays: [x, Float64Array.of(b)], scalars: new Float64Array(0), rows, output: new Float64Array(x.length), workPerRow: 1 };
}

/** A kernel that adds into `out` and into a[1] and sums a[0] into acc[0]: running rows twice would show. */
function addingCall(tag: string, rows: number, shared: boolean): { call: KernelCall; x: Float64Array; counts: Float64Array; out: Float64Array } {
  const make = (n: number) => (shared ? new Float64Array(new SharedArrayBuffer(n * 8)) : new Float64Array(n));
  const x = make(rows).map((_, i) => (i % 7) - 3.5);
  const counts = make(rows).fill(10);
  const out = make(rows);
  const source = `function (a, s, r0, r1, acc, out) { /* ${tag} */ const x = a[0], c = a[1], f = s[0]; for (let i = r0; i < r1; i++) { out[i] += f * x[i]; c[i] += 1; acc[0] += x[i]; } }`;
  const call: KernelCall = {
    program: { source },
    arrays: [x, counts],
    scalars: Float64Array.of(2),
    rows,
    output: out,
    accumulators: { init: Float64Array.of(0), combine: ["sum"] },
    workPerRow: 1,
    writes: [1],
  };
  return { call, x, counts, out };
}

function assertAddedOnce(x: Float64Array, counts: Float64Array, out: Float64Array, acc: Float64Array): void {
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    assert.equal(out[i], 2 * x[i]!, `out[${i}]`);
    assert.equal(counts[i], 11, `counts[${i}]`);
  }
  for (let i = 0; i < x.length; i++) sum += x[i]!;
  assert.equal(acc[0], sum);
}

describe("kernel priming", () => {
  it("is available with --allow-natives-syntax, and the priming source gives no primer without it", () => {
    assert.equal(primingAvailable(), true);
    const without = primerInFreshProcess(PRIMING_SOURCE, false);
    assert.equal(without.stdout, "none", without.stderr);
    const withFlag = primerInFreshProcess(PRIMING_SOURCE, true);
    assert.equal(withFlag.stdout, "function", withFlag.stderr);
  });

  it("leaves a call's values alone on the calling thread (a kernel adding into its output and a written array)", () => {
    const before = primedKernels();
    const { call, x, counts, out } = addingCall("caller", 20_000, false);
    const acc = runKernel(call);
    assert.equal(primedKernels(), before + 1);
    assertAddedOnce(x, counts, out, acc);
    // Its next call is not primed again.
    const again = addingCall("caller", 20_000, false);
    assertAddedOnce(again.x, again.counts, again.out, runKernel(again.call));
    assert.equal(primedKernels(), before + 1);
  });

  it("leaves a call's values alone when split over the worker threads", () => {
    const rows = 4 * KERNEL_PARALLEL_MIN_WORK;
    const { call, x, counts, out } = addingCall("threads", rows, true);
    assertAddedOnce(x, counts, out, runKernel(call));
  });

  it("keeps a kernel optimized through a call whose row count is a boxed double (the bounds are passed as Smis)", () => {
    const rows = 20_000;
    const x = new Float64Array(rows).map((_, i) => (i % 13) / 7 - 0.9);
    const call = logisticCall("boxed rows", x, 0.5, boxed(rows));
    const out = call.output;
    runKernel(call);
    assert.equal(optimized(kernelFunction(call.program)), true);
    for (const i of [0, 1, 64, rows - 1]) assert.equal(out[i], 1 / (1 + Math.exp(-(x[i]! * 0.5))));
  });

  it("keeps a kernel optimized when its first call's side vector is all zeros (integral values where it was primed) and the next one's is not", () => {
    const rows = 20_000;
    const x = new Float64Array(rows).map((_, i) => (i % 11) / 5 - 1);
    const first = logisticCall("zero side vector", x, 0, rows);
    runKernel(first);
    assert.ok(first.output.every((v) => v === 0.5));
    const next = logisticCall("zero side vector", x, 0.25, rows);
    runKernel(next);
    assert.equal(optimized(kernelFunction(next.program)), true);
    for (const i of [0, 3, 5000, rows - 1]) assert.equal(next.output[i], 1 / (1 + Math.exp(-(x[i]! * 0.25))));
  });

  it("skips calls of less work than PRIME_MIN_WORK (more than the PRIME_ROWS rows a kernel is primed on)", () => {
    assert.ok(PRIME_ROWS < PRIME_MIN_WORK);
    const before = primedKernels();
    const { call, x, counts, out } = addingCall("small", PRIME_MIN_WORK - 1, false);
    assertAddedOnce(x, counts, out, runKernel(call));
    assert.equal(primedKernels(), before);
  });

  it("leaves a kernel that throws unprimed; its call reports the error", () => {
    const before = primedKernels();
    const call: KernelCall = {
      program: { source: `function (a, s, r0, r1, acc, out) { /* throws */ if (r1 > 0) throw new Error("kernel failed at " + r0); }` },
      arrays: [],
      scalars: new Float64Array(0),
      rows: PRIME_MIN_WORK,
      output: new Float64Array(PRIME_MIN_WORK),
      workPerRow: 1,
    };
    assert.throws(() => runKernel(call), /^Error: kernel failed at 0$/);
    assert.equal(primedKernels(), before);
  });
});
