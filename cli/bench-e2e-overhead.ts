/**
 * The planning and compilation overhead row of `dml bench e2e`: per block of
 * the fused runs of examples/*.dml, the milliseconds one compilation took
 * (rewrites, fusion planning, code generation: the runner's compileMs over
 * its compilations), median and max over all blocks; target median <= 50 ms.
 * The runs are the suite's own (their compilation is inside their
 * end-to-end times) and, with `otherExamples`, one fused run of every
 * example that needs no `$` parameter.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BlockTiming } from "../engine/execution";
import { median, type BenchRow } from "./bench-report";
import { runScriptTimed, type ScriptRun } from "./bench-e2e-session";
import { err } from "./output";
import { packageRoot } from "./package-root";

const MEDIAN_TARGET_MS = 50;

function parameterFreeRuns(except: ReadonlySet<string>): { name: string; run: ScriptRun }[] {
  const dir = path.join(packageRoot(), "examples");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".dml") && !except.has(f))
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      const text = readFileSync(file, "utf8");
      if (text.includes("$")) return [];
      err(`bench e2e: compile overhead, ${name} fused...`);
      return [{ name, run: runScriptTimed({ text, scriptPath: file, plan: "fused", params: {}, data: new Map() }) }];
    });
}

export function compileOverheadRow(suiteRuns: readonly { name: string; run: ScriptRun }[], otherExamples: boolean): BenchRow {
  const runs = [...suiteRuns, ...(otherExamples ? parameterFreeRuns(new Set(suiteRuns.map((r) => r.name))) : [])];
  const blocks: { name: string; block: BlockTiming }[] = runs.flatMap((r) => r.run.blocks.filter((b) => b.compilations > 0).map((block) => ({ name: r.name, block })));
  const perCompilation = blocks.map((b) => b.block.compileMs / b.block.compilations);
  const med = median(perCompilation);
  const max = Math.max(0, ...perCompilation);
  const slowest = blocks[perCompilation.indexOf(max)];
  const compileTotal = runs.reduce((t, r) => t + r.run.blocks.reduce((s, b) => s + b.compileMs, 0), 0);
  const runTotal = runs.reduce((t, r) => t + r.run.ms, 0);
  const failedRuns = runs.filter((r) => !r.run.ok);
  return {
    suite: "e2e",
    case: `planning and compilation per block (fused), ${blocks.length} blocks of ${runs.length} runs of examples/*.dml`,
    ours_ms: Math.round(med * 1000) / 1000,
    baseline: "none",
    baseline_ms: null,
    ratio: null,
    median_ms: Math.round(med * 1000) / 1000,
    max_ms: Math.round(max * 1000) / 1000,
    slowest: slowest ? `${slowest.name}:${slowest.block.range.start.line + 1}` : "none",
    compilations: blocks.reduce((t, b) => t + b.block.compilations, 0),
    compile_share_of_runs: runTotal > 0 ? Math.round((compileTotal / runTotal) * 1000) / 1000 : 0,
    scripts: runs.map((r) => r.name).join(", "),
    target: `median <= ${MEDIAN_TARGET_MS} ms`,
    target_met: med <= MEDIAN_TARGET_MS,
    ...(failedRuns.length > 0 ? { runs_with_errors: failedRuns.map((r) => `${r.name}: ${r.run.errors.join("; ")}`).join(" | ") } : {}),
  };
}
