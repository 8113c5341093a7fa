/**
 * Worker threads that run WebAssembly kernels on resident memories
 * (resident-memory.ts): memories of their own, one per large array, so a
 * call names its memory. The calling thread posts the call (the memory and
 * its chunked task) to each worker it uses on a MessagePort and wakes it
 * through a shared control word; every participant, the caller included,
 * claims chunks from the call's shared counter (Atomics.add), runs them
 * with the same chunk function (its source is given to the workers) and
 * counts them done; the caller then blocks in Atomics.wait until every
 * chunk is done. Each chunk writes its own partial results, which the
 * caller combines in chunk order, so which thread ran a chunk never changes
 * the result.
 *
 * A worker instantiates the kernel module on the call's memory for that
 * call only and keeps no reference to it afterwards (a cache would keep a
 * dead matrix's memory alive). Workers start in the background and are
 * unref'd once started; until they are ready, calls run on fewer threads.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import { chunkWorkerSource, CONTROL_STATE, postCall, PROGRESS_NEXT, runChunks, stopChunkWorkers, WorkerGroup, type ChunkWorker } from "../threads";
import type { WasmMemory, WasmModule } from "./wasm-api";
import type { KernelExports } from "./wasm-module";

/**
 * A chunk function: runs chunk `c` of `task` with the module's exports on
 * the memory whose buffer is `buffer`, as thread `p` (0: the calling
 * thread, the pool's worker i: i + 1).
 */
export type ResidentChunkFunction<Task> = (exports: KernelExports, buffer: SharedArrayBuffer, task: Task, c: number, p: number) => void;

const workerSource = chunkWorkerSource(`
const { module, chunkSource, priming, thread } = workerData;
const runChunk = new Function('"use strict"; return (' + chunkSource + ');')();
if (priming !== undefined) {
  const prime = new Function("return " + priming.source + "();")();
  if (prime !== undefined) prime(runChunk, module, priming.block, thread);
}
function runCall(m) {
  const p = m.progress;
  if (Atomics.load(p, ${PROGRESS_NEXT}) >= m.chunks) return;
  let exports;
  try {
    exports = new WebAssembly.Instance(module, { env: { memory: m.memory } }).exports;
  } catch (e) {
    reportFailure(p, e);
    return;
  }
  const buffer = m.memory.buffer;
  claimChunks(p, m.chunks, (c) => runChunk(exports, buffer, m.task, c, thread));
}
`);

type WorkerSlot = ChunkWorker;

export class ResidentWorkerPool<Task> {
  private readonly workers = new WorkerGroup<WorkerSlot>(CONTROL_STATE);
  /** Chunks that workers (not the calling thread) have run so far. */
  chunksRunByWorkers = 0;
  /** Workers started (ready or not): worker i runs chunks as thread i + 1. */
  readonly size: number;

  /**
   * Starts `size` workers running `chunkSource` (the source of a
   * self-contained ResidentChunkFunction) with `module`; each first primes
   * it with `priming` (resident-chunk-priming.ts) when given.
   */
  constructor(module: WasmModule, chunkSource: string, size: number, priming?: { source: string; block: number }) {
    this.size = size;
    for (let i = 0; i < size; i++) {
      const ctl = new Int32Array(new SharedArrayBuffer(4 * 4));
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerSource, { eval: true, workerData: { control: ctl.buffer, port: port2, module, chunkSource, priming, thread: i + 1 }, transferList: [port2] });
      this.workers.add({ worker, ctl, port: port1 }, port1);
    }
  }

  get readyCount(): number {
    return this.workers.ready().length;
  }

  whenReady(): Promise<void> {
    return this.workers.whenReady();
  }

  /**
   * Runs chunks 0..chunks-1 of `task` on `memory`: on the calling thread
   * (`runChunk`) and on up to `workers` ready workers; returns once every
   * chunk is done. A chunk that throws, or a worker that dies, is an Error.
   */
  run(memory: WasmMemory, task: Task, chunks: number, workers: number, runChunk: (c: number) => void): void {
    const used = this.workers.ready().slice(0, Math.max(0, workers));
    const progress = new Int32Array(new SharedArrayBuffer(3 * 4));
    postCall(used, { memory, task, chunks, progress });
    runChunks(this.workers, used, progress, chunks, runChunk, "a WebAssembly kernel", (count) => (this.chunksRunByWorkers += count));
  }

  close(): void {
    stopChunkWorkers(this.workers);
  }
}
