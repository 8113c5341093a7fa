/**
 * The optimizer's thread: the language server posts a block (its DAG, sizes
 * and the script text, structured-cloned) and gets the block's suggestions
 * back, so saturation and the runtime's verification never hold up a
 * request on the server's main thread. (A worker started for an "Explain
 * this rewrite" derivation answers its `derivation` message instead.)
 */
import { parentPort } from "node:worker_threads";
import { optimizeBlock, type BlockInput } from "../../engine/suggest";
import { type BlockRequestOptions, suggestOptions } from "./optimizer-thread";
import type { DerivationMessage } from "./derivation-thread";

export interface OptimizeRequest {
  id: number;
  input: BlockInput;
  options: BlockRequestOptions;
}

/**
 * Test hook of the server's watchdog (test/server/isolation-protocol.test.ts):
 * a block whose text contains this string never answers, as a wedged
 * optimizer would not. Unset outside those tests.
 */
const HANG_ON = process.env.DML_LENS_TEST_OPTIMIZER_HANG_ON;

parentPort?.on("message", async (request: OptimizeRequest | DerivationMessage) => {
  // Loaded on first use: the derivation's analysis code must not slow every optimizer worker's start.
  if ("derivation" in request) return (await import("./derivation-answer")).answerDerivation(request);
  if (HANG_ON && blockText(request).includes(HANG_ON)) for (;;);
  try {
    parentPort!.postMessage({ id: request.id, result: optimizeBlock(request.input, await suggestOptions(request.options)) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});

function blockText({ input }: OptimizeRequest): string {
  const { start, end } = input.block.range;
  return input.sourceText.split("\n").slice(start.line, end.line + 1).join("\n");
}
