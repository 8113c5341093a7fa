/** A runtime session whose blocks run compiled plans of the given mode (as written: the interpreter's own runner). */
import { kernelThreads } from "../runtime/codegen";
import { createSession, type Session, type SessionOptions } from "../runtime/interpreter";
import { CompiledBlockRunner } from "./compiled-runner";
import type { OperationProfiler } from "./operation-profiler";
import { DEFAULT_PLAN_MODE, type PlanMode } from "./plan-mode";

export interface ExecutionSessionOptions extends SessionOptions {
  /** Which plan runs (default fused). */
  plan?: PlanMode;
  /** Times each operation against its estimate (operation-profiler.ts). */
  profiler?: OperationProfiler;
}

/** The session and its runner (whose `blockTimings()` say per block what ran, estimated vs measured). */
export function executionSession(options: ExecutionSessionOptions = {}): { session: Session; runner: CompiledBlockRunner } {
  const plan = options.plan ?? DEFAULT_PLAN_MODE;
  const runner = new CompiledBlockRunner(plan, options.profiler, options.deferredVariables === "read");
  // Generated kernels split large calls over the kernel threads: they start now (unref'd, in the background), while the first blocks compile, not inside the first call.
  if (plan === "fused") kernelThreads();
  return { session: createSession({ ...options, blockRunner: runner }), runner };
}

