/** Equality saturation of a block's e-graph with the optimizer's rules, under a budget (anytime: the graph so far is valid). */
import { runRewrites, type RunReport } from "../egraph";
import type { EGraph } from "../egraph";
import type { OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";
import { compileRules } from "./compile-rules";
import { optimizerRuleSpecs, type RuleSetOptions } from "./rules";

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

export function saturate(egraph: EGraph<OptimizerData>, attributes: AttributeTable, options: SaturationOptions = {}): RunReport {
  const rules = compileRules(optimizerRuleSpecs(options), attributes);
  return runRewrites(egraph, rules, {
    timeLimitMs: options.timeLimitMs ?? DEFAULT_SATURATION.timeLimitMs,
    nodeLimit: options.nodeLimit ?? DEFAULT_SATURATION.nodeLimit,
    iterationLimit: options.iterationLimit ?? DEFAULT_SATURATION.iterationLimit,
    matchSampleLimit: options.matchSampleLimit ?? DEFAULT_SATURATION.matchSampleLimit,
    seed: options.seed ?? DEFAULT_SATURATION.seed,
    scheduler: "backoff",
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
  });
}
