/**
 * `dml bench redundancy`: ReMac's redundancy elimination measured.
 *
 * 1. DFP and BFGS (examples/linreg_dfp.dml, linreg_bfgs.dml) on A tall and
 *    skinny (dense) and on A wide and sparse, scaled down to this machine:
 *    the analysis gets A's sizes (as dml-lens.json "inputs" would give
 *    them), the search and choice give the chosen and aggressive plans,
 *    the plans are applied to the script's text (apply-redundancy.ts) and
 *    the original, chosen and aggressive scripts are run with our runtime
 *    (as written, reads excluded) on the same random data (the tall A
 *    ill-conditioned, so that the quasi-Newton loops run their iterations,
 *    and the choice told so: the expected iteration count is maxi); times
 *    are the median CPU time of ROUNDS runs each, interleaved with the
 *    order rotating per round (the range and the wall clock's median are
 *    shown apart). The chosen plan is compared with each other plan by the
 *    median of their ratios within a round, with more rounds of the pair
 *    when the first ones do not separate them (paired-rounds.ts). A chosen
 *    plan that applies no option is the original (same_plan_as_original),
 *    one with the aggressive plan's options is that plan
 *    (same_plan_as_aggressive): such pairs are equal, not compared. Plans
 *    the cost model estimates less than TIMING_RESOLUTION apart can only be
 *    confirmed equal (the chosen one not slower beyond it). A row
 *    fails when the chosen plan does not beat the others (or does not hoist
 *    t(A) %*% A on the tall A / does hoist it on the wide one), or when a
 *    plan's results differ from the original's; `--quick` runs tiny sizes
 *    for 3 iterations and checks only the results. The cost model's
 *    estimates and their ratios are shown next to the measured ones.
 * 2. Search and choice per script over examples/*.dml (median of timed
 *    runs after a warm-up, sizes as the examples declare them): fails past
 *    100 ms.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PlanMode } from "../engine/execution";
import { allOptions, findRedundancy, type RedundancyReport, applyRedundancy } from "../engine/redundancy";
import { createSession, type Value } from "../engine/runtime/interpreter";
import { memoryFileSystem, nodeFileSystem } from "../engine/files";
import { analyzeText } from "../engine/analysis";
import { runScriptTimed } from "./bench-e2e-session";
import { median, timeRuns, type BenchRow } from "./bench-report";
import { extendPairedRounds, judgePair, pairedComparison, pairedText, TIMING_RESOLUTION, type PairedComparison } from "./paired-rounds";
import { packageRoot } from "./package-root";

/**
 * Plans run as written: each script's text is what runs, operation by
 * operation, so the times compare the three texts (the rewriter's and fusion
 * planner's compilation would add seconds of planning per run).
 */
const BENCH_PLAN: PlanMode = "as-written";
/** Runs of each plan (interleaved); the row shows their median CPU time and its range. */
const ROUNDS = 5;

/** Search and choice per script must stay within this. */
export const SEARCH_TARGET_MS = 100;

export interface SizeSetting {
  name: string;
  rows: number;
  cols: number;
  sparsity: number;
  maxi: number;
  /** Whether the chosen plan should hoist t(A) %*% A. */
  hoists: boolean;
  /** Column j of A is scaled by j^2 (ill-conditioned, so that quasi-Newton runs its iterations instead of converging in a few). */
  illConditioned: boolean;
}

/** Scaled down from the issue's 1,000,000 x 100 and 1,000 x 100,000 at 1% (H is cols x cols and dense). */
export const REDUNDANCY_SETTINGS: readonly SizeSetting[] = [
  { name: "A tall and skinny", rows: 50_000, cols: 40, sparsity: 1, maxi: 50, hoists: true, illConditioned: true },
  { name: "A wide and sparse", rows: 100, cols: 2_000, sparsity: 0.01, maxi: 10, hoists: false, illConditioned: false },
];

const SCRIPTS = ["linreg_dfp", "linreg_bfgs"] as const;

