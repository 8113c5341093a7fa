/**
 * How the interpreter runs one basic block. The default runs the block's
 * DAG as written, node by node; a compiling runner (engine/execution) runs
 * the plan the optimizer and the fusion planner chose for it.
 */
import type { BlockDag, BasicBlock } from "../../program";
import type { EvalContext } from "./context";
import type { DeferredValue } from "./deferred-values";
import { DagEvaluator } from "./evaluate-dag";
import type { Value } from "./values";

export interface BlockRunner {
  /**
   * Runs the block in `ctx` (its `env` holds the live-in values) and returns
   * the variables it assigns. `expectedRuns`: how often the block is
   * expected to run per run of its program, as known when it first runs:
   * 1 in the main program, times the iterations of each enclosing loop (a
   * `for` loop's count, a `while` loop's expected iterations: while-bound.ts);
   * Infinity in a function's body (its calls are not counted).
   */
  run(block: BasicBlock, dag: BlockDag, ctx: EvalContext, expectedRuns?: number): Map<string, Value>;
  /**
   * The variables the last `run` assigned without computing them (only a
   * session reads them, after the run: deferred-values.ts), each with how to
   * compute it; taken once.
   */
  takeDeferred?(): ReadonlyMap<string, DeferredValue> | undefined;
}

/** Runs every block as written. */
export const asWrittenRunner: BlockRunner = {
  run: (_block, dag, ctx) => new DagEvaluator(dag, ctx).run(),
};
