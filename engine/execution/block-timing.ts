/**
 * Per block, what the cost model estimated and what running it took: the
 * data of "estimated vs measured" in the results view and of the
 * calibration feedback.
 */
import type { Range } from "../syntax";
import type { PlanMode } from "./plan-mode";

export interface BlockTiming {
  /** The block's source range (its first to last statement). */
  range: Range;
  mode: PlanMode;
  /** How often the block ran. */
  runs: number;
  /** Estimated seconds over all runs (each run's estimate is that of the plan it ran). */
  estimatedSeconds: number;
  /** Measured seconds over all runs (compilation excluded). */
  measuredSeconds: number;
  /** How often the block was compiled (1 + recompilations for new sizes), and the milliseconds it took. */
  compilations: number;
  compileMs: number;
  /** Fused operators of the last compiled plan, by template. */
  fusedOperators: number;
  /** Matches the optimizer applied over the compilations (its work in counts: the same on every machine). */
  optimizerMatches: number;
  /** Statements of the last compiled plan that run rewritten. */
  rewrites: number;
  /** Operators the planner chose that ran unfused, with why (last plan). */
  unfused: string[];
}
