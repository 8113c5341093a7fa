/**
 * The worker's side of an "Explain this rewrite" derivation
 * (derivation-thread.ts): runs the search and posts the derivation, or the
 * error that stopped it. Loaded only by a worker that gets a derivation.
 */
import { parentPort } from "node:worker_threads";
import { runDerivationJob } from "../../engine/suggest";
import type { DerivationMessage } from "./derivation-thread";

export function answerDerivation(message: DerivationMessage): void {
  try {
    parentPort!.postMessage({ derivation: runDerivationJob(message.derivation) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
