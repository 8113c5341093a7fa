/**
 * The optimizer's thread: the language server posts a block (its DAG, sizes
 * and the script text, structured-cloned) and gets the block's suggestions
 * back, so saturation and the runtime's verification never hold up a
 * request on the server's main thread.
 */
import { parentPort } from "node:worker_threads";
import { optimizeBlock, type BlockInput, type SuggestOptions } from "../../engine/suggest";

export interface OptimizeRequest {
  id: number;
  input: BlockInput;
  options: SuggestOptions;
}

parentPort?.on("message", (request: OptimizeRequest) => {
  try {
    parentPort!.postMessage({ id: request.id, result: optimizeBlock(request.input, request.options) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
