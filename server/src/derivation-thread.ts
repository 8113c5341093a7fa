/**
 * Runs the search of an "Explain this rewrite" derivation off the server's
 * thread: a worker of its own (the optimizer's bundle, dist/optimizer-worker.js,
 * which answers a `derivation` message), started for the request and ended
 * after it, so a proof never holds up other requests or the optimizer's
 * queue. A watchdog (twice the search's safety net plus 5 s) ends a worker
 * that does not answer and says so. Without the bundle (running from
 * sources) the search runs on the calling thread.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { DEFAULT_SATURATION } from "../../engine/rewrite";
import { runDerivationJob, type DerivationJob, type SuggestionDerivation } from "../../engine/suggest";

/** The message the worker answers with the derivation. */
export interface DerivationMessage {
  derivation: DerivationJob;
}

export function derivationOffThread(job: DerivationJob, file = process.env.DML_LENS_OPTIMIZER_WORKER ?? path.join(__dirname, "optimizer-worker.js")): Promise<SuggestionDerivation> {
  if (!existsSync(file)) return new Promise((resolve) => setImmediate(() => resolve(runDerivationJob(job))));
  const limitMs = 2 * (job.budgetMs ?? DEFAULT_SATURATION.timeLimitMs) + 5_000;
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
    const failed = (why: string) => settle({ verdict: "unavailable", lines: [...job.header, `  no derivation: ${why}`] });
    const timer = setTimeout(() => failed(`the search did not answer within ${limitMs} ms (safety net): it was stopped`), limitMs);
    worker.on("message", (message: { derivation?: SuggestionDerivation; error?: string }) => (message.derivation ? settle(message.derivation) : failed(`the search failed: ${message.error ?? "no answer"}`)));
    worker.on("error", (error) => failed(`the search failed: ${error.message}`));
    worker.on("exit", (code) => failed(`the search's worker exited (${code})`));
    worker.postMessage({ derivation: job } satisfies DerivationMessage);
  });
}
