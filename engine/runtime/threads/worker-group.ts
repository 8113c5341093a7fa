/**
 * The workers of a synchronous kernel pool (the WebAssembly kernels' pool,
 * ../wasm/worker-pool.ts, and the generated kernels' pool,
 * ../codegen/kernel-thread-pool.ts) and their life: each starts in the
 * background and reports ready in a state word of its shared control block,
 * which the pool reads without waiting for events; one that fails to start
 * or dies is marked broken there and never used again; once started, a
 * worker is unref'd, so it never keeps the process alive. How a pool hands
 * work to its workers is its own.
 */
import type { Worker } from "node:worker_threads";

/** Values of a worker's state word: the worker writes READY once it can take work; BROKEN is written by the worker when it exits and by the pool when it dies or is stopped. */
export const STATE_READY = 1;
export const STATE_BROKEN = 2;

export interface PooledWorker {
  readonly worker: Worker;
  /** The worker's control words (shared memory); the group's `stateWord` is its state. */
  readonly ctl: Int32Array;
}

/** What tells that a worker has started: its first message, on the worker itself or on a port it was given. */
interface StartSignal {
  once(event: "message", listener: () => void): unknown;
  unref(): void;
}

export class WorkerGroup<Slot extends PooledWorker> {
  private readonly slots: Slot[] = [];
  private readonly starts: Promise<void>[] = [];
  private closed = false;

  /** `stateWord`: the index of the state word in each worker's control words. */
  constructor(private readonly stateWord: number) {}

  /** Adds a started worker; `started` receives its first message once it has started. */
  add(slot: Slot, started: StartSignal): void {
    this.slots.push(slot);
    this.starts.push(
      new Promise<void>((resolve) => {
        // A worker that fails to start or dies is never used again.
        const broken = (): void => {
          Atomics.store(slot.ctl, this.stateWord, STATE_BROKEN);
          resolve();
        };
        // Referenced until started (so awaiting whenReady() keeps the process alive), then never again.
        started.once("message", () => {
          slot.worker.unref();
          started.unref();
          resolve();
        });
        slot.worker.on("error", broken);
        slot.worker.on("exit", broken);
      }),
    );
  }

  /** Resolves once every worker has started (or failed to). */
  whenReady(): Promise<void> {
    return Promise.all(this.starts).then(() => undefined);
  }

  /** The workers that can take work now (none once closed). */
  ready(): Slot[] {
    if (this.closed) return [];
    return this.slots.filter((s) => Atomics.load(s.ctl, this.stateWord) === STATE_READY);
  }

  /** Whether the worker has died (or the group was closed). */
  isBroken(slot: Slot): boolean {
    return Atomics.load(slot.ctl, this.stateWord) === STATE_BROKEN;
  }

  /** Marks every worker broken, lets `stop` wake it to leave its loop, and terminates it; later calls of `ready()` find none. */
  close(stop: (slot: Slot) => void): void {
    if (this.closed) return;
    this.closed = true;
    for (const slot of this.slots) {
      Atomics.store(slot.ctl, this.stateWord, STATE_BROKEN);
      stop(slot);
      void slot.worker.terminate();
    }
  }
}
