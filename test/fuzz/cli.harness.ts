/**
 * Fuzz harness `cli`: hostile command lines of `dml check`, `dml explain`
 * and `dml run` (cases: test/fuzz/cli-cases.ts) over mutated real scripts
 * and extremes. Property of every run:
 * - it ends by itself with exit 0, 1 or 2, as documented (README, cli/main.ts);
 * - no "internal error" and no JavaScript stack trace in its output;
 * - every error line is located, `file:line:col: error: message`, and exit 1
 *   comes with at least one such line (exit 2 is a usage or unreadable-file line);
 * - within the time limit of a case and the heap limit of its process;
 *   measured: slowest run and peak RSS, each with a bound.
 * Most cases run in one long-lived child process that calls the command
 * line's `main` (cli-runner.ts); every SUBPROCESS_EVERY-th case, and the huge
 * or device cases, run as real `node dist/cli.js` subprocesses.
 * A failing mutated script is shrunk line by line (at most SHRINK_RUNS reruns;
 * none for a run that did not end, each rerun would cost the whole time limit).
 */
import fc from "fast-check";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../repo-root";
import { type CaseDescriptor, caseArbitrary, commandArgs, exampleScripts, HUGE_EXTREMES, materialize, prepareFixture } from "./cli-cases";
import { InProcessRunner, type RunOutcome, runSubprocess } from "./cli-runner";
import type { FuzzFailure, FuzzHarness, FuzzMeasure, FuzzResult, FuzzRunOptions } from "./harness";

/** Every this-many-th case also runs as a real subprocess. */
const SUBPROCESS_EVERY = 40;
/** Safety net of one run (the cases' own limits are work counts and run's --time-limit 3); huge inputs get more. A run it stops is a failure. */
const CASE_TIME_LIMIT_MS = 20_000;
const HUGE_CASE_TIME_LIMIT_MS = 120_000;
/** Bounds of the measures (wall-clock, on a machine shared with other work: generous). */
const SLOWEST_RUN_BOUND_MS = 20_000;
const SLOWEST_HUGE_RUN_BOUND_MS = 90_000;
const PEAK_RSS_BOUND_MB = 1536;
const SHRINK_RUNS = 60;
/** Reruns when the failure is a run that did not end: none (each would cost the whole time limit; the input is reported as drawn). */
const SHRINK_RUNS_STOPPED = 0;

const LOCATED_ERROR = /^.+:\d+:\d+: error: \S/;
const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;

/** What is wrong with one run's outcome, or undefined when the property holds. */
export function problemOf(args: readonly string[], outcome: RunOutcome): string | undefined {
  if (outcome.stopped) return `did not end by itself: ${outcome.stopped} after ${Math.round(outcome.ms)} ms`;
  const command = args[0];
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  if (/internal error/i.test(output)) return `internal error: ${firstLines(output)}`;
  if (STACK_FRAME.test(outcome.stderr) || (command !== "run" && STACK_FRAME.test(outcome.stdout))) return `a stack trace in the output: ${firstLines(output)}`;
  if (outcome.code !== 0 && outcome.code !== 1 && outcome.code !== 2) return `exit ${outcome.code} (documented: 0, 1, 2): ${firstLines(output)}`;
  if (command === "lsp") return outcome.code === 2 && /^dml lsp: /m.test(outcome.stderr) ? undefined : `dml lsp with a bad transport: exit ${outcome.code}, ${firstLines(output)}`;
  // Lines that report an error: in check's and explain's output, and on run's standard error (its stdout is the script's print()).
  const reporting = command === "run" ? outcome.stderr : output;
  const errorLines = reporting.split("\n").filter((line) => /\berror\b/.test(line) && !/^checked \d+ files?: /.test(line) && !/^dml \w+: /.test(line));
  const unlocated = errorLines.filter((line) => /: error: /.test(line) && !LOCATED_ERROR.test(line));
  if (unlocated.length > 0) return `an error without a location: ${unlocated[0]!.slice(0, 300)}`;
  const located = errorLines.filter((line) => LOCATED_ERROR.test(line));
  if (outcome.code === 1 && located.length === 0) return `exit 1 without a located error: ${firstLines(output)}`;
  if (outcome.code === 0 && command === "check" && located.length > 0) return `exit 0 with errors: ${located[0]!.slice(0, 300)}`;
  if (outcome.code === 2 && !/^dml \w+: /m.test(outcome.stderr)) return `exit 2 without a usage or unreadable-file line: ${firstLines(output)}`;
  return undefined;
}

function firstLines(text: string): string {
  return text.trim().split("\n").slice(0, 6).join("\n").slice(0, 800);
}

function describeCase(d: CaseDescriptor): string {
  return d.kind === "mutated" ? `mutated example #${d.example} (${d.encoding}): ${JSON.stringify(d.mutations)}` : `extreme ${d.name}`;
}

