/**
 * Data-readers harness: generated good and bad data files (data-reader-cases.ts)
 * are read by the runtime's reader (as `dml run` reads them), by a whole
 * run of `X = read(...)` in a session, and checked by `dml check`'s path
 * (cli/script-problems.ts). Property of every case:
 * - a valid file gives exactly the matrix written (NaN and infinities
 *   included), the run succeeds and check reports no error;
 * - a bad file gives a located message: it starts with the file the defect
 *   is in and, when the defect has a line, that line (`x.csv:3: ...`); the
 *   run fails with that message at the read() call (never "internal error");
 *   and check reports the same message at the read() call;
 * - within bounds: the slowest case and the process's resident memory
 *   growth (claims of many GB must be refused before they are allocated).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { scriptProblems } from "../../cli/script-problems";
import { DEFAULT_MEMORY_BUDGET } from "../../engine/runtime/interpreter/context";
import { MemoryMeter } from "../../engine/runtime/interpreter/memory-meter";
import { createSession } from "../../engine/runtime/interpreter/session";
import { readDataFile } from "../../engine/runtime/io/data-file-reader";
import type { MatrixData } from "../../engine/runtime/io/matrix-data";
import { dataCase, type DataCase, describeCase } from "./data-reader-cases";
import type { FuzzFailure, FuzzHarness, FuzzMeasure, FuzzResult, FuzzRunOptions } from "./harness";

/** The slowest case may take this long (a safety net: cases are a few small files). */
const MAX_CASE_MS = 5_000;
/** Resident memory may grow this much over a run (a claim of many GB allocated would pass it). */
const MAX_RSS_GROWTH_MB = 768;

interface Tally {
  cases: number;
  values: number;
  located: number;
  byKind: Map<string, number>;
  slowestMs: number;
  peakRss: number;
}

