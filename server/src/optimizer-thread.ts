/**
 * Runs block optimizations on a worker thread (dist/optimizer-worker.js),
 * one at a time in order; falls back to the server's own thread when the
 * worker cannot start (e.g. the bundle is missing when running from sources).
 * A worker that dies fails its pending requests and is restarted on demand.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ilpExtractor } from "../../engine/extract";
import { DEFAULT_SATURATION } from "../../engine/rewrite/saturate";
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

export function workerRunner(file = path.join(__dirname, "optimizer-worker.js")): BlockRunner {
  if (!existsSync(file)) return inProcessRunner;
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: BlockOptimization) => void; reject: (e: Error) => void }>();
  const fail = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker = undefined;
  };
  const start = (): Worker => {
    const w = new Worker(file);
    w.on("message", (message: { id: number; result?: BlockOptimization; error?: string }) => {
      const p = pending.get(message.id);
      pending.delete(message.id);
      if (!p) return;
      if (message.result) p.resolve(message.result);
      else p.reject(new Error(message.error ?? "the optimizer worker failed"));
    });
    w.on("error", (error) => fail(error));
    w.on("exit", (code) => fail(new Error(`the optimizer worker exited (${code})`)));
    w.unref();
    return w;
  };
  return (input, options) =>
    new Promise((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, input, options });
    });
}