export function runRedundancyBench(options: { quick?: boolean } = {}): BenchRow[] {
  const rows: BenchRow[] = [];
  const settings = options.quick ? REDUNDANCY_SETTINGS.map((s) => ({ ...s, rows: Math.ceil(s.rows / 20), cols: s.cols > 1000 ? 400 : s.cols, maxi: 3 })) : REDUNDANCY_SETTINGS;
  for (const setting of settings) for (const script of SCRIPTS) rows.push(planRow(script, setting, options.quick === true));
  rows.push(searchRow());
  return rows;
}

function scriptText(name: string): string {
  return readFileSync(path.join(packageRoot(), "examples", `${name}.dml`), "utf8");
}

/** The search's report on a script with the setting's sizes (as dml-lens.json "inputs" would give them), expecting the loops to run maxi times. */
export function benchReport(script: string, setting: SizeSetting): { text: string; report: RedundancyReport } {
  const text = scriptText(script);
  const inputs = { $A: { rows: setting.rows, cols: setting.cols, sparsity: setting.sparsity }, $b: { rows: setting.rows, cols: 1 } };
  const fs = memoryFileSystem({ "/bench/dml-lens.json": JSON.stringify({ inputs }) }, nodeFileSystem);
  const analysis = analyzeText(text, { scriptPath: "/bench/script.dml", workspaceRoot: "/bench", fs, parameters: new Map([["maxi", String(setting.maxi)]]) });
  // The bench's loops run their maxi iterations (the tall A is ill-conditioned, the wide one underdetermined).
  return { text, report: findRedundancy(analysis, text, { expectedIterations: setting.maxi }) };
}

