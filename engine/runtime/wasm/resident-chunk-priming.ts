/**
 * Priming the resident kernels' chunk function (resident-kernels.ts) on
 * each thread before its first real call.
 *
 * Why: the chunk function is JavaScript that walks a chunk in blocks of
 * rows, copies each block's w (and u) values into X's tail in a loop and
 * calls the WebAssembly kernel per block. On a thread that has not run it
 * yet, V8 runs it in its interpreter, the copy loop included, until it is
 * hot: a 1e6 x 10 MMChain took 12-16 ms on its first call and 8-11 ms on
 * its second, against 4-5 ms after (1 thread: 12-14, 9-12, then 7). With
 * the chunk function run before on another resident matrix, the first two
 * calls took 8-11 and 4-6 ms.
 *
 * How: like a generated kernel (codegen/kernel-priming.ts), the function
 * runs twice on a small call of every task kind (MMChain without w, with w,
 * with w and u; GEMV), on a memory of its own, then V8 is asked to optimize
 * it (%PrepareFunctionForOptimization, %OptimizeFunctionOnNextCall, which
 * parse only with --allow-natives-syntax: elsewhere nothing is primed) and
 * it runs once more, which compiles it. The tasks have the fields of the
 * real ones in the same order (ResidentTask), Smi bounds, and shared w and
 * u; a worker thread gets its tasks through a message, so there each
 * priming task is first cloned the same way (structuredClone), for V8 to
 * meet the objects' shapes it will meet in real calls. The chunks call the
 * kernels of two instances of the module: real calls use an instance per
 * memory (a worker, one per call), and an optimized chunk function that had
 * met one instance's kernels only was deoptimized when another's came
 * ("wrong call target").
 *
 * The calling thread primes when the first resident array is made (the
 * workers start then too), each worker before it reports ready.
 */
import { OPTIMIZATION_INTRINSICS_SOURCE, PRIMING_FILL } from "../threads";

/**
 * `(function () { ... })`: called, it gives `primeResidentChunk(runChunk,
 * module, block, thread)`, which primes `runChunk` and returns true, or
 * undefined when V8's intrinsics do not parse here. `block` is the chunk
 * function's rows per kernel call; `thread` the thread it runs chunks as
 * (0: the calling thread; a worker, whose tasks come as messages: 1 on).
 */
export const RESIDENT_PRIMING_SOURCE = `(function () {
  "use strict";
  ${OPTIMIZATION_INTRINSICS_SOURCE}
  const align64 = (bytes) => Math.ceil(bytes / 64) * 64;
  return function primeResidentChunk(runChunk, module, block, thread) {
    const rows = 2 * block + 7, cols = 4, chunks = 2, span = block;
    const vAt = align64(rows * cols * 8);
    const accStride = align64(cols * 8);
    const accBase = vAt + accStride;
    const wBase = accBase + chunks * accStride;
    const pages = Math.ceil((wBase + (thread + 1) * span * 16) / 65536);
    try {
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      const buffer = memory.buffer;
      const instance = () => new WebAssembly.Instance(module, { env: { memory } }).exports;
      const exports = [instance(), instance()];
      new Float64Array(buffer, 0, rows * cols + cols * 2).fill(${PRIMING_FILL});
      const column = () => new Float64Array(new SharedArrayBuffer(rows * 8)).fill(${PRIMING_FILL});
      const layout = { x: 0, cols, v: vAt, accBase, accStride, wBase, span, slotBytes: span * 16, block, bounds: [0, block + 3, rows] };
      const tasks = [
        { kernel: 0, mode: 0, w: undefined, u: undefined, ...layout },
        { kernel: 0, mode: 1, w: column(), u: undefined, ...layout },
        { kernel: 0, mode: 4, w: column(), u: column(), ...layout },
        { kernel: 1, mode: 0, w: column(), u: undefined, ...layout },
      ].map((t) => (thread > 0 ? structuredClone(t) : t));
      const runAll = () => {
        for (const t of tasks) for (let c = 0; c < chunks; c++) runChunk(exports[c], buffer, t, c, thread);
      };
      prepare(runChunk);
      runAll();
      runAll();
      optimizeNext(runChunk);
      runAll();
      return true;
    } catch (e) {
      return false;
    }
  };
})`;

/** Primes `runChunk` (see the file comment); false when priming failed or does not work here. */
export type PrimeResidentChunk = (runChunk: unknown, module: unknown, block: number, thread: number) => boolean;

let primer: PrimeResidentChunk | null | undefined;

/** This thread's primer, or null where V8's intrinsics do not parse. */
export function residentChunkPrimer(): PrimeResidentChunk | null {
  if (primer === undefined) primer = (new Function(`return ${RESIDENT_PRIMING_SOURCE}();`)() as PrimeResidentChunk | undefined) ?? null;
  return primer;
}
