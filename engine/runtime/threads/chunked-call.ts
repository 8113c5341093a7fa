/**
 * One call of a chunked kernel pool (the generated kernels' pool,
 * ../codegen/kernel-thread-pool.ts, and the WebAssembly kernels' resident
 * pool, ../wasm/resident-pool.ts), on the calling thread's side: the call
 * is posted to the chosen workers and they are woken; then the calling
 * thread claims chunks from the shared progress words like any worker, and
 * waits until every chunk is done. The first failure (a chunk that threw
 * here, one a worker reported, or a worker that died) is thrown. The
 * workers' side is `chunkWorkerSource`, with the same words.
 */
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { STATE_BROKEN, STATE_READY, type PooledWorker, type WorkerGroup } from "./worker-group";

/** Words of a call's shared progress block: the next chunk to claim, chunks done, and whether one failed. */
export const PROGRESS_NEXT = 0;
export const PROGRESS_DONE = 1;
export const PROGRESS_FAILED = 2;

/** Words of a worker's control block: a sequence number bumped to wake it, and its state (./worker-group.ts). */
export const CONTROL_SEQ = 0;
export const CONTROL_STATE = 1;

/**
 * The program of a chunked pool's worker (CommonJS, run with eval: true, so
 * bundling needs no separate file). `setup` runs once with `workerData`,
 * `port`, `reportFailure(progress, error)` and `claimChunks(progress,
 * chunks, runChunk)` in scope and defines `runCall(message)`; the worker
 * then reports ready and runs each call posted to it until told to stop.
 */
export function chunkWorkerSource(setup: string): string {
  return `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { control, port } = workerData;
const ctl = new Int32Array(control);
process.on("exit", () => Atomics.store(ctl, ${CONTROL_STATE}, ${STATE_BROKEN}));
function reportFailure(p, e) {
  if (Atomics.exchange(p, ${PROGRESS_FAILED}, 1) === 0) port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
function claimChunks(p, chunks, runChunk) {
  for (;;) {
    const c = Atomics.add(p, ${PROGRESS_NEXT}, 1);
    if (c >= chunks) return;
    try {
      runChunk(c);
    } catch (e) {
      reportFailure(p, e);
    }
    if (Atomics.add(p, ${PROGRESS_DONE}, 1) + 1 === chunks) Atomics.notify(p, ${PROGRESS_DONE});
  }
}
${setup}
Atomics.store(ctl, ${CONTROL_STATE}, ${STATE_READY});
port.postMessage({ started: true });
let seen = 0;
for (;;) {
  Atomics.wait(ctl, ${CONTROL_SEQ}, seen);
  seen = Atomics.load(ctl, ${CONTROL_SEQ});
  let message;
  while ((message = receiveMessageOnPort(port)) !== undefined) {
    if (message.message.stop) process.exit(0);
    runCall(message.message);
  }
}
`;
}

/** A worker of a chunked pool: it takes calls (and the stop message) on `port`. */
export interface ChunkWorker extends PooledWorker {
  readonly port: MessagePort;
}

/** Posts `message` to each worker and wakes it. */
export function postCall(used: readonly ChunkWorker[], message: unknown): void {
  for (const slot of used) {
    slot.port.postMessage(message);
    Atomics.add(slot.ctl, CONTROL_SEQ, 1);
    Atomics.notify(slot.ctl, CONTROL_SEQ);
  }
}

/**
 * Runs chunks on the calling thread until none is left to claim, tells
 * `workerChunks` how many the workers took (before any error is thrown),
 * then waits for them. `kernel` names what runs, for the errors ("a
 * generated kernel").
 */
export function runChunks<Slot extends ChunkWorker>(
  group: WorkerGroup<Slot>,
  used: readonly Slot[],
  progress: Int32Array,
  chunks: number,
  runChunk: (chunk: number) => void,
  kernel: string,
  workerChunks: (count: number) => void,
): void {
  let failure: unknown;
  let mine = 0;
  for (;;) {
    const c = Atomics.add(progress, PROGRESS_NEXT, 1);
    if (c >= chunks) break;
    try {
      runChunk(c);
    } catch (e) {
      failure ??= e;
    }
    mine++;
    Atomics.add(progress, PROGRESS_DONE, 1);
  }
  workerChunks(chunks - mine);
  for (;;) {
    const done = Atomics.load(progress, PROGRESS_DONE);
    if (done >= chunks) break;
    if (used.some((s) => group.isBroken(s))) {
      failure ??= new Error(`a kernel worker thread died while running ${kernel}`);
      break;
    }
    Atomics.wait(progress, PROGRESS_DONE, done, 100);
  }
  if (Atomics.load(progress, PROGRESS_FAILED) !== 0) {
    // The worker's message is read even when this thread failed too: left in its port, it would be taken for the next call's failure.
    const message = workerError(used);
    failure ??= new Error(`${kernel} failed in a worker thread: ${message}`);
  }
  if (failure !== undefined) throw failure;
}

/** Stops the workers: each is told to leave its loop and woken; later calls run on the calling thread. */
export function stopChunkWorkers<Slot extends ChunkWorker>(group: WorkerGroup<Slot>): void {
  group.close((slot) => {
    slot.port.postMessage({ stop: true });
    Atomics.add(slot.ctl, CONTROL_SEQ, 1);
    Atomics.notify(slot.ctl, CONTROL_SEQ);
    slot.port.close();
  });
}

/** The error message a worker posted for a failed chunk. */
function workerError(used: readonly ChunkWorker[]): string {
  for (const slot of used) {
    for (let m = receiveMessageOnPort(slot.port); m !== undefined; m = receiveMessageOnPort(slot.port)) {
      const error = (m.message as { error?: unknown }).error;
      if (typeof error === "string") return error;
    }
  }
  return "unknown error";
}
