/**
 * Runs the search of an "Explain this rewrite" derivation off the server's
 * thread: a worker of its own (the optimizer's bundle, dist/optimizer-worker.js,
 * which answers a `derivation` message), started for the request and ended
 * after it, so a proof never holds up other requests or the optimizer's
 * queue. A watchdog (the optimizer's: twice the search's safety net plus
 * 5 s) ends a worker that does not answer and says so. Without the bundle
 * the answer says it is missing, as the optimizer's blocks do: no search
 * runs on the server's thread.
 */
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { DerivationJob, SuggestionDerivation } from "../../engine/suggest";
import { MissingOptimizerWorkerError, optimizerWorkerFile, watchdogForSafetyNet } from "./optimizer-thread";

/** The message the worker answers with the derivation. */
export interface DerivationMessage {
  derivation: DerivationJob;
}

export function derivationOffThread(job: DerivationJob, file = optimizerWorkerFile()): Promise<SuggestionDerivation> {
  const unavailable = (why: string): SuggestionDerivation => ({ verdict: "unavailable", lines: [...job.header, `  no derivation: ${why}`] });
  if (!existsSync(file)) return Promise.resolve(unavailable(new MissingOptimizerWorkerError(file).message));
  const limitMs = watchdogForSafetyNet(job.budgetMs);
  return new Promise((resolve) => {
    const worker = new Worker(file);
    let settled = false;
    const settle = (result: SuggestionDerivation) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const failed = (why: string) => settle(unavailable(why));
    const timer = setTimeout(() => failed(`the search did not answer within ${limitMs} ms (safety net): it was stopped`), limitMs);
    worker.on("message", (message: { derivation?: SuggestionDerivation; error?: string }) => (message.derivation ? settle(message.derivation) : failed(`the search failed: ${message.error ?? "no answer"}`)));
    worker.on("error", (error) => failed(`the search failed: ${error.message}`));
    worker.on("exit", (code) => failed(`the search's worker exited (${code})`));
    worker.postMessage({ derivation: job } satisfies DerivationMessage);
  });
}
