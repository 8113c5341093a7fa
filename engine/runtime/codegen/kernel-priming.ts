/**
 * Priming a generated kernel before its first large call on a thread, so
 * that the call runs as optimized code from its first row.
 *
 * Why: a kernel is new code to V8. Its first call starts in the bytecode
 * interpreter (about 0.2 µs per row of a one-line kernel, 50-100 times the
 * optimized speed) and asks TurboFan for optimized code only once the loop
 * is hot; that compilation runs in the background, where on a script's
 * first run it waits behind the optimizer's own functions (a cold l2svm run
 * queued 317 ms of TurboFan work, 44 ms of it for kernels) and competes with
 * the kernel worker thread for the machine's cores, while the call goes on
 * in the interpreter. A kernel is then compiled twice: for the running loop
 * (on-stack replacement) and for its next call. Each worker thread does the
 * same for its own copy. Measured with `npx dml bench e2e` (first fused
 * runs, medians of 4 suites alternating with and without, this 2-core
 * machine): l2svm 281 -> 236 ms, glm_logit 238 -> 210, mlogreg 499 -> 448,
 * kmeans 255 -> 193; ALS-CG, whose kernels run on small matrices, 516 ->
 * 525 (within its noise).
 *
 * How: the kernel runs twice over the first PRIME_ROWS rows of its call
 * (a valid call: a kernel over any range computes that range's part,
 * kernel-program.ts), so that V8 records the types it meets; every array
 * it writes is a scratch array of the same kind, length and sharing (its
 * accumulators, `out`, and the arrays the call lists in `writes`), so
 * nothing of the call changes: a kernel that adds into a zeroed output
 * (SpMM) would otherwise add those rows twice. Then V8 is asked to optimize
 * the function on its next call, which compiles it with TurboFan at once,
 * on the calling thread: V8's intrinsics %PrepareFunctionForOptimization
 * and %OptimizeFunctionOnNextCall, which parse only with
 * --allow-natives-syntax (JIT_FLAGS sets it in our processes). Where the
 * flag is not set (VS Code's extension host runs the Run Cell worker with
 * V8's defaults) they do not parse, and kernels run unprimed. A kernel
 * that throws while priming is left unprimed; its call reports the error.
 *
 * What V8 records must hold for the whole call, or the optimized kernel is
 * deoptimized in it and runs the rest in the interpreter. Two things made
 * the first rows unrepresentative:
 * - Values that are small integers there. V8 keeps an integral result of
 *   arithmetic or of Math.exp as a small integer (Smi) and then compiles
 *   the operations that met only such values as integer arithmetic: with
 *   glm_logit's first beta, all zeros, every row's `exp(-X %*% beta)` is 1,
 *   and `1 + exp(...)` was deoptimized at the first row where it was not
 *   ("lost precision"; mlogreg's first B likewise). So the first of the two
 *   runs reads every Float64Array input of at most PRIME_FILLED_MAX values
 *   (side vectors, small matrices; not the scalars `s`, which hold sizes)
 *   as a copy filled with PRIMING_FILL, a value no arithmetic here keeps
 *   integral; the second reads the real inputs. Larger arrays (the main
 *   inputs, read by row) stay real: a value read from a Float64Array is
 *   never a Smi itself. Both runs write only scratch arrays.
 * - The row bounds, which callers pass as Smis (kernel-runner.ts).
 *
 * Calls below PRIME_MIN_WORK are not primed: in the interpreter they take
 * about as long as compiling them (4,096 rows of a one-line kernel: 0.8 ms).
 *
 * The priming function is source text (PRIMING_SOURCE) because the kernel
 * worker threads run it too (kernel-thread-pool.ts); this module compiles
 * the same text for the calling thread.
 */
import { OPTIMIZATION_INTRINSICS_SOURCE, PRIMING_FILL } from "../threads";
import type { KernelArray, KernelCall, KernelFunction } from "./kernel-program";

/** Rows of a call a kernel is primed on. */
export const PRIME_ROWS = 64;

/** Calls of less work (rows x workPerRow) than this run unprimed. */
export const PRIME_MIN_WORK = 1 << 12;

/** Float64Array inputs of at most this many values are read as copies filled with PRIMING_FILL in the first priming run. */
export const PRIME_FILLED_MAX = 1 << 16;

/**
 * `(function () { ... })`: called, it gives `primeKernel(fn, a, s, rows,
 * accLength, out, writes)`, which primes `fn` and returns true, or
 * undefined when V8's intrinsics do not parse here.
 */
export const PRIMING_SOURCE = `(function () {
  "use strict";
  ${OPTIMIZATION_INTRINSICS_SOURCE}
  const scratchLike = (x) => {
    const Kind = x.constructor;
    return typeof SharedArrayBuffer !== "undefined" && x.buffer instanceof SharedArrayBuffer ? new Kind(new SharedArrayBuffer(x.byteLength)) : new Kind(x.length);
  };
  const filledLike = (x) => {
    const copy = scratchLike(x);
    copy.fill(${PRIMING_FILL});
    return copy;
  };
  return function primeKernel(fn, a, s, rows, accLength, out, writes) {
    const arrays = a.slice();
    for (const k of writes) arrays[k] = scratchLike(a[k]);
    const filled = arrays.map((x) => (x instanceof Float64Array && x.length <= ${PRIME_FILLED_MAX} ? filledLike(x) : x));
    const scratchOut = out.length > 0 ? scratchLike(out) : out;
    const r1 = Math.min(rows, ${PRIME_ROWS}) | 0;
    try {
      prepare(fn);
      fn(filled, s, 0, r1, new Float64Array(accLength), scratchOut);
      fn(arrays, s, 0, r1, new Float64Array(accLength), scratchOut);
    } catch (e) {
      return false;
    }
    optimizeNext(fn);
    return true;
  };
})`;

/** Primes `fn` on a call's first rows (see the file comment); false when it threw. */
export type PrimeKernel = (fn: KernelFunction, a: readonly KernelArray[], s: Float64Array, rows: number, accLength: number, out: Float64Array, writes: readonly number[]) => boolean;

let primer: PrimeKernel | null | undefined;
const primed = new WeakSet<KernelFunction>();
let primedCount = 0;

/** The calling thread's primer, or null where V8's intrinsics do not parse. */
function callerPrimer(): PrimeKernel | null {
  if (primer === undefined) primer = (new Function(`return ${PRIMING_SOURCE}();`)() as PrimeKernel | undefined) ?? null;
  return primer;
}

/** Primes `fn` before its first call on this thread when the call is large enough and priming works here. */
export function primeOnce(fn: KernelFunction, call: Pick<KernelCall, "arrays" | "scalars" | "rows" | "workPerRow" | "output" | "writes">, accLength: number): void {
  if (primed.has(fn) || call.rows * Math.max(1, call.workPerRow) < PRIME_MIN_WORK) return;
  primed.add(fn);
  const prime = callerPrimer();
  if (prime !== null && prime(fn, call.arrays, call.scalars, call.rows, accLength, call.output, call.writes ?? [])) primedCount++;
}

/** Kernels primed on the calling thread so far (tests). */
export function primedKernels(): number {
  return primedCount;
}

/** Whether kernels are primed in this process (V8's intrinsics parse: --allow-natives-syntax is set). */
export function primingAvailable(): boolean {
  return callerPrimer() !== null;
}