/** One script on one size setting: the three plans timed and compared. */
export function planRow(script: string, setting: SizeSetting, quick: boolean): BenchRow {
  const { text, report } = benchReport(script, setting);
  const scriptPath = path.join(packageRoot(), "examples", `${script}.dml`);
  const params = { maxi: String(setting.maxi), A: "A.csv", b: "b.csv" };
  const planText = (strategy: "chosen" | "aggressive") => {
    const byId = new Map(allOptions(report).map((o) => [o.id, o]));
    const application = applyRedundancy(text, report.plans[strategy].options.flatMap((id) => byId.get(id) ?? []));
    return { text: application.text, applied: application.applied.length, refused: application.refused };
  };
  const chosen = planText("chosen");
  const aggressive = planText("aggressive");
  const data = benchData(setting);
  const failures: string[] = [];
  const run = (t: string) => {
    const cpu = process.cpuUsage();
    const result = runScriptTimed({ text: t, scriptPath, plan: BENCH_PLAN, params, data });
    const used = process.cpuUsage(cpu);
    return { ...result, cpuMs: (used.user + used.system) / 1000 };
  };
  // Rounds of one run of each plan, the order rotating per round (this machine is shared); the median per plan.
  const texts = [text, chosen.text, aggressive.text];
  const samples: ReturnType<typeof run>[][] = [[], [], []];
  const rounds = quick ? 1 : ROUNDS;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < texts.length; k++) {
      const index = (round + k) % texts.length;
      samples[index]!.push(run(texts[index]!));
    }
  }
  const [original, withChosen, withAggressive] = samples.map(medianRun) as [PlanTiming, PlanTiming, PlanTiming];
  // The chosen plan is the original (no option applied) or has the aggressive plan's options (in any order): those timings differ only by noise.
  const sameAsOriginal = chosen.text === text;
  const samePlan = [...report.plans.chosen.options].sort().join("|") === [...report.plans.aggressive.options].sort().join("|");
  // Each comparison: the rounds' paired ratios, with more rounds of the pair when the first ones do not separate the two.
  const cpuOf = (index: number) => samples[index]!.map((r) => r.cpuMs);
  const extraRun = (t: string) => () => {
    const r = run(t);
    if (!r.ok) failures.push(r.errors.join("; "));
    return r.cpuMs;
  };
  const compare = (otherIndex: number): PairedComparison => {
    const ours = cpuOf(1);
    const other = cpuOf(otherIndex);
    if (!quick) extendPairedRounds(ours, other, extraRun(chosen.text), extraRun(texts[otherIndex]!));
    return pairedComparison(ours, other);
  };
  const vsOriginal = sameAsOriginal ? undefined : compare(0);
  const vsAggressive = samePlan ? undefined : compare(2);
  const estimated = { original: report.originalCost, chosen: report.plans.chosen.cost, aggressive: report.plans.aggressive.cost };
  const estimatedRatio = { original: estimated.original / estimated.chosen, aggressive: estimated.aggressive / estimated.chosen };
  const verdictVsOriginal = vsOriginal && judgePair(estimatedRatio.original, vsOriginal);
  const verdictVsAggressive = vsAggressive && judgePair(estimatedRatio.aggressive, vsAggressive);
  const loss = (lines: readonly string[]) => Number(/loss (.*)$/.exec(lines[lines.length - 1] ?? "")?.[1]);
  const equal = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  const hoisted = hoistsGram(report);
  // CPU time of the run (this machine is shared: wall clocks wait for other processes).
  const runMs = (r: PlanTiming) => r.cpuMs;
  const problems: string[] = [];
  for (const [label, r] of [["original", original], ["chosen", withChosen], ["aggressive", withAggressive]] as const) if (!r.ok) problems.push(`${label} failed: ${r.errors.join("; ")}`);
  for (const f of failures) problems.push(`a paired run failed: ${f}`);
  if (problems.length === 0) {
    if (!equal(loss(withChosen.printed), loss(original.printed))) problems.push(`chosen loss ${loss(withChosen.printed)} != ${loss(original.printed)}`);
    if (!equal(loss(withAggressive.printed), loss(original.printed))) problems.push(`aggressive loss ${loss(withAggressive.printed)} != ${loss(original.printed)}`);
    for (const [label, verdict, paired] of [["the original", verdictVsOriginal, vsOriginal], ["the aggressive plan", verdictVsAggressive, vsAggressive]] as const) {
      if (quick || !paired || verdict === "faster" || verdict === "equal within resolution") continue;
      problems.push(`the chosen plan is ${verdict === "not faster" ? "not faster than" : `slower by more than ${TIMING_RESOLUTION * 100}% than`} ${label} (paired ratio ${pairedText(paired)})`);
    }
  }
  if (!quick && hoisted !== setting.hoists) problems.push(setting.hoists ? "the chosen plan does not hoist t(A) %*% A" : "the chosen plan hoists t(A) %*% A");
  if (chosen.refused.length > 0 || aggressive.refused.length > 0) problems.push(`options refused by apply: ${[...chosen.refused, ...aggressive.refused].map((r) => `${r.id} (${r.reason})`).join("; ")}`);
  const names = (strategy: "chosen" | "aggressive") =>
    report.plans[strategy].options
      .flatMap((id) => allOptions(report).filter((o) => o.id === id))
      .map((o) => `${o.kind} ${o.expression}`)
      .join("; ") || "none";
  return {
    suite: "redundancy",
    case: `${script}, ${setting.name} (${setting.rows} x ${setting.cols}${setting.sparsity < 1 ? ` at ${setting.sparsity * 100}%` : ""}, ${setting.maxi} iterations): chosen plan`,
    ours_ms: runMs(withChosen),
    baseline: "original script",
    baseline_ms: runMs(original),
    ratio: runMs(withChosen) > 0 ? runMs(original) / runMs(withChosen) : null,
    aggressive_ms: runMs(withAggressive),
    ratio_vs_aggressive: runMs(withChosen) > 0 ? runMs(withAggressive) / runMs(withChosen) : null,
    ...(vsOriginal ? { paired_vs_original: `${pairedText(vsOriginal)}: ${verdictVsOriginal}` } : { same_plan_as_original: true }),
    ...(vsAggressive ? { paired_vs_aggressive: `${pairedText(vsAggressive)}: ${verdictVsAggressive}` } : { same_plan_as_aggressive: true }),
    wall_ms: { original: original.ms, chosen: withChosen.ms, aggressive: withAggressive.ms },
    runs: rounds,
    cpu_ms_range: { original: original.range, chosen: withChosen.range, aggressive: withAggressive.range },
    options_found: report.options.length,
    chosen: names("chosen"),
    aggressive: names("aggressive"),
    estimated_s: estimated,
    estimated_ratio: estimatedRatio,
    search_ms: report.ms,
    ...(problems.length > 0 ? { failed: true, problems } : {}),
  };
}

