/**
 * The extension's handle on its runtime worker (dist/runtime-worker.js):
 * runs one request at a time, interrupts a run through the shared flag
 * and, when the run does not stop within a second (a long kernel call
 * between two checks), terminates the worker and starts a fresh one, so
 * Interrupt always returns control; Restart drops every session. Reports
 * its state (idle, running, interrupting) for the status bar.
 */
import { Worker } from "node:worker_threads";
import { INTERRUPT_FLAG, type RunReply, type RunRequest, type WorkerMessage } from "./runtime-protocol";

export type RuntimeState = "idle" | "running" | "interrupting";

const INTERRUPT_GRACE_MS = 1000;

export class RuntimeClient {
  private worker: Worker | undefined;
  private flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private pending: { id: number; resolve: (reply: RunReply) => void; started: number } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private stateValue: RuntimeState = "idle";
  private readonly listeners = new Set<(state: RuntimeState) => void>();

  constructor(private readonly workerFile: string) {}

  get state(): RuntimeState {
    return this.stateValue;
  }

  onState(listener: (state: RuntimeState) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Runs after the runs already queued. */
  run(request: Omit<RunRequest, "id">): Promise<RunReply> {
    const next = this.queue.then(() => this.runNow(request));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Asks the running cell to stop; after a second without a reply, restarts the worker (its sessions are lost). */
  interrupt(): void {
    const pending = this.pending;
    if (!pending) return;
    this.setState("interrupting");
    Atomics.store(this.flag, INTERRUPT_FLAG, 1);
    setTimeout(() => {
      if (this.pending !== pending) return;
      this.stopWorker();
      this.pending = undefined;
      pending.resolve({
        id: pending.id,
        ok: false,
        interrupted: true,
        output: [],
        errors: ["interrupted: the run did not stop within a second, so the runtime was restarted (its variables are gone)"],
        variables: [],
        ms: Date.now() - pending.started,
      });
      this.setState("idle");
    }, INTERRUPT_GRACE_MS);
  }

  /** A fresh runtime: every session's variables are gone. */
  restart(): void {
    const pending = this.pending;
    this.stopWorker();
    this.pending = undefined;
    pending?.resolve({ id: pending.id, ok: false, interrupted: true, output: [], errors: ["the runtime was restarted"], variables: [], ms: Date.now() - pending.started });
    this.setState("idle");
  }

  dispose(): void {
    this.stopWorker();
    this.listeners.clear();
  }

  private runNow(request: Omit<RunRequest, "id">): Promise<RunReply> {
    const worker = this.startWorker();
    const id = this.nextId++;
    return new Promise<RunReply>((resolve) => {
      this.pending = { id, resolve, started: Date.now() };
      this.setState("running");
      worker.postMessage({ kind: "run", request: { ...request, id } } satisfies WorkerMessage);
    });
  }

  private startWorker(): Worker {
    if (this.worker) return this.worker;
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(this.workerFile, { workerData: { interrupt: this.flag.buffer } });
    worker.on("message", (reply: RunReply) => {
      if (this.pending?.id !== reply.id) return;
      const { resolve } = this.pending;
      this.pending = undefined;
      this.setState("idle");
      resolve(reply);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve({ id: pending.id, ok: false, interrupted: false, output: [], errors: [`the runtime stopped: ${why}`], variables: [], ms: Date.now() - pending.started });
      this.setState("idle");
    };
    worker.on("error", (error) => lost(error.message));
    worker.on("exit", (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private setState(state: RuntimeState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    for (const listener of this.listeners) listener(state);
  }
}
