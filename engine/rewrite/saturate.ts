/**
 * Equality saturation of a block's e-graph with the optimizer's rules, bounded
 * by work (iterations, e-nodes, matches applied: counts, so a slow or busy
 * machine finds what a fast one finds), with a time limit (CPU time of this
 * process) only as a safety net that the report names when it fires. Anytime: the graph so far
 * is valid whenever it stops.
 */
import { DEFAULT_TIME_SAFETY_NET_MS, processCpuMs, runRewrites, type RunReport } from "../egraph";
import type { EGraph } from "../egraph";
import type { OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";
import { compileRules } from "./compile-rules";
import { liftingRuleSpecs, optimizerRuleSpecs } from "./rules";

export interface SaturationOptions {
  /** The safety net: milliseconds of CPU time (or of `clock`) for both phases together; normally the work bounds stop saturation long before. */
  timeLimitMs?: number;
  /** The safety net's clock, ms (default: this process's CPU time). */
  clock?: () => number;
  /** Work bound: e-nodes in the graph. */
  nodeLimit?: number;
  /** Work bound: iterations of the second phase (every rule). */
  iterationLimit?: number;
  /** Work bound: iterations of the first phase (the lifting rules). */
  liftingIterationLimit?: number;
  /** Work bound: matches applied, both phases together. */
  applyLimit?: number;
  /** SPORES's per-rule sample of matches per iteration. */
  matchSampleLimit?: number;
  seed?: number;
  shouldStop?: () => boolean;
}

/**
 * The default work budget finds the README's suggestions on
 * examples/sum_product.dml (the factorized l1 and l2 sharing temporaries:
 * they need about 7,000 matches there) and proves every pair of
 * examples/simplifications. Matches applied are the bound that binds on the
 * largest example blocks (fusion_micro.dml, the linreg and l2svm loops): a
 * saturation's time is about proportional to them, and beyond 10,000 those
 * blocks found nothing more (with 200,000 they took up to 26,000 matches and
 * 4,000 e-nodes, 84,000 matches where scalar AC rules kept matching a
 * saturated graph). The 10 s (CPU time) safety net is far above what any
 * block takes.
 */
export const DEFAULT_SATURATION: Required<Omit<SaturationOptions, "shouldStop" | "clock">> = {
  timeLimitMs: DEFAULT_TIME_SAFETY_NET_MS,
  nodeLimit: 4_000,
  iterationLimit: 30,
  liftingIterationLimit: 30,
  applyLimit: 10_000,
  matchSampleLimit: 400,
  seed: 1,
};

/**
 * Two phases: the lifting rules first (to convergence or their iteration
 * bound), so seeded relational forms become LA plans early; then every rule
 * with the work that is left. The phases share the node bound, the
 * match bound and the safety net.
 */
export function saturate(egraph: EGraph<OptimizerData>, attributes: AttributeTable, options: SaturationOptions = {}): RunReport {
  const start = performance.now();
  const clock = options.clock ?? processCpuMs;
  const clockStart = clock();
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_SATURATION.timeLimitMs;
  const applyLimit = options.applyLimit ?? DEFAULT_SATURATION.applyLimit;
  const common = {
    nodeLimit: options.nodeLimit ?? DEFAULT_SATURATION.nodeLimit,
    matchSampleLimit: options.matchSampleLimit ?? DEFAULT_SATURATION.matchSampleLimit,
    seed: options.seed ?? DEFAULT_SATURATION.seed,
    scheduler: "backoff" as const,
    clock,
    ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
  };
  const lifting = runRewrites(egraph, compileRules(liftingRuleSpecs(), attributes), {
    ...common,
    iterationLimit: options.liftingIterationLimit ?? DEFAULT_SATURATION.liftingIterationLimit,
    applyLimit,
    timeLimitMs,
  });
  if (lifting.stopReason !== "saturated" && lifting.stopReason !== "iterationLimit") return lifting;
  const rules = compileRules(optimizerRuleSpecs(), attributes);
  const full = runRewrites(egraph, rules, {
    ...common,
    iterationLimit: options.iterationLimit ?? DEFAULT_SATURATION.iterationLimit,
    applyLimit: Math.max(0, applyLimit - lifting.applied),
    timeLimitMs: Math.max(0, timeLimitMs - (clock() - clockStart)),
  });
  const ms = performance.now() - start;
  const report: RunReport = { ...full, iterations: [...lifting.iterations, ...full.iterations], ms, applied: lifting.applied + full.applied };
  if (full.safetyNet) report.safetyNet = { limitMs: timeLimitMs, ms: clock() - clockStart };
  return report;
}
