/**
 * The execution stage: the runtime runs each block's optimized plan (the
 * rewriter's verified plan and the fusion planner's operators as generated
 * kernels), compiled once per block and live-in sizes.
 */
export { CompiledBlockRunner } from "./compiled-runner";
export { compileBlock, matchLimit, MATCHES_PER_ESTIMATED_MS, FIRST_REWRITE_MATCHES, MATCHES_PER_ESTIMATED_MS_BEYOND_FIRST, type CompiledBlock, type CompileInput } from "./compile-block";
export type { BlockTiming } from "./block-timing";
export { DEFAULT_PLAN_MODE, isPlanMode, PLAN_MODES, type PlanMode } from "./plan-mode";
export { executionSession, type ExecutionSessionOptions } from "./execution-session";
export { OperationProfiler, observationsOf, MIN_OBSERVED_SECONDS, type BlockOperations, type ProfilerOptions } from "./operation-profiler";
export { operationLine, operationRatio, type OperationTiming } from "./operation-timing";
export { blockRatio, blockReports, OPERATIONS_LISTED, type BlockReport } from "./block-report";
export { snapshotTimings, timingsSince, type TimingSnapshot } from "./timings-since";
export { machineProfiler, recordRunObservations, refreshFromMachineFile } from "./machine-profiler";
export { redundancyRun, userBlockReports, userErrorLine, userLine, type RedundancyRun, type RedundancyRunOptions } from "./redundancy-run";
export { startBundle, type BundleStartOptions } from "./bundle-start";
