/**
 * Rewrites, differential (issue 14): random well-typed linear-algebra
 * scripts (rewrites-generator.ts) are optimized by the product's optimizer
 * with each extraction strategy (greedy tree, greedy DAG, ILP), every
 * suggestion is applied, and the product's runtime must compute the same
 * values before and after (rewrites-differential.ts, tolerance in TOLERANCE).
 * A failing case is shrunk by fast-check to a small script and reported as
 * that script. Fusion (issue 15) is not there yet: no fused plan is checked.
 */
import fc from "fast-check";
import { extractGreedyDag, extractGreedyTree, ilpExtractor } from "../../engine/extract";
import type { Extractor } from "../../engine/suggest/statement-plan";
import type { FuzzFailure, FuzzHarness, FuzzMeasure, FuzzResult, FuzzRunOptions } from "./harness";
import { differentialCheck, NON_FINITE, prepareScript, SATURATION, TOLERANCE, type Outcome } from "./rewrites-differential";
import { caseScript, rewriteCaseArbitrary, targetName, type RewriteCase } from "./rewrites-generator";

/** Generator bounds: dimensions 0..4, expressions at most 4 operators deep, 1..3 statements per script. */
const CASE_BOUNDS = { maxDim: 4, maxDepth: 4 } as const;
/** Runs of the property spent shrinking one failure (each run optimizes a script three times). */
const SHRINK_RUNS = 300;
/**
 * A single case (three optimizations and the runs) must take at most this
 * much CPU time of this process (not wall-clock time, which grows with
 * whatever else the machine runs); each optimization's own safety net is
 * 10 s of CPU time.
 */
const SLOWEST_CASE_BOUND_MS = 15_000;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

type Strategy = "greedy-tree" | "greedy-dag" | "ilp";

interface Tally {
  cases: number;
  checks: number;
  equal: number;
  unsound: number;
  suggestions: number;
  skipped: Map<string, number>;
  slowestMs: number;
  slowestScript: string;
}

/** A skip reason without its details (per category counts). */
function skipCategory(reason: string): string {
  if (reason.startsWith("the checker reports")) return "checker errors";
  if (reason.startsWith("the original fails")) return "original fails at run time";
  if (reason.startsWith("no suggestion (")) return "no suggestion, safety net fired";
  if (reason.startsWith(NON_FINITE)) return `${NON_FINITE} (not compared)`;
  return reason;
}

async function strategies(): Promise<[Strategy, Extractor][]> {
  return [
    ["greedy-tree", extractGreedyTree],
    ["greedy-dag", extractGreedyDag],
    ["ilp", await ilpExtractor({ timeLimitMs: 10_000 })],
  ];
}

/** Every given strategy on one case: their outcomes. */
function checkCase(rewriteCase: RewriteCase, extractors: readonly [Strategy, Extractor][]): { strategy: Strategy; outcome: Outcome }[] {
  const script = caseScript(rewriteCase);
  const prepared = prepareScript(script, rewriteCase.statements.map((_, k) => targetName(k)));
  if ("kind" in prepared) return extractors.map(([strategy]) => ({ strategy, outcome: prepared }));
  return extractors.map(([strategy, extract]) => ({ strategy, outcome: differentialCheck(prepared, extract) }));
}

