/**
 * Worker threads that run the WebAssembly kernels on the shared linear memory,
 * driven synchronously: the calling thread writes each worker's kernel and
 * arguments into a shared control block, wakes it with Atomics.notify, runs
 * its own share, then blocks in Atomics.wait until every worker is done. The
 * runtime runs outside the language server's event loop, so blocking there is
 * fine (node allows Atomics.wait on the main thread).
 *
 * Workers start in the background; until one reports ready, calls simply run
 * on fewer threads (`whenReady()` awaits them all). Once started, workers are
 * unref'd: they never keep the process alive.
 */
import { Worker } from "node:worker_threads";
import { STATE_BROKEN, STATE_READY, WorkerGroup } from "../threads";
import type { WasmMemory, WasmModule } from "./wasm-api";

/** The kernel functions a worker may be asked to run, by index in the control block. */
const WORKER_KERNELS = ["gemmPackB", "gemmRows", "gemmShared", "gemvRows", "ewBinary", "sumProduct3", "spmvRows", "spmmRows"] as const;
type WorkerKernel = (typeof WORKER_KERNELS)[number];

export interface KernelTask {
  readonly kernel: WorkerKernel;
  readonly args: readonly number[];
}

/** Per-worker slot in the control block: int32 words, then f64 arguments and the result. */
const SLOT_BYTES = 256;
const SEQ = 0;
const DONE = 1;
const STATE = 2;
const FAILED = 3;
const KERNEL = 4;
const NARGS = 5;
const ARGS_OFFSET = 64;
const MAX_ARGS = 16;
const RESULT_OFFSET = ARGS_OFFSET + MAX_ARGS * 8;

/** The worker's program (CommonJS, run with eval: true, so bundling needs no separate file). */
const workerSource = `
const { workerData, parentPort } = require("node:worker_threads");
const { module, memory, control, slot, kernels } = workerData;
const base = slot * ${SLOT_BYTES};
const ctl = new Int32Array(control, base, ${ARGS_OFFSET / 4});
const args = new Float64Array(control, base + ${ARGS_OFFSET}, ${MAX_ARGS});
const result = new Float64Array(control, base + ${RESULT_OFFSET}, 1);
let fns;
try {
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
  fns = kernels.map((name) => exports[name]);
  Atomics.store(ctl, ${STATE}, ${STATE_READY});
} catch {
  Atomics.store(ctl, ${STATE}, ${STATE_BROKEN});
}
parentPort.postMessage("started");
let seen = 0;
while (fns) {
  Atomics.wait(ctl, ${SEQ}, seen);
  seen = Atomics.load(ctl, ${SEQ});
  const kernel = ctl[${KERNEL}];
  if (kernel < 0) break;
  try {
    const a = Array.from(args.subarray(0, ctl[${NARGS}]));
    const r = fns[kernel](...a);
    result[0] = typeof r === "number" ? r : 0;
    ctl[${FAILED}] = 0;
  } catch {
    ctl[${FAILED}] = 1;
  }
  Atomics.store(ctl, ${DONE}, seen);
  Atomics.notify(ctl, ${DONE});
}
`;

interface WorkerSlot {
  readonly worker: Worker;
  readonly ctl: Int32Array;
  readonly args: Float64Array;
  readonly result: Float64Array;
  seq: number;
}

export class KernelWorkerPool {
  private readonly workers = new WorkerGroup<WorkerSlot>(STATE);

  /** Starts `size` workers that instantiate `module` on `memory`. */
  constructor(module: WasmModule, memory: WasmMemory, size: number) {
    const control = new SharedArrayBuffer(Math.max(1, size) * SLOT_BYTES);
    for (let slot = 0; slot < size; slot++) {
      const worker = new Worker(workerSource, {
        eval: true,
        workerData: { module, memory, control, slot, kernels: WORKER_KERNELS },
      });
      const entry: WorkerSlot = {
        worker,
        ctl: new Int32Array(control, slot * SLOT_BYTES, ARGS_OFFSET / 4),
        args: new Float64Array(control, slot * SLOT_BYTES + ARGS_OFFSET, MAX_ARGS),
        result: new Float64Array(control, slot * SLOT_BYTES + RESULT_OFFSET, 1),
        seq: 0,
      };
      this.workers.add(entry, worker);
    }
  }

  /** Workers that can take work now. */
  get readyCount(): number {
    return this.workers.ready().length;
  }

  /** Resolves once every worker has started (or failed to). */
  whenReady(): Promise<void> {
    return this.workers.whenReady();
  }

  /**
   * Runs tasks[0] on the calling thread through `self` and the others on
   * ready workers (at most readyCount + 1 tasks); returns each task's result.
   */
  run(tasks: readonly KernelTask[], self: (task: KernelTask) => number): number[] {
    const ready = this.workers.ready();
    if (tasks.length - 1 > ready.length) throw new Error(`KernelWorkerPool.run: ${tasks.length} tasks for ${ready.length} ready workers`);
    const used: WorkerSlot[] = [];
    for (let t = 1; t < tasks.length; t++) {
      const task = tasks[t]!;
      const slot = ready[t - 1]!;
      if (task.args.length > MAX_ARGS) throw new Error(`KernelWorkerPool.run: ${task.args.length} arguments (at most ${MAX_ARGS})`);
      slot.ctl[KERNEL] = WORKER_KERNELS.indexOf(task.kernel);
      slot.ctl[NARGS] = task.args.length;
      slot.args.set(task.args);
      slot.seq = (slot.seq + 1) | 0;
      Atomics.store(slot.ctl, SEQ, slot.seq);
      Atomics.notify(slot.ctl, SEQ);
      used.push(slot);
    }
    const results = new Array<number>(tasks.length);
    let failure: unknown;
    try {
      results[0] = tasks.length > 0 ? self(tasks[0]!) : 0;
    } catch (e) {
      failure = e;
    }
    for (let i = 0; i < used.length; i++) {
      const slot = used[i]!;
      for (;;) {
        const done = Atomics.load(slot.ctl, DONE);
        if (done === slot.seq) break;
        if (this.workers.isBroken(slot)) {
          failure ??= new Error("a kernel worker thread died");
          break;
        }
        Atomics.wait(slot.ctl, DONE, done, 1000);
      }
      if (slot.ctl[FAILED] !== 0) failure ??= new Error(`kernel ${tasks[i + 1]!.kernel} failed in a worker thread`);
      results[i + 1] = slot.result[0]!;
    }
    if (failure !== undefined) throw failure;
    return results;
  }

  /** Stops the workers. */
  close(): void {
    this.workers.close((slot) => {
      slot.ctl[KERNEL] = -1;
      Atomics.store(slot.ctl, SEQ, (slot.seq + 1) | 0);
      Atomics.notify(slot.ctl, SEQ);
    });
  }
}