async function run(options: FuzzRunOptions): Promise<FuzzResult> {
  const cliPath = path.join(repoRoot, "dist", "cli.js");
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run `npm run build` first");
  const fixture = mkdtempSync(path.join(tmpdir(), "dml-fuzz-cli-"));
  prepareFixture(fixture, repoRoot);
  const scriptPath = path.join(fixture, "case.dml");
  const examples = exampleScripts(repoRoot);
  const descriptors = fc.sample(caseArbitrary(examples.length), { seed: options.seed, numRuns: options.cases });
  const runner = new InProcessRunner(cliPath, fixture);
  const failures: FuzzFailure[] = [];
  let cases = 0;
  let inProcess = 0;
  let subprocesses = 0;
  let slowestMs = 0;
  let slowestCase = "";
  let slowestHugeMs = 0;
  let peakRssMb = 0;
  let stoppedByDeadline = false;
  const exits = new Map<string, number>();
  const attempt = async (args: readonly string[], subprocess: boolean, limitMs = CASE_TIME_LIMIT_MS): Promise<RunOutcome> => {
    const outcome = subprocess ? runSubprocess(cliPath, args, fixture, limitMs) : await runner.run(args, limitMs);
    if (subprocess) subprocesses++;
    else inProcess++;
    return outcome;
  };
  try {
    for (const descriptor of descriptors) {
      if (Date.now() > options.deadlineMs) {
        stoppedByDeadline = true;
        break;
      }
      const materialized = materialize(descriptor, examples, fixture, scriptPath);
      const ways = materialized.subprocess ? [true] : cases % SUBPROCESS_EVERY === SUBPROCESS_EVERY - 1 ? [false, true] : [false];
      for (const subprocess of ways) {
        const huge = descriptor.kind === "extreme" && HUGE_EXTREMES.has(descriptor.name);
        const outcome = await attempt(materialized.args, subprocess, huge ? HUGE_CASE_TIME_LIMIT_MS : CASE_TIME_LIMIT_MS);
        const shownArgs = materialized.args.map((a) => a.replace(fixture, "<fixture>"));
        if (huge) slowestHugeMs = Math.max(slowestHugeMs, outcome.ms);
        else if (outcome.ms > slowestMs) {
          slowestMs = outcome.ms;
          slowestCase = `${describeCase(descriptor)}: dml ${shownArgs.join(" ")}`;
        }
        if (outcome.peakRssMb !== undefined) peakRssMb = Math.max(peakRssMb, outcome.peakRssMb);
        const exit = outcome.stopped ?? String(outcome.code);
        exits.set(exit, (exits.get(exit) ?? 0) + 1);
        const problem = problemOf(materialized.args, outcome);
        if (problem !== undefined) {
          const budget = outcome.stopped ? SHRINK_RUNS_STOPPED : SHRINK_RUNS;
          const input = descriptor.kind === "mutated" ? await shrink(materialized.text, descriptor, scriptPath, (args) => attempt(args, subprocess), budget) : materialized.text;
          failures.push({ input: input.length > 4000 ? `${input.slice(0, 4000)}\n... (${input.length} characters)` : input, problem: `${problem}\n  case: ${describeCase(descriptor)}, ${subprocess ? "subprocess" : "in-process"}: dml ${shownArgs.join(" ")}` });
        }
      }
      cases++;
      if (cases % 250 === 0) options.log(`${cases} cases, ${failures.length} failures, slowest ${Math.round(slowestMs)} ms, peak RSS ${Math.round(peakRssMb)} MB`);
    }
  } finally {
    runner.close();
    rmSync(fixture, { recursive: true, force: true });
  }
  if (slowestCase) options.log(`slowest: ${slowestCase} (${Math.round(slowestMs)} ms)`);
  const measures: FuzzMeasure[] = [
    { name: "slowest run", value: Math.round(slowestMs), unit: "ms", bound: SLOWEST_RUN_BOUND_MS },
    { name: "slowest run of a huge input (200,000 lines, a 5 MB line)", value: Math.round(slowestHugeMs), unit: "ms", bound: SLOWEST_HUGE_RUN_BOUND_MS },
    { name: "peak RSS", value: Math.round(peakRssMb), unit: "MB", bound: PEAK_RSS_BOUND_MB },
    { name: "in-process runs", value: inProcess, unit: "runs" },
    { name: "subprocess runs", value: subprocesses, unit: "runs" },
    ...[...exits].sort().map(([exit, count]): FuzzMeasure => ({ name: `exit ${exit}`, value: count, unit: "runs" })),
  ];
  return { cases, failures, measures, stoppedByDeadline };
}

/**
 * A smaller script that still breaks the property: drops chunks of lines
 * (halves, then quarters, ... down to single lines) while the failure stays.
 */
async function shrink(text: string, descriptor: CaseDescriptor & { kind: "mutated" }, scriptPath: string, attempt: (args: readonly string[]) => Promise<RunOutcome>, maxRuns: number): Promise<string> {
  const { writeFileSync } = await import("node:fs");
  const args = commandArgs(descriptor.command, scriptPath);
  const fails = async (candidate: string) => {
    writeFileSync(scriptPath, candidate);
    return problemOf(args, await attempt(args)) !== undefined;
  };
  let lines = text.split("\n");
  let runs = 0;
  for (let chunk = Math.ceil(lines.length / 2); chunk >= 1 && runs < maxRuns; chunk = chunk === 1 ? 0 : Math.ceil(chunk / 2)) {
    for (let start = 0; start < lines.length && runs < maxRuns; ) {
      const candidate = [...lines.slice(0, start), ...lines.slice(start + chunk)];
      runs++;
      if (candidate.length > 0 && (await fails(candidate.join("\n")))) lines = candidate;
      else start += chunk;
    }
  }
  return lines.join("\n");
}

export const harness: FuzzHarness = {
  name: "cli",
  title: "dml check/explain/run on mutated and extreme scripts: exit 0/1/2, located errors, no internal error, bounded time and memory",
  ciCases: 100,
  reportCases: 5000,
  run,
};