interface PlanTiming {
  ok: boolean;
  errors: string[];
  printed: string[];
  /** Median CPU and wall-clock milliseconds. */
  cpuMs: number;
  ms: number;
  /** Fastest and slowest CPU milliseconds of the runs. */
  range: [number, number];
}

/** The median of a plan's runs (results of the first run; a failed run makes the plan failed). */
function medianRun(runs: readonly { ok: boolean; errors: string[]; printed: string[]; cpuMs: number; ms: number }[]): PlanTiming {
  const cpu = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
  const failed = runs.find((r) => !r.ok);
  const first = failed ?? runs[0];
  if (first === undefined) return { ok: false, errors: ["not run"], printed: [], cpuMs: 0, ms: 0, range: [0, 0] };
  return { ok: failed === undefined, errors: first.errors, printed: first.printed, cpuMs: median(cpu), ms: median(runs.map((r) => r.ms)), range: [cpu[0] ?? 0, cpu[cpu.length - 1] ?? 0] };
}

/** The chosen plan hoists `t(A) %*% A` (as an LSE option). */
function hoistsGram(report: RedundancyReport): boolean {
  return report.plans.chosen.options.some((id) => {
    const o = allOptions(report).find((x) => x.id === id);
    return o?.kind === "lse" && o.expression === "t(A) %*% A";
  });
}

/** A and b of one setting, made by the runtime (same seeds for every plan). */
function benchData(setting: SizeSetting): Map<string, Value> {
  const session = createSession({ print: () => undefined });
  const result = session.runCell(
    `A = rand(rows=${setting.rows}, cols=${setting.cols}, sparsity=${setting.sparsity}, min=-1, max=1, seed=11)${setting.illConditioned ? ` * (t(seq(1, ${setting.cols})) ^ 2)` : ""}\nb = rand(rows=${setting.rows}, cols=1, min=-1, max=1, seed=12)\n`,
  );
  if (!result.ok) throw new Error(`bench redundancy: making the data failed: ${result.errors.join("; ")}`);
  return new Map([
    ["A", session.env.get("A")!],
    ["b", session.env.get("b")!],
  ]);
}

/** Search and choice per shipped script: the slowest script's median. */
function searchRow(): BenchRow {
  const dir = path.join(packageRoot(), "examples");
  const perScript: Record<string, number> = {};
  let options = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".dml")).sort()) {
    const full = path.join(dir, file);
    const text = readFileSync(full, "utf8");
    const analysis = analyzeText(text, { scriptPath: full, workspaceRoot: packageRoot() });
    let found = 0;
    const timing = timeRuns(
      () => {
        found = findRedundancy(analysis, text).options.length;
      },
      { warmup: 1, minRuns: 5, minTotalMs: 0, maxRuns: 5 },
    );
    options += found;
    perScript[file] = Number(timing.medianMs.toFixed(2));
  }
  const slowest = Math.max(...Object.values(perScript));
  return {
    suite: "redundancy",
    case: `search and choice per script, ${Object.keys(perScript).length} scripts of examples/*.dml (slowest median)`,
    ours_ms: slowest,
    baseline: `target ${SEARCH_TARGET_MS} ms`,
    baseline_ms: SEARCH_TARGET_MS,
    ratio: slowest > 0 ? SEARCH_TARGET_MS / slowest : null,
    per_script_ms: perScript,
    options_found: options,
    ...(slowest > SEARCH_TARGET_MS ? { failed: true, problems: [`search and choice took ${slowest} ms on a script`] } : {}),
  };
}
