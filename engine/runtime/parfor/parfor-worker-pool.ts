/**
 * The worker threads parfor loops run on (dist/parfor-worker.js, see
 * parfor-worker-main.ts), driven synchronously like the kernels' pools: the
 * interpreter is synchronous, so the calling thread posts one task per
 * worker, then blocks in Atomics.wait until each has answered, polling the
 * run's interrupt between waits and passing it on to the workers through a
 * shared flag they poll at every loop iteration and function call.
 *
 * Workers start on first use; the caller waits for them (up to
 * START_TIMEOUT_MS) and they are unref'd, so they never keep the process
 * alive. A pool whose workers did not start is not used again.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { CONTROL_WORDS, DONE, STATE, STATE_BROKEN, STATE_READY } from "./parfor-control";
import type { ParforReply, ParforTask } from "./parfor-task";

const START_TIMEOUT_MS = 30_000;
/** How often a waiting caller polls the run's interrupt. */
const POLL_MS = 20;
/** Waited on for a millisecond's pause (never notified). */
const nap = new Int32Array(new SharedArrayBuffer(4));

interface Slot {
  readonly worker: Worker;
  readonly ctl: Int32Array;
  readonly port: MessagePort;
}

export class ParforWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly interrupt = new Int32Array(new SharedArrayBuffer(4));
  /** Tasks (ranges of iterations) the workers have run. */
  tasksRun = 0;

  private constructor(file: string, size: number) {
    for (let i = 0; i < size; i++) {
      const ctl = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));
      const { port1, port2 } = new MessageChannel();
      // The workers already take the cores: each runs its kernels on its own thread (kernel ranges, and so results, do not depend on it).
      const env = { ...process.env, DML_LENS_KERNEL_THREADS: "1" };
      const worker = new Worker(file, { env, workerData: { control: ctl.buffer, interrupt: this.interrupt.buffer, port: port2 }, transferList: [port2] });
      worker.unref();
      port1.unref();
      // A failing worker is noticed by the caller's wait (it never becomes ready, or never answers).
      worker.on("error", () => undefined);
      this.slots.push({ worker, ctl, port: port1 });
    }
  }

  /** Starts `size` workers of `file` and waits until they are ready; a reason when they are not. */
  static start(file: string, size: number): ParforWorkerPool | string {
    const pool = new ParforWorkerPool(file, size);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const slot of pool.slots) {
      while (Atomics.load(slot.ctl, STATE) !== STATE_READY) {
        const left = deadline - Date.now();
        if (Atomics.load(slot.ctl, STATE) === STATE_BROKEN) {
          pool.close();
          return "a parfor worker thread failed to start";
        }
        if (left <= 0) {
          pool.close();
          return `the parfor worker threads did not start within ${START_TIMEOUT_MS / 1000} s`;
        }
        Atomics.wait(slot.ctl, STATE, 0, Math.min(left, 100));
      }
    }
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs tasks[w] on worker w (at most `size` tasks) and returns their replies in the same order. */
  run(tasks: readonly ParforTask[], shouldInterrupt?: () => boolean): ParforReply[] {
    if (tasks.length > this.slots.length) throw new Error(`ParforWorkerPool.run: ${tasks.length} tasks for ${this.slots.length} workers`);
    Atomics.store(this.interrupt, 0, 0);
    const used = this.slots.slice(0, tasks.length);
    const before = used.map((s) => Atomics.load(s.ctl, DONE));
    used.forEach((slot, w) => slot.port.postMessage(tasks[w]));
    const replies: ParforReply[] = [];
    used.forEach((slot, w) => {
      while (Atomics.load(slot.ctl, DONE) === before[w]) {
        if (Atomics.load(slot.ctl, STATE) === STATE_BROKEN) throw new Error("a parfor worker thread exited while running iterations");
        if (shouldInterrupt?.()) Atomics.store(this.interrupt, 0, 1);
        Atomics.wait(slot.ctl, DONE, before[w]!, POLL_MS);
      }
      let message = receiveMessageOnPort(slot.port);
      while (message === undefined) {
        Atomics.wait(nap, 0, 0, 1);
        message = receiveMessageOnPort(slot.port);
      }
      replies.push(message.message as ParforReply);
      this.tasksRun++;
    });
    return replies;
  }

  close(): void {
    for (const slot of this.slots) {
      slot.port.close();
      void slot.worker.terminate();
    }
  }
}
