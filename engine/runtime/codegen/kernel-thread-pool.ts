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
 * text (kernel-helpers-source.ts). Only kernel sources built by the code
 * generators from CPlans (and the runtime's own matmul kernels) reach the
 * workers; never user text. Workers start in the background and are unref'd
 * once started; the runtime runs outside the language server's event loop,
 * so blocking there is fine.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { STATE_BROKEN, STATE_READY, WorkerGroup } from "../threads";
import type { KernelArray } from "./kernel-program";

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
  /** Shared [next chunk to claim, chunks done, failed]. */
  readonly progress: Int32Array;
}

const NEXT = 0;
const DONE = 1;
const FAILED = 2;

/** Control words of a worker. */
const SEQ = 0;
const STATE = 1;

/** The worker's program (CommonJS, run with eval: true, so bundling needs no separate file). */
const workerSource = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { control, port, helpers } = workerData;
const ctl = new Int32Array(control);
process.on("exit", () => Atomics.store(ctl, ${STATE}, ${STATE_BROKEN}));
const H = new Function("return " + helpers + "();")();
const compiled = new Map();
function kernelOf(source) {
  let fn = compiled.get(source);
  if (fn === undefined) {
    fn = new Function("H", '"use strict"; return (' + source + ');')(H);
    compiled.set(source, fn);
  }
  return fn;
}
function runChunks(t) {
  const chunks = t.bounds.length - 1;
  const p = t.progress;
  for (;;) {
    const c = Atomics.add(p, ${NEXT}, 1);
    if (c >= chunks) return;
    try {
      const acc = t.acc.subarray(c * t.accLength, (c + 1) * t.accLength);
      kernelOf(t.source)(t.arrays, t.scalars, t.bounds[c], t.bounds[c + 1], acc, t.out);
    } catch (e) {
      if (Atomics.exchange(p, ${FAILED}, 1) === 0) port.postMessage({ error: e instanceof Error ? e.message : String(e) });
    }
    if (Atomics.add(p, ${DONE}, 1) + 1 === chunks) Atomics.notify(p, ${DONE});
  }
}
Atomics.store(ctl, ${STATE}, ${STATE_READY});
port.postMessage({ started: true });
let seen = 0;
for (;;) {
  Atomics.wait(ctl, ${SEQ}, seen);
  seen = Atomics.load(ctl, ${SEQ});
  let message;
  while ((message = receiveMessageOnPort(port)) !== undefined) {
    if (message.message.stop) process.exit(0);
    runChunks(message.message);
  }
}
`;

interface WorkerSlot {
  readonly worker: Worker;
  readonly ctl: Int32Array;
  readonly port: MessagePort;
}

export class KernelThreadPool {
  private readonly workers = new WorkerGroup<WorkerSlot>(STATE);
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
    for (const slot of used) {
      slot.port.postMessage(task);
      Atomics.add(slot.ctl, SEQ, 1);
      Atomics.notify(slot.ctl, SEQ);
    }
    let failure: unknown;
    let mine = 0;
    for (;;) {
      const c = Atomics.add(p, NEXT, 1);
      if (c >= chunks) break;
      try {
        runChunk(c);
      } catch (e) {
        failure ??= e;
      }
      mine++;
      Atomics.add(p, DONE, 1);
    }
    Atomics.add(this.workerChunks, 0, chunks - mine);
    for (;;) {
      const done = Atomics.load(p, DONE);
      if (done >= chunks) break;
      if (used.some((s) => this.workers.isBroken(s))) {
        failure ??= new Error("a kernel worker thread died while running a generated kernel");
        break;
      }
      Atomics.wait(p, DONE, done, 100);
    }
    if (Atomics.load(p, FAILED) !== 0) failure ??= new Error(`a generated kernel failed in a worker thread: ${this.workerError(used)}`);
    if (failure !== undefined) throw failure;
  }

  /** Stops the workers; later calls run on the calling thread. */
  close(): void {
    this.workers.close((slot) => {
      slot.port.postMessage({ stop: true });
      Atomics.add(slot.ctl, SEQ, 1);
      Atomics.notify(slot.ctl, SEQ);
      slot.port.close();
    });
  }

  /** The error message a worker posted for a failed chunk. */
  private workerError(used: readonly WorkerSlot[]): string {
    for (const slot of used) {
      for (let m = receiveMessageOnPort(slot.port); m !== undefined; m = receiveMessageOnPort(slot.port)) {
        const error = (m.message as { error?: unknown }).error;
        if (typeof error === "string") return error;
      }
    }
    return "unknown error";
  }
}
