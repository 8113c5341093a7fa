/**
 * The entry of the parfor worker threads (bundled to dist/parfor-worker.js):
 * the runtime's worker program (engine/runtime/parfor/parfor-worker-main.ts)
 * with the block runners of the plan the main thread runs, so iterations on a
 * worker run the same plans, and give the same values, as on the main thread.
 */
import { startParforWorker } from "../runtime/parfor/parfor-worker-main";
import { CompiledBlockRunner } from "./compiled-runner";
import { isPlanMode } from "./plan-mode";

startParforWorker((planMode) => (planMode !== "as-written" && isPlanMode(planMode) ? new CompiledBlockRunner(planMode) : undefined));
