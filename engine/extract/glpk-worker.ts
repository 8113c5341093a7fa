/**
 * GLPK in a worker thread, called synchronously with a hard time limit.
 * GLPK checks its own time limit (`tmlim`) only between steps of its
 * branch and bound: presolving and the root LP relaxation of a large model
 * run past it (a 1 s limit took 1.6 s on tensat/vgg). Here the caller waits
 * (Atomics.wait) at most the limit for the worker's answer; past it the
 * worker is terminated and a fresh one is started on the next call, so the
 * limit holds whatever GLPK does. The worker loads GLPK once and stays up
 * between calls (unref'd: it never keeps the process alive); after a
 * timeout its replacement is started by the next call, which waits for it
 * to load GLPK only within its own limit (else it falls back).
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

/** Runs in the worker (CommonJS, eval'd): loads GLPK from `workerData.specifier`, answers each solve on its own port. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ready = import(workerData.specifier).then((m) => m.default());
parentPort.on("message", async ({ lp, options, flag, port }) => {
  let reply;
  try {
    const glpk = await ready;
    reply = lp === null ? { ready: true } : { result: glpk.solve(lp, options).result };
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/** How long `loaded` waits for a new worker to load GLPK (it polls, never blocking the thread). */
const STARTUP_LIMIT_MS = 30_000;

export type WorkerSolve<R> = { result: R } | { error: string } | { timedOut: true };

/** A request sent to the worker and the port its reply comes on. */
interface Pending {
  flag: Int32Array;
  port: MessagePort;
}

export class GlpkWorker<R> {
  private worker: Worker | undefined;
  /** The load request of a worker that has not said it is ready yet. */
  private loading: Pending | undefined;

  constructor(private readonly specifier: string) {}

  /** Resolves once the worker has loaded GLPK (or failed to, or STARTUP_LIMIT_MS passed); does not block the thread. */
  async loaded(): Promise<void> {
    this.start();
    for (let waited = 0; waited < STARTUP_LIMIT_MS && this.waitLoaded(0) === "loading"; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Solves `lp` in the worker, waiting at most `limitMs` in all (loading
   * GLPK included): past it the worker is terminated.
   */
  solve(lp: unknown, options: unknown, limitMs: number): WorkerSolve<R> {
    const start = performance.now();
    this.start();
    const state = this.waitLoaded(limitMs);
    if (state === "loading") return { timedOut: true };
    if (state !== "ready") return state;
    const pending = this.send(lp, options);
    const reply = this.receive(pending, limitMs - (performance.now() - start));
    pending.port.close();
    if (reply === undefined) {
      // Its replacement starts at the next call (spawning a thread here would add to this call's time).
      this.stop();
      return { timedOut: true };
    }
    return reply as WorkerSolve<R>;
  }

  private start(): void {
    if (this.worker) return;
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { specifier: this.specifier } });
    this.worker.unref();
    this.loading = this.send(null, null);
  }

  /** Whether the worker has loaded GLPK, waiting at most `limitMs` for it. */
  private waitLoaded(limitMs: number): "ready" | "loading" | { error: string } {
    const loading = this.loading;
    if (loading === undefined) return "ready";
    const reply = this.receive(loading, limitMs) as { ready?: boolean; error?: string } | undefined;
    if (reply === undefined) return "loading";
    loading.port.close();
    this.loading = undefined;
    if (reply.ready) return "ready";
    this.stop();
    return { error: reply.error ?? "GLPK did not load" };
  }

  private send(lp: unknown, options: unknown): Pending {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    this.worker!.postMessage({ lp, options, flag, port: port2 }, [port2]);
    return { flag, port: port1 };
  }

  /** The reply to a request, or undefined when none came within `limitMs`. */
  private receive(pending: Pending, limitMs: number): unknown {
    Atomics.wait(pending.flag, 0, 0, Math.max(0, limitMs));
    return receiveMessageOnPort(pending.port)?.message;
  }

  private stop(): void {
    const worker = this.worker;
    this.loading?.port.close();
    this.worker = undefined;
    this.loading = undefined;
    if (worker) void worker.terminate();
  }
}
