/**
 * The optimizer's thread: the language server posts a block (its DAG, sizes
 * and the script text, structured-cloned) and gets the block's suggestions
 * back, so saturation and the runtime's verification never hold up a
 * request on the server's main thread.
 */
import { parentPort } from "node:worker_threads";
import { optimizeBlock, type BlockInput } from "../../engine/suggest";
import { type BlockRequestOptions, suggestOptions } from "./optimizer-thread";

export interface OptimizeRequest {
  id: number;
  input: BlockInput;
  options: BlockRequestOptions;
}

parentPort?.on("message", async (request: OptimizeRequest) => {
  try {
    parentPort!.postMessage({ id: request.id, result: optimizeBlock(request.input, await suggestOptions(request.options)) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
