/**
 * Worker threads that run generated kernels (kernel-program.ts) on row
 * ranges of arrays in shared memory, driven synchronously like the
 * WebAssembly kernels' pool (../wasm/worker-pool.ts).
 *
 * A call is cut into fixed chunks (row ranges), each with its own
 * accumulators. The calling thread posts the call to each worker it uses on
 * a MessagePort and wakes it through a shared control word; every
 * participant, the caller included, claims chunks from the call's shared
 * counter (Atomics.add) until none are left, runs them and counts them done;
 * the caller then blocks in Atomics.wait until every chunk is done. A worker
 * on a busy core claims fewer chunks, or none when it wakes after the caller
 * has run them all; which thread ran a chunk never changes the result, since
 * each chunk's accumulators are combined in chunk order afterwards.
 *
 * Workers compile a kernel from its source the way kernel-cache.ts does
 * (cached by source), with `H` = the operators' helpers compiled from their
 * text (kernel-helpers-source.ts), and prime it before its first chunk
 * (kernel-priming.ts; every call that reaches a worker is large enough).
 * Only kernel sources built by the code generators from CPlans (and the
 * runtime's own matmul kernels) reach the workers; never user text.
 * Workers start in the background and are unref'd once started; the
 * runtime runs outside the language server's event loop, so blocking there
 * is fine.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import { chunkWorkerSource, CONTROL_STATE, postCall, runChunks, stopChunkWorkers, WorkerGroup, type ChunkWorker } from "../threads";
import type { KernelArray } from "./kernel-program";
import { PRIMING_SOURCE } from "./kernel-priming";

/** One call cut into chunks, as posted to the workers. */
export interface ChunkedKernelTask {
  readonly source: string;
  readonly arrays: readonly KernelArray[];
  readonly scalars: Float64Array;
  /** Chunk c covers rows [bounds[c], bounds[c + 1]). */
  readonly bounds: Int32Array;
  /** Chunk c's accumulators are acc[c * accLength, (c + 1) * accLength), in shared memory. */
  readonly acc: Float64Array;
  readonly accLength: number;
  readonly out: Float64Array;
  /** Indexes of `arrays` the kernel writes besides `out` (kernel-program.ts). */
  readonly writes: readonly number[];
  /** Shared [next chunk to claim, chunks done, failed]. */
  readonly progress: Int32Array;
}

/** The worker's program: generated kernels compiled once per source, chunks of a call run over their row ranges. */
const workerSource = chunkWorkerSource(`
const { helpers } = workerData;
const H = new Function("return " + helpers + "();")();
const compiled = new Map();
const primeKernel = (${PRIMING_SOURCE})();
function kernelOf(t) {
  let fn = compiled.get(t.source);
  if (fn === undefined) {
    fn = new Function("H", '"use strict"; return (' + t.source + ');')(H);
    compiled.set(t.source, fn);
    if (primeKernel !== undefined) primeKernel(fn, t.arrays, t.scalars, t.bounds[t.bounds.length - 1], t.accLength, t.out, t.writes);
  }
  return fn;
}
function runCall(t) {
  claimChunks(t.progress, t.bounds.length - 1, (c) => {
    const acc = t.acc.subarray(c * t.accLength, (c + 1) * t.accLength);
    kernelOf(t)(t.arrays, t.scalars, t.bounds[c], t.bounds[c + 1], acc, t.out);
  });
}
`);

type WorkerSlot = ChunkWorker;

export class KernelThreadPool {
  private readonly workers = new WorkerGroup<WorkerSlot>(CONTROL_STATE);
  /** Chunks run by workers so far (a worker on a busy core may run none of a call's). */
  private readonly workerChunks = new Int32Array(new SharedArrayBuffer(4));
  /** Calls posted to workers so far, one per worker per call (tests and reports: whether calls used the threads; a worker on a busy core may then run none of the call's chunks, see chunksRunByWorkers). */
  dispatched = 0;

  /** Starts `size` workers; `helpers` is the helpers' source text (kernel-helpers-source.ts). */
  constructor(size: number, helpers: string) {
    for (let i = 0; i < size; i++) {
      const ctl = new Int32Array(new SharedArrayBuffer(4 * 4));
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerSource, { eval: true, workerData: { control: ctl.buffer, port: port2, helpers }, transferList: [port2] });
      this.workers.add({ worker, ctl, port: port1 }, port1);
    }
  }

  /** Workers that can take work now. */
  get readyCount(): number {
    return this.workers.ready().length;
  }

  /** Chunks that workers (not calling threads) have run so far. */
  get chunksRunByWorkers(): number {
    return Atomics.load(this.workerChunks, 0);
  }

  /** Resolves once every worker has started (or failed to). */
  whenReady(): Promise<void> {
    return this.workers.whenReady();
  }

  /**
   * Runs the task's chunks on the calling thread (`runChunk(c)`) and on up
   * to `workers` ready workers; returns once every chunk is done. A chunk
   * that throws in a worker, or a worker that dies, is an Error.
   */
  run(task: ChunkedKernelTask, workers: number, runChunk: (chunk: number) => void): void {
    const used = this.workers.ready().slice(0, Math.max(0, workers));
    const chunks = task.bounds.length - 1;
    const p = task.progress;
    this.dispatched += used.length;
    postCall(used, task);
    runChunks(this.workers, used, p, chunks, runChunk, "a generated kernel", (count) => Atomics.add(this.workerChunks, 0, count));
  }

  /** Stops the workers; later calls run on the calling thread. */
  close(): void {
    stopChunkWorkers(this.workers);
  }
}
