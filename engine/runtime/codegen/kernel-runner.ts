/**
 * Runs a generated kernel over its whole range, split into contiguous row
 * ranges over worker threads when the call is large and its arrays live in
 * shared memory (SharedArrayBuffer-backed typed arrays, or the WebAssembly
 * kernels' shared memory).
 *
 * - A call whose work (rows x workPerRow) reaches KERNEL_PARALLEL_MIN_WORK
 *   is cut into near-equal contiguous row ranges of about RANGE_WORK work
 *   each (at most MAX_RANGES, at most one per row). The ranges depend on the
 *   call alone, never on the machine's cores or $DML_LENS_KERNEL_THREADS, so
 *   a result is the same on every machine. The calling thread and the ready
 *   workers claim ranges from a shared counter (kernel-thread-pool.ts): a
 *   thread on a busy core takes fewer, and ranges no worker takes (workers
 *   still starting, or not scheduled) run on the calling thread; with one
 *   thread, all of them run there, in order.
 * - Each range updates a private copy of the accumulators; the copies are
 *   combined slot by slot in range order (combineAccumulators), whichever
 *   thread ran which range. A sum is thus added in the same order on one
 *   thread as on many. Row-partitioned outputs are identical.
 * - Small arrays that are not shared (vectors of scalars, small side inputs:
 *   at most STAGE_MAX_LENGTH values, or an eighth of the call's work) are
 *   copied into shared memory for the call, such an output copied back; a
 *   larger array that is not shared keeps
 *   the call on the calling thread (in the same ranges), as does a kernel
 *   using a helper that cannot be compiled in a worker
 *   (kernel-helpers-source.ts).
 */
import os from "node:os";
import { kernelFunction, kernelSource } from "./kernel-cache";
import { primeOnce } from "./kernel-priming";
import { helpersSource } from "./kernel-helpers-source";
import { combineAccumulators, type KernelArray, type KernelCall } from "./kernel-program";
import { isSharedArray } from "../matrix";
import { KernelThreadPool } from "./kernel-thread-pool";
import { ScratchArrays } from "./kernel-scratch";
import { StagingBuffers } from "./kernel-staging";

/** Below this much work (rows x workPerRow multiply-adds) a call runs in one range on the calling thread. */
export const KERNEL_PARALLEL_MIN_WORK = 1 << 18;
/** Non-shared arrays up to this length (or an eighth of the call's work) are copied into shared memory for a threaded call. */
const STAGE_MAX_LENGTH = 1 << 16;
/** Work (rows x workPerRow) per range of a split call: enough ranges for threads on busy cores to take fewer. */
export const RANGE_WORK = 1 << 17;
/** The most ranges a call is split into. */
export const MAX_RANGES = 64;

/** Threads a call is split for: the thread setting (which fixes its ranges), and the pool whose workers take ranges alongside the calling thread. */
export interface KernelThreads {
  readonly threads: number;
  readonly pool: KernelThreadPool | undefined;
}

let defaults: KernelThreads | undefined;

/** The thread setting: $DML_LENS_KERNEL_THREADS (a positive integer), else the number of cores. */
export function kernelThreadSetting(): number {
  const cap = Number(process.env["DML_LENS_KERNEL_THREADS"]);
  return Number.isInteger(cap) && cap >= 1 ? cap : cores();
}

/** The runtime's kernel threads (workers started on first use: min(setting, cores) - 1 of them). */
export function kernelThreads(): KernelThreads {
  if (defaults === undefined) {
    const threads = kernelThreadSetting();
    const workers = Math.min(threads, cores()) - 1;
    defaults = { threads, pool: workers > 0 ? startPool(workers) : undefined };
  }
  return defaults;
}

/** Starts the runtime's kernel threads and resolves when they are ready (calls before that run on fewer threads). */
export function whenKernelThreadsReady(): Promise<void> {
  return kernelThreads().pool?.whenReady() ?? Promise.resolve();
}

/** Runs the call; returns its combined accumulators (empty without accumulators). */
export function runKernel(call: KernelCall): Float64Array {
  if (rangeCount(call) === 1) return runOnCaller(call, [[0, call.rows]]);
  return runKernelOn(call, kernelThreads());
}

/** Runs the call in its ranges (when large enough), up to `threads.threads` threads: the caller and workers of `threads.pool`. */
export function runKernelOn(call: KernelCall, threads: KernelThreads): Float64Array {
  const ranges = kernelRanges(call.rows, rangeCount(call));
  const pool = threads.pool;
  const workers = pool === undefined || ranges.length === 1 ? 0 : Math.min(pool.readyCount, threads.threads - 1);
  if (workers === 0 || !runsInWorkers(call.program.source)) return runOnCaller(call, ranges);
  const staged = stageShared(call);
  if (staged === undefined) return runOnCaller(call, ranges);
  const fn = kernelFunction(call.program);
  const init = call.accumulators?.init ?? NO_ACCUMULATORS;
  primeOnce(fn, call, init.length);
  const acc = sharedAccumulators.take(Math.max(1, init.length * ranges.length));
  const accs = ranges.map((_, i) => acc.subarray(i * init.length, (i + 1) * init.length));
  for (const a of accs) a.set(init);
  const bounds = new Int32Array(new SharedArrayBuffer((ranges.length + 1) * 4));
  ranges.forEach(([, r1], i) => (bounds[i + 1] = r1));
  const progress = new Int32Array(new SharedArrayBuffer(3 * 4));
  const task = { source: kernelSource(call.program), arrays: staged.arrays, scalars: call.scalars, bounds, acc, accLength: init.length, out: staged.out, writes: call.writes ?? [], progress };
  try {
    pool!.run(task, workers, (c) => fn(staged.arrays, call.scalars, bounds[c]!, bounds[c + 1]!, accs[c]!, staged.out));
    if (staged.out !== call.output) call.output.set(staged.out);
    return combined(accs, call);
  } finally {
    staging.giveBack(staged.copies);
    sharedAccumulators.giveBack(acc);
  }
}

