/** Public surface of the generic e-graph (it knows nothing of matrices). */
export type { Analysis, ClassId, EClassView, EGraphApi, EGraphView, ENode, ExplanationStep, FlatExplanationStep, Justification, MergeResult, Term } from "./types";
export { ANALYSIS_REPAIR_BASE, ANALYSIS_REPAIRS_PER_NODE, EGraph, type EGraphOptions } from "./egraph";
export { InvariantError } from "./invariants";
export { sameValue } from "./same-value";
export { matchClass, parsePattern, parseTerm, printTerm, searchPattern, MatchList, Subst, type Pattern, type PatternNode } from "./pattern";
export { applierVariableIndex, birewrite, compileInstantiate, rewrite, type Condition, type CustomApplier, type Rewrite } from "./rewrite";
export { DEFAULT_TIME_SAFETY_NET_MS, processCpuMs, runRewrites, schedulerOf, type IterationReport, type RunOptions, type RunReport, type StopReason } from "./runner";
export { simpleScheduler, type RuleSearch, type Scheduler } from "./scheduler";
export { BackoffScheduler, backoffScheduler, type BackoffOptions } from "./backoff-scheduler";
export { SamplingScheduler, samplingScheduler, seededRandom, type SamplingOptions } from "./sampling-scheduler";
export { printEGraph } from "./print";
export type { FlatExplainOptions, Projection } from "./explain";
