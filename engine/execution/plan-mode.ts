/**
 * Which plan the runtime executes for each block:
 * - `as-written`: the block's DAG as the user wrote it, operation by operation;
 * - `rewritten`: the rewriter's extracted plan (only verified rewrites), operation by operation;
 * - `fused`: the rewritten plan with the fusion planner's operators as generated kernels (the default).
 */
export type PlanMode = "as-written" | "rewritten" | "fused";

export const PLAN_MODES: readonly PlanMode[] = ["as-written", "rewritten", "fused"];

export const DEFAULT_PLAN_MODE: PlanMode = "fused";

export function isPlanMode(text: string): text is PlanMode {
  return (PLAN_MODES as readonly string[]).includes(text);
}
