/**
 * Runs block optimizations on a worker thread (dist/optimizer-worker.js),
 * one at a time in order. A missing worker bundle is an error that every
 * block reports (MissingOptimizerWorkerError), never a silent switch to the
 * server's own thread (inProcessRunner is for tests and benchmarks that ask
 * for it). A worker that dies fails its pending requests and is restarted on
 * demand.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ilpExtractor } from "../../engine/extract";
import { DEFAULT_SATURATION } from "../../engine/rewrite";
import type { ServerSettings } from "./settings";
import { optimizeBlock, type BlockInput, type BlockOptimization, type SuggestOptions } from "../../engine/suggest";

export type ExtractionStrategy = "greedy" | "ilp";

/** The optimizer's options as they cross to the worker: plain data, with the extraction strategy by name. */
export interface BlockRequestOptions extends Omit<SuggestOptions, "extract"> {
  extraction?: ExtractionStrategy;
}

export type BlockRunner = (input: BlockInput, options: BlockRequestOptions) => Promise<BlockOptimization>;

/** The optimizer's options from the server's settings: the work bound, the safety net, the saving thresholds, the extraction. */
export function optimizerOptions(settings: Pick<ServerSettings, "budgetMs" | "nodeLimit" | "minSaving" | "minSavingMs" | "extraction">): BlockRequestOptions {
  return { saturation: { timeLimitMs: settings.budgetMs, nodeLimit: settings.nodeLimit }, minSaving: settings.minSaving, minSavingMs: settings.minSavingMs, extraction: settings.extraction };
}

/** The ILP's time limit is the same safety net as saturation's (per statement); when it fires, the greedy plan stands and the block says so. */
export async function suggestOptions({ extraction, ...options }: BlockRequestOptions): Promise<SuggestOptions> {
  if (extraction !== "ilp") return options;
  const timeLimitMs = options.saturation?.timeLimitMs ?? DEFAULT_SATURATION.timeLimitMs;
  return { ...options, extract: await ilpExtractor({ timeLimitMs }) };
}

/** On the calling thread, after yielding once (so queued requests go first). */
export const inProcessRunner: BlockRunner = async (input, options) => {
  await new Promise((resolve) => setImmediate(resolve));
  return optimizeBlock(input, await suggestOptions(options));
};

/**
 * Thrown for a block the worker did not answer within the watchdog's time:
 * the worker was terminated (and is restarted for the next block), so one
 * wedged block never stops the optimizer for the other blocks and documents.
 */
export class OptimizerStoppedError extends Error {
  constructor(readonly limitMs: number) {
    super(`the optimizer did not answer within ${limitMs} ms (safety net): it was stopped and restarted`);
  }
}

/** The worker's bundle is not where the server looks (e.g. it runs from sources without `npm run build`): the optimizer does not run. */
export class MissingOptimizerWorkerError extends Error {
  constructor(readonly file: string) {
    super(`the optimizer's worker bundle ${file} is missing (run \`npm run build\`): no optimization runs, and none on the language server's thread`);
  }
}

/**
 * How long the worker may take for one block before the watchdog stops it:
 * twice the optimizer's own per-block safety net plus 5 s, so it fires only
 * when a block's work ignores its own limits (a wedge).
 */
export function watchdogMs(options: BlockRequestOptions): number {
  return watchdogForSafetyNet(options.saturation?.timeLimitMs);
}

/** Twice a search's safety net (default: saturation's) plus 5 s. */
export function watchdogForSafetyNet(timeLimitMs = DEFAULT_SATURATION.timeLimitMs): number {
  return 2 * timeLimitMs + 5_000;
}

/** The optimizer's worker start beside the server's bundle (optimizer-worker-startup.ts: the worker's bundle with V8's code cache), or DML_LENS_OPTIMIZER_WORKER, for tests. */
export function optimizerWorkerFile(): string {
  return process.env.DML_LENS_OPTIMIZER_WORKER ?? path.join(__dirname, "optimizer-worker-startup.js");
}

/**
 * Blocks go to the worker one at a time, in order. A block not answered
 * within `limitMs(options)` terminates the worker and fails with
 * OptimizerStoppedError; a worker that dies fails its block; either way the
 * next block starts a fresh worker. The file can be replaced for tests
 * (`DML_LENS_OPTIMIZER_WORKER`, e.g. a worker that hangs); when it does not
 * exist, every block fails with MissingOptimizerWorkerError.
 */
export function workerRunner(file = optimizerWorkerFile(), limitMs: (options: BlockRequestOptions) => number = watchdogMs): BlockRunner {
  if (!existsSync(file)) {
    const missing = new MissingOptimizerWorkerError(file);
    return () => Promise.reject(missing);
  }
  let worker: Worker | undefined;
  let nextId = 1;
  interface Job {
    id: number;
    input: BlockInput;
    options: BlockRequestOptions;
    resolve: (r: BlockOptimization) => void;
    reject: (e: Error) => void;
  }
  const queue: Job[] = [];
  let running: { job: Job; timer: NodeJS.Timeout; worker: Worker } | undefined;
  const finish = (id: number, outcome: { result?: BlockOptimization; error?: Error }) => {
    if (!running || running.job.id !== id) return;
    const { job, timer } = running;
    clearTimeout(timer);
    running = undefined;
    if (outcome.result) job.resolve(outcome.result);
    else job.reject(outcome.error ?? new Error("the optimizer worker failed"));
    next();
  };
  const stop = (w: Worker) => {
    if (worker === w) worker = undefined;
    void w.terminate();
  };
  const start = (): Worker => {
    const w = new Worker(file);
    w.on("message", (message: { id: number; result?: BlockOptimization; error?: string }) => {
      finish(message.id, message.result ? { result: message.result } : { error: new Error(message.error ?? "the optimizer worker failed") });
    });
    const died = (error: Error) => {
      if (worker === w) worker = undefined;
      if (running?.worker === w) finish(running.job.id, { error }); // a terminated worker's exit concerns no later block
    };
    w.on("error", died);
    w.on("exit", (code) => died(new Error(`the optimizer worker exited (${code})`)));
    w.unref();
    return w;
  };
  const next = () => {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    const w = (worker ??= start());
    const limit = limitMs(job.options);
    const timer = setTimeout(() => {
      stop(w);
      finish(job.id, { error: new OptimizerStoppedError(limit) });
    }, limit);
    running = { job, timer, worker: w };
    w.postMessage({ id: job.id, input: job.input, options: job.options });
  };
  return (input, options) =>
    new Promise((resolve, reject) => {
      queue.push({ id: nextId++, input, options, resolve, reject });
      next();
    });
}
