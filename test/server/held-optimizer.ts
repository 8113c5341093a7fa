/**
 * An optimizer runner for in-process server tests: each block's
 * optimization is computed for real (engine/suggest, on this thread) but
 * answered only when the test releases it, so a test can deliver a change
 * while an optimization is running.
 */
import { optimizeBlock, type BlockInput, type BlockOptimization } from "../../engine/suggest";
import { suggestOptions, type BlockRequestOptions, type BlockRunner } from "../../server/src/optimizer-thread";

interface HeldRun {
  input: BlockInput;
  options: BlockRequestOptions;
  answer(result: BlockOptimization): void;
}

export class HeldOptimizer {
  /** Every block asked for so far, by the document text it came with. */
  readonly asked: string[] = [];
  private held: HeldRun[] = [];

  readonly runner: BlockRunner = (input, options) =>
    new Promise((answer) => {
      this.asked.push(input.sourceText);
      this.held.push({ input, options, answer });
    });

  /** Blocks asked for and not answered yet. */
  get waiting(): number {
    return this.held.length;
  }

  /** Optimizes the waiting blocks and answers them; how many. */
  async release(): Promise<number> {
    const runs = this.held;
    this.held = [];
    for (const run of runs) run.answer(optimizeBlock(run.input, await suggestOptions(run.options)));
    return runs.length;
  }
}