export const harness: FuzzHarness = {
  name: "data-readers",
  title: "bad data files (csv, .mtd, Matrix Market, text, claimed GB sizes, FIFOs): the right matrix or a located message from run and check alike",
  ciCases: 1_000,
  reportCases: 3_000,
  async run(options: FuzzRunOptions): Promise<FuzzResult> {
    const startRss = process.memoryUsage().rss;
    const tally: Tally = { cases: 0, values: 0, located: 0, byKind: new Map(), slowestMs: 0, peakRss: startRss };
    const root = mkdtempSync(path.join(os.tmpdir(), "dml-fuzz-data-"));
    let stoppedByDeadline = false;
    const failures: FuzzFailure[] = [];
    try {
      const details = fc.check(
        fc.property(dataCase, (c) => {
          if (Date.now() > options.deadlineMs) {
            stoppedByDeadline = true;
            return true;
          }
          const problem = runCase(c, root, tally);
          if (problem) throw new CaseFailure(problem.text, problem.input);
          return true;
        }),
        { seed: options.seed, numRuns: options.cases, endOnFailure: false },
      );
      if (details.failed) {
        const error = details.errorInstance;
        if (error instanceof CaseFailure) failures.push({ input: error.input, problem: error.message });
        else failures.push({ input: JSON.stringify(details.counterexample), problem: String(error) });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const measures: FuzzMeasure[] = [
      { name: "cases read to the right value", value: tally.values, unit: "cases" },
      { name: "cases with a located message", value: tally.located, unit: "cases" },
      { name: "slowest case", value: tally.slowestMs, unit: "ms", bound: MAX_CASE_MS },
      { name: "resident memory growth", value: Math.round((tally.peakRss - startRss) / 2 ** 20), unit: "MiB", bound: MAX_RSS_GROWTH_MB },
      ...[...tally.byKind].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => ({ name: `kind ${kind}`, value: n, unit: "cases" })),
    ];
    options.log(`data-readers: ${tally.cases} case runs, ${tally.values} values, ${tally.located} located messages`);
    return { cases: tally.cases, failures, measures, stoppedByDeadline };
  },
};

class CaseFailure extends Error {
  constructor(
    message: string,
    readonly input: string,
  ) {
    super(message);
  }
}

let caseNumber = 0;

/** Runs one case; undefined when the property holds, else what broke it. */
function runCase(c: DataCase, root: string, tally: Tally): { text: string; input: string } | undefined {
  const dir = path.join(root, `case-${caseNumber++}`);
  mkdirSync(dir);
  const script = `X = ${c.call}\nprint(nrow(X))\n`;
  const scriptPath = path.join(dir, "script.dml");
  const input = describeCase(c, script);
  const started = Date.now();
  try {
    writeFiles(dir, c);
    writeFileSync(scriptPath, script);
    const problem = checkCase(c, dir, script, scriptPath, tally);
    return problem === undefined ? undefined : { text: `${c.kind}: ${problem}`, input };
  } catch (error) {
    return { text: `${c.kind}: threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, input };
  } finally {
    tally.cases++;
    tally.byKind.set(c.kind, (tally.byKind.get(c.kind) ?? 0) + 1);
    tally.slowestMs = Math.max(tally.slowestMs, Date.now() - started);
    tally.peakRss = Math.max(tally.peakRss, process.memoryUsage().rss);
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeFiles(dir: string, c: DataCase): void {
  for (const [name, content] of Object.entries(c.files)) {
    const file = path.join(dir, name);
    if (typeof content === "string") writeFileSync(file, content);
    else if ("fifo" in content) execFileSync("mkfifo", [file]);
    else mkdirSync(file);
  }
}

function checkCase(c: DataCase, dir: string, script: string, scriptPath: string, tally: Tally): string | undefined {
  const memoryRefusal = (bytes: number) => new MemoryMeter(DEFAULT_MEMORY_BUDGET).refusal(bytes, 0);
  const read = readDataFile(c.file, { scriptPath, workspaceRoot: dir, params: c.params, memoryRefusal });
  const session = createSession({ scriptPath, workspaceRoot: dir, print: () => {} });
  const run = session.runScript(script);
  const check = scriptProblems(script, { file: scriptPath, parameters: new Map(), invocation: true, willRun: true });
  const checkErrors = check.diagnostics.filter((d) => d.severity === "error");
  const internal = [...run.errors, ...checkErrors.map((d) => d.message)].find((m) => /internal error/.test(m));
  if (internal) return `internal error: ${internal}`;

  if (c.expected.ok) {
    if (!read.ok) return `expected a ${c.expected.rows} x ${c.expected.cols} matrix, the reader says: ${read.error.message}`;
    if (read.value.value.kind !== "matrix") return `expected a matrix, read a ${read.value.value.kind}`;
    const wrong = compareValues(read.value.value.data, c.expected);
    if (wrong) return wrong;
    if (!run.ok) return `the reader reads it, but the run fails: ${run.errors.join("; ")}`;
    if (checkErrors.length > 0) return `the run succeeds, but check reports: ${checkErrors.map((d) => d.message).join("; ")}`;
    tally.values++;
    return undefined;
  }

  if (read.ok) return `expected an error in ${c.expected.file}${c.expected.line ? `:${c.expected.line}` : ""}, but the reader read a value`;
  const message = read.error.message;
  const place = new RegExp(`^${escape(c.expected.file)}${c.expected.line !== undefined ? `:${c.expected.line}(:\\d+)?` : "(:\\d+(:\\d+)?)?"}: \\S`);
  if (!place.test(message)) return `the message is not located at ${c.expected.file}${c.expected.line !== undefined ? `:${c.expected.line}` : ""}: ${message}`;
  const runError = `${scriptPath}:1:5: error: ${message}`;
  if (run.ok || run.errors.length !== 1 || run.errors[0] !== runError) return `the run should fail at the read() call with '${runError}', it gives: ${run.ok ? "success" : run.errors.join("; ")}`;
  const atRead = checkErrors.filter((d) => d.range.start.line === 0 && d.range.start.character === 4);
  if (!atRead.some((d) => d.message === message)) {
    return `the run fails with '${message}', but check says ${checkErrors.length === 0 ? "0 errors" : checkErrors.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`).join("; ")}`;
  }
  tally.located++;
  return undefined;
}

function compareValues(data: MatrixData, expected: { rows: number; cols: number; values: number[] }): string | undefined {
  if (data.rows !== expected.rows || data.cols !== expected.cols) return `read a ${data.rows} x ${data.cols} matrix, expected ${expected.rows} x ${expected.cols}`;
  const cells = new Array<number>(data.rows * data.cols).fill(0);
  if (data.format === "dense") for (let k = 0; k < cells.length; k++) cells[k] = data.values[k]!;
  else {
    for (let i = 0; i < data.rows; i++) for (let p = data.rowPtr[i]!; p < data.rowPtr[i + 1]!; p++) cells[i * data.cols + data.colIdx[p]!] = data.values[p]!;
  }
  for (let k = 0; k < cells.length; k++) {
    const a = cells[k]!;
    const b = expected.values[k]!;
    if (!(a === b || (Number.isNaN(a) && Number.isNaN(b)))) return `cell (${Math.floor(k / data.cols) + 1}, ${(k % data.cols) + 1}) is ${a}, expected ${b}`;
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