export async function runRewriteFuzz(options: FuzzRunOptions): Promise<FuzzResult> {
  const extractors = await strategies();
  const arbitrary = rewriteCaseArbitrary(CASE_BOUNDS);
  const tally: Tally = { cases: 0, checks: 0, equal: 0, unsound: 0, suggestions: 0, skipped: new Map(), slowestMs: 0, slowestScript: "" };
  const failures: FuzzFailure[] = [];
  const started = Date.now();
  let stoppedByDeadline = false;
  let round = 0;
  while (tally.cases < options.cases && !stoppedByDeadline) {
    // One fast-check run per failure found: it stops at a failure, shrinks it, and the next round goes on with a new seed.
    let shrinkRuns = -1;
    // Shrinking runs only the strategy that failed first (a third of the work per step).
    let shrinkWith: [Strategy, Extractor][] = [];
    const property = fc.property(arbitrary, (rewriteCase) => {
      if (shrinkRuns >= 0) {
        if (++shrinkRuns > SHRINK_RUNS) return true;
        return checkCase(rewriteCase, shrinkWith).every((r) => r.outcome.kind !== "unsound");
      }
      if (Date.now() > options.deadlineMs) {
        stoppedByDeadline = true;
        return true;
      }
      const t0 = cpuMs();
      const results = checkCase(rewriteCase, extractors);
      const ms = cpuMs() - t0;
      tally.cases++;
      if (ms > tally.slowestMs) [tally.slowestMs, tally.slowestScript] = [ms, caseScript(rewriteCase)];
      for (const { outcome } of results) {
        tally.checks++;
        if (outcome.kind === "equal") {
          tally.equal++;
          tally.suggestions += outcome.suggestions;
        } else if (outcome.kind === "skipped") {
          const category = skipCategory(outcome.reason);
          tally.skipped.set(category, (tally.skipped.get(category) ?? 0) + 1);
        } else tally.unsound++;
      }
      if (tally.cases % 500 === 0) options.log(`${tally.cases} cases, ${tally.unsound} unsound, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      const failed = results.find((r) => r.outcome.kind === "unsound");
      if (failed) {
        shrinkRuns = 0;
        shrinkWith = extractors.filter(([strategy]) => strategy === failed.strategy);
      }
      return failed === undefined;
    });
    const remaining = options.cases - tally.cases;
    const details = fc.check(property, { seed: options.seed + round, numRuns: remaining, endOnFailure: false });
    round++;
    if (details.failed && details.counterexample) {
      const [shrunk] = details.counterexample;
      const script = caseScript(shrunk);
      const problems = checkCase(shrunk, extractors)
        .filter((r) => r.outcome.kind === "unsound")
        .map((r) => (r.outcome.kind === "unsound" ? `${r.strategy}: ${r.outcome.problem}; rewritten script:\n${r.outcome.rewritten}` : ""));
      failures.push({ input: script, problem: `unsound rewrite (fast-check seed ${options.seed + round - 1}, path ${details.counterexamplePath}): ${problems.join("\n") || "(not reproduced after shrinking)"}` });
    } else if (details.failed) {
      failures.push({ input: "(harness)", problem: `the property failed without a counterexample: ${String(details.errorInstance)}` });
      break;
    }
  }
  const seconds = (Date.now() - started) / 1000;
  const measures: FuzzMeasure[] = [
    { name: "unsound rewrites (cases where some strategy's rewrite computes another value)", value: tally.unsound, unit: "checks", bound: 0 },
    { name: "checks (cases x 3 strategies: greedy tree, greedy DAG, ILP)", value: tally.checks, unit: "checks" },
    { name: "checks with suggestions applied and equal", value: tally.equal, unit: "checks" },
    { name: "suggestions applied", value: tally.suggestions, unit: "suggestions" },
    ...[...tally.skipped].sort().map(([reason, count]): FuzzMeasure => ({
      name: `skipped: ${reason}`,
      value: count,
      unit: "checks",
      // A checker error or a failing original is a generator bug: the property would test nothing.
      ...(reason === "checker errors" || reason === "original fails at run time" ? { bound: 0 } : {}),
    })),
    { name: "slowest case (3 optimizations and runs), CPU time", value: Math.round(tally.slowestMs), unit: "ms", bound: SLOWEST_CASE_BOUND_MS },
    { name: "throughput (wall clock)", value: Math.round((tally.cases / Math.max(seconds, 1e-3)) * 10) / 10, unit: "cases/s" },
    { name: "saturation work bounds per optimization", value: SATURATION.nodeLimit, unit: `e-nodes, ${SATURATION.iterationLimit}+${SATURATION.liftingIterationLimit} iterations` },
    { name: "tolerance: |a-b| <= absolute + relative * max(1, largest |cell|)", value: TOLERANCE.relative, unit: `relative (absolute ${TOLERANCE.absolute})` },
  ];
  if (tally.slowestMs > SLOWEST_CASE_BOUND_MS / 2) options.log(`slowest case (${Math.round(tally.slowestMs)} ms):\n${tally.slowestScript}`);
  return { cases: tally.cases, failures, measures, stoppedByDeadline };
}

export const harness: FuzzHarness = {
  name: "rewrites",
  title:
    "Rewrites, differential: random well-typed LA scripts (dims 0-4, vectors, 1 x 1, empty, zero, sparse) optimized with greedy tree, greedy DAG and ILP extraction; original vs rewritten equal in the runtime (fused operators: test/fusion/fused-equals-unfused.test.ts)",
  ciCases: 120,
  reportCases: 10_000,
  run: runRewriteFuzz,
};
