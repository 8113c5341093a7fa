/**
 * How the interpreter runs one basic block. The default runs the block's
 * DAG as written, node by node; a compiling runner (engine/execution) runs
 * the plan the optimizer and the fusion planner chose for it.
 */
import type { BlockDag, BasicBlock } from "../../program";
import type { EvalContext } from "./context";
import { DagEvaluator } from "./evaluate-dag";
import type { Value } from "./values";

export interface BlockRunner {
  /** Runs the block in `ctx` (its `env` holds the live-in values) and returns the variables it assigns. */
  run(block: BasicBlock, dag: BlockDag, ctx: EvalContext): Map<string, Value>;
}

/** Runs every block as written. */
export const asWrittenRunner: BlockRunner = {
  run: (_block, dag, ctx) => new DagEvaluator(dag, ctx).run(),
};
