/** Equality saturation of a block's e-graph with the optimizer's rules, under a budget (anytime: the graph so far is valid). */
import { runRewrites, type RunReport } from "../egraph";
import type { EGraph } from "../egraph";
import type { OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";
import { compileRules } from "./compile-rules";
import { liftingRuleSpecs, optimizerRuleSpecs, type RuleSetOptions } from "./rules";

export interface SaturationOptions extends RuleSetOptions {
  timeLimitMs?: number;
  nodeLimit?: number;
  iterationLimit?: number;
  /** SPORES's per-rule sample of matches per iteration. */
  matchSampleLimit?: number;
  seed?: number;
  shouldStop?: () => boolean;
}

export const DEFAULT_SATURATION: Required<Omit<SaturationOptions, "shouldStop" | "fused">> = {
  timeLimitMs: 200,
  nodeLimit: 20_000,
  iterationLimit: 30,
  matchSampleLimit: 400,
  seed: 1,
};

/**
 * Two phases under one budget: the lifting rules first (to convergence or a
 * third of the time), so seeded relational forms become LA plans early; then
 * every rule with the time that is left.
 */
export function saturate(egraph: EGraph<OptimizerData>, attributes: AttributeTable, options: SaturationOptions = {}): RunReport {
  const start = performance.now();
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_SATURATION.timeLimitMs;
  const common = {
    nodeLimit: options.nodeLimit ?? DEFAULT_SATURATION.nodeLimit,
    iterationLimit: options.iterationLimit ?? DEFAULT_SATURATION.iterationLimit,
    matchSampleLimit: options.matchSampleLimit ?? DEFAULT_SATURATION.matchSampleLimit,
    seed: options.seed ?? DEFAULT_SATURATION.seed,
    scheduler: "backoff" as const,
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
  };
  const lifting = runRewrites(egraph, compileRules(liftingRuleSpecs(), attributes), { ...common, timeLimitMs: timeLimitMs / 3 });
  if (lifting.stopReason === "nodeLimit" || lifting.stopReason === "cancelled") return lifting;
  const rules = compileRules(optimizerRuleSpecs(options), attributes);
  const full = runRewrites(egraph, rules, { ...common, timeLimitMs: Math.max(0, timeLimitMs - (performance.now() - start)) });
  return { ...full, iterations: [...lifting.iterations, ...full.iterations], ms: performance.now() - start };
}
