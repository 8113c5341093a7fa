/**
 * Worker threads that run generated kernels (kernel-program.ts) on row
 * ranges of arrays in shared memory, driven synchronously like the
 * WebAssembly kernels' pool (../wasm/worker-pool.ts): the calling thread
 * posts each worker its range on a MessagePort and wakes it through a shared
 * control word; the worker takes the message with receiveMessageOnPort, runs
 * the kernel (compiled from its source the way kernel-cache.ts does, cached
 * by source, with `H` = the operators' helpers compiled from their text,
 * kernel-helpers-source.ts), writes its accumulators into shared memory and
 * signals done; the caller runs its own range meanwhile, then blocks in
 * Atomics.wait until every worker it used is done. The runtime runs outside
 * the language server's event loop, so blocking there is fine.
 *
 * Only kernel sources built by the code generators from CPlans (and the
 * runtime's own matmul kernels) reach the workers; never user text.
 * Workers start in the background and are unref'd once started; until one
 * is ready, its ranges run on the calling thread.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { KernelArray } from "./kernel-program";

/** One range of one call, as posted to a worker. */
export interface KernelRangeTask {
  readonly source: string;
  readonly arrays: readonly KernelArray[];
  readonly scalars: Float64Array;
  readonly r0: number;
  readonly r1: number;
  /** This range's accumulators, in shared memory (the worker updates them in place). */
  readonly acc: Float64Array;
  readonly out: Float64Array;
}

const SEQ = 0;
const DONE = 1;
const STATE = 2;
const FAILED = 3;
const WORDS = 16;

const STATE_READY = 1;
const STATE_BROKEN = 2;

/** The worker's program (CommonJS, run with eval: true, so bundling needs no separate file). */
const workerSource = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { control, port, helpers } = workerData;
const ctl = new Int32Array(control);
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
Atomics.store(ctl, ${STATE}, ${STATE_READY});
port.postMessage({ started: true });
let seen = 0;
for (;;) {
  Atomics.wait(ctl, ${SEQ}, seen);
  seen = Atomics.load(ctl, ${SEQ});
  const message = receiveMessageOnPort(port);
  if (message === undefined || message.message.stop) break;
  const t = message.message;
  try {
    kernelOf(t.source)(t.arrays, t.scalars, t.r0, t.r1, t.acc, t.out);
    ctl[${FAILED}] = 0;
  } catch (e) {
    ctl[${FAILED}] = 1;
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
  Atomics.store(ctl, ${DONE}, seen);
  Atomics.notify(ctl, ${DONE});
}
`;

interface WorkerSlot {
  readonly worker: Worker;
  readonly ctl: Int32Array;
  readonly port: MessagePort;
  seq: number;
}

export class KernelThreadPool {
  private readonly slots: WorkerSlot[] = [];
  private readonly started: Promise<void>;
  private closed = false;
  /** Ranges handed to workers so far (tests and reports: whether calls used the threads). */
  dispatched = 0;

  /** Starts `size` workers; `helpers` is the helpers' source text (kernel-helpers-source.ts). */
  constructor(size: number, helpers: string) {
    const starts: Promise<void>[] = [];
    for (let i = 0; i < size; i++) {
      const ctl = new Int32Array(new SharedArrayBuffer(WORDS * 4));
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerSource, { eval: true, workerData: { control: ctl.buffer, port: port2, helpers }, transferList: [port2] });
      const slot: WorkerSlot = { worker, ctl, port: port1, seq: 0 };
      this.slots.push(slot);
      starts.push(
        new Promise<void>((resolve) => {
          // A worker that fails to start or dies is never used again.
          const broken = (): void => {
            Atomics.store(ctl, STATE, STATE_BROKEN);
            resolve();
          };
          // Referenced until started (so awaiting whenReady() keeps the process alive), then never again.
          port1.once("message", () => {
            worker.unref();
            port1.unref();
            resolve();
          });
          worker.on("error", broken);
          worker.on("exit", broken);
        }),
      );
    }
    this.started = Promise.all(starts).then(() => undefined);
  }

  /** Workers that can take a range now. */
  get readyCount(): number {
    return this.readySlots().length;
  }

  /** Workers started (ready, starting or broken). */
  get size(): number {
    return this.slots.length;
  }

  /** Resolves once every worker has started (or failed to). */
  whenReady(): Promise<void> {
    return this.started;
  }

  /**
   * Runs tasks[1..] on ready workers (one each; at most readyCount of them)
   * and `self` on the calling thread meanwhile; returns once all are done.
   * A task that throws in a worker, or a worker that dies, is an Error.
   */
  run(tasks: readonly KernelRangeTask[], self: () => void): void {
    const ready = this.readySlots();
    if (tasks.length > ready.length) throw new Error(`KernelThreadPool.run: ${tasks.length} ranges for ${ready.length} ready workers`);
    const used: WorkerSlot[] = [];
    for (let t = 0; t < tasks.length; t++) {
      const slot = ready[t]!;
      slot.port.postMessage(tasks[t]);
      slot.seq = (slot.seq + 1) | 0;
      Atomics.store(slot.ctl, SEQ, slot.seq);
      Atomics.notify(slot.ctl, SEQ);
      used.push(slot);
    }
    this.dispatched += used.length;
    let failure: unknown;
    try {
      self();
    } catch (e) {
      failure = e;
    }
    for (const slot of used) {
      for (;;) {
        const done = Atomics.load(slot.ctl, DONE);
        if (done === slot.seq) break;
        if (Atomics.load(slot.ctl, STATE) === STATE_BROKEN) {
          failure ??= new Error("a kernel worker thread died while running a generated kernel");
          break;
        }
        Atomics.wait(slot.ctl, DONE, done, 1000);
      }
      if (slot.ctl[FAILED] !== 0) {
        slot.ctl[FAILED] = 0;
        const reply = receiveMessageOnPort(slot.port)?.message as { error?: string } | undefined;
        failure ??= new Error(`a generated kernel failed in a worker thread: ${reply?.error ?? "unknown error"}`);
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Stops the workers; later calls run on the calling thread. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const slot of this.slots) {
      Atomics.store(slot.ctl, STATE, STATE_BROKEN);
      slot.port.postMessage({ stop: true });
      Atomics.store(slot.ctl, SEQ, (slot.seq + 1) | 0);
      Atomics.notify(slot.ctl, SEQ);
      slot.port.close();
      void slot.worker.terminate();
    }
  }

  private readySlots(): WorkerSlot[] {
    if (this.closed) return [];
    return this.slots.filter((s) => Atomics.load(s.ctl, STATE) === STATE_READY);
  }
}