/** [r0, r1) ranges splitting 0..rows into `parts` near-equal contiguous pieces (one empty range for 0 rows). */
export function kernelRanges(rows: number, parts: number): [number, number][] {
  const count = Math.max(1, Math.min(parts, rows));
  const ranges: [number, number][] = [];
  for (let t = 0; t < count; t++) ranges.push([Math.floor((rows * t) / count), Math.floor((rows * (t + 1)) / count)]);
  return ranges;
}

/** How many ranges a call is cut into: by its work alone (the same on every machine). */
export function rangeCount(call: Pick<KernelCall, "rows" | "workPerRow">): number {
  const work = call.rows * Math.max(1, call.workPerRow);
  if (work < KERNEL_PARALLEL_MIN_WORK) return 1;
  return Math.max(1, Math.min(MAX_RANGES, Math.ceil(work / RANGE_WORK), call.rows));
}

/**
 * Runs every range on this thread, in order, each with its own
 * accumulators: range 0's are the result, each later range's start from
 * `init` in a scratch array reused across ranges and calls, and are
 * combined into the result right after it ran (the same values, in the same
 * order, as private copies combined at the end; only two arrays however
 * many ranges, however large the accumulators, e.g. a column aggregate's).
 *
 * The bounds are passed as small integers (`| 0`), as V8 represents them
 * (Smis), like the threaded calls' bounds (read from an Int32Array) and the
 * primed calls' (kernel-priming.ts). A row count is often a double-typed
 * value boxed as a heap number: a kernel primed and optimized on Smi bounds
 * was then deoptimized at its first real call ("not a Smi") and ran it in
 * V8's interpreter (8 of ALS-CG's 16 kernels in each first run).
 */
function runOnCaller(call: KernelCall, ranges: readonly (readonly [number, number])[]): Float64Array {
  const fn = kernelFunction(call.program);
  const init = call.accumulators?.init ?? NO_ACCUMULATORS;
  primeOnce(fn, call, init.length);
  const result = new Float64Array(init);
  const [first, ...rest] = ranges;
  if (first !== undefined) fn(call.arrays, call.scalars, first[0] | 0, first[1] | 0, result, call.output);
  if (rest.length === 0) return result;
  const how = call.accumulators?.combine ?? [];
  const scratch = callerAccumulators.take(init.length);
  try {
    for (const [r0, r1] of rest) {
      scratch.set(init);
      fn(call.arrays, call.scalars, r0 | 0, r1 | 0, scratch, call.output);
      combineAccumulators(result, scratch, how);
    }
  } finally {
    callerAccumulators.giveBack(scratch);
  }
  return result;
}

/** Accumulator arrays allocated for ranges after the first and for threaded calls so far (tests: repeated calls reuse them). */
export function accumulatorAllocations(): number {
  return callerAccumulators.allocations() + sharedAccumulators.allocations();
}

/** The accumulators of a call without any. */
const NO_ACCUMULATORS = new Float64Array(0);
/** Scratch accumulators of ranges run on the calling thread, and the shared ones of threaded calls (one per call, all its ranges). */
const callerAccumulators = new ScratchArrays(false);
const sharedAccumulators = new ScratchArrays(true);

/** Range 0's accumulators with the later ranges' combined into them, in order (a copy: `accs` may be reused scratch). */
function combined(accs: readonly Float64Array[], call: KernelCall): Float64Array {
  const result = new Float64Array(accs[0]!);
  const how = call.accumulators?.combine ?? [];
  for (let i = 1; i < accs.length; i++) combineAccumulators(result, accs[i]!, how);
  return result;
}

/** Whether every helper the source uses compiles in a worker. */
function runsInWorkers(source: string): boolean {
  const available = helpersSource().available;
  for (const m of source.matchAll(/\bH\.([A-Za-z_$][\w$]*)/g)) if (!available.has(m[1]!)) return false;
  return true;
}

/** The shared copies of threaded calls' small arrays, reused across calls. */
const staging = new StagingBuffers();

/** Shared buffers allocated for threaded calls' small arrays so far (tests: a repeated call reuses them). */
export function stagingAllocations(): number {
  return staging.allocations();
}

/**
 * The call's arrays and output in shared memory (small ones copied, the
 * copies listed to be given back after the call), or undefined when a large
 * one is not shared.
 */
function stageShared(call: KernelCall): { arrays: KernelArray[]; out: Float64Array; copies: KernelArray[] } | undefined {
  const maxCopy = Math.max(STAGE_MAX_LENGTH, (call.rows * Math.max(1, call.workPerRow)) / 8);
  // Every array is checked before any is copied, so a call that stays on the caller takes no copies.
  if ([...call.arrays, call.output].some((a) => !isSharedArray(a) && a.length > maxCopy)) return undefined;
  const copies: KernelArray[] = [];
  const shared = <A extends KernelArray>(a: A): A => {
    if (isSharedArray(a)) return a;
    const copy = staging.copyOf(a) as A;
    copies.push(copy);
    return copy;
  };
  const arrays = call.arrays.map(shared);
  return { arrays, out: shared(call.output), copies };
}

/** A pool of `workers` threads, or none where threads cannot start (calls then run on the calling thread). */
function startPool(workers: number): KernelThreadPool | undefined {
  try {
    return new KernelThreadPool(workers, helpersSource().text);
  } catch {
    return undefined;
  }
}

function cores(): number {
  return Math.max(1, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length);
}
