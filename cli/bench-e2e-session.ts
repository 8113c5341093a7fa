/**
 * One timed in-process run of a DML script for the benchmarks, data read
 * excluded: the script's `NAME = read($PARAM)` statements are taken out
 * (their lines blanked, so positions stay) and their values put into the
 * session before the clock starts, either given (data made in-process) or
 * read by those statements in a session of their own. The clock covers the
 * rest of the script, in one session with the chosen plan mode: planning,
 * compilation and running of every block. Each timed run starts with an
 * empty buffer pool, as a fresh process does: otherwise the plan measured
 * second would reuse buffers the first one paid to allocate and touch.
 * The script is parsed once before the clock starts, as `dml run` checks
 * it before it runs it: the parser's one-time construction (its grammar's
 * self-analysis: 74-78 ms for the first parse in a process against 3-4 ms
 * for the next, on a 2-core machine here) is the process's start-up, like
 * numpy's import on the baseline's side, and was charged to whichever plan
 * mode a process timed first (the fused run of `--only glm_logit`; in the
 * whole suite ALS-CG's data read had built it already).
 */
import { executionSession, type BlockTiming, type PlanMode } from "../engine/execution";
import { createSession, isolateCell, splitCells, type Value } from "../engine/runtime/interpreter";
import { bufferPool } from "../engine/runtime/matrix";
import { parse } from "../engine/syntax";

/** `X = read($X)` alone on its line: the variable and the parameter. */
const READ_LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*read\(\s*\$([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*(#.*)?$/;

export interface SplitScript {
  /** The read statements, each on its own line. */
  reads: string;
  /** The script with those lines blanked. */
  rest: string;
  /** Variable -> the parameter it is read from. */
  variables: Map<string, string>;
}

/** Separates a script's `NAME = read($PARAM)` lines from the rest. */
export function splitReads(text: string): SplitScript {
  const variables = new Map<string, string>();
  const reads: string[] = [];
  const rest = text.split("\n").map((line) => {
    const m = READ_LINE.exec(line);
    if (!m) return line;
    variables.set(m[1]!, m[2]!);
    reads.push(line);
    return "";
  });
  return { reads: reads.join("\n"), rest: rest.join("\n"), variables };
}

export interface ScriptRunInput {
  text: string;
  scriptPath: string;
  plan: PlanMode;
  params: Record<string, string>;
  /** The values of the script's read variables; when omitted, its read statements run (untimed) with `params`. */
  data?: ReadonlyMap<string, Value>;
}

export interface ScriptRun {
  ok: boolean;
  /** Wall-clock milliseconds of the script without its reads (compilation included). */
  ms: number;
  printed: string[];
  /** Per block of the timed run: compilations, compileMs, measured and estimated seconds. */
  blocks: BlockTiming[];
  errors: string[];
}

/** The values a script's read statements produce (an as-written session of their own). */
export function readScriptData(text: string, scriptPath: string, params: Record<string, string>): { data: Map<string, Value>; errors: string[] } {
  const { reads } = splitReads(text);
  const session = createSession({ params, scriptPath, print: () => undefined });
  const result = session.runCell(reads);
  return { data: new Map(session.env), errors: result.errors };
}

export function runScriptTimed(input: ScriptRunInput): ScriptRun {
  const split = splitReads(input.text);
  let data = input.data;
  if (data === undefined) {
    const read = readScriptData(input.text, input.scriptPath, input.params);
    if (read.errors.length > 0) return { ok: false, ms: 0, printed: [], blocks: [], errors: read.errors };
    data = read.data;
  }
  const printed: string[] = [];
  // As `dml run` runs a script: variables only the session would read after the run are not computed.
  const { session, runner } = executionSession({ plan: input.plan, params: input.params, scriptPath: input.scriptPath, print: (line) => printed.push(line), deferredVariables: "read" });
  for (const [name, value] of data) session.env.set(name, value);
  bufferPool.clear();
  parse(split.rest);
  const start = performance.now();
  const result = session.runCell(split.rest);
  const ms = performance.now() - start;
  // The session's variables are not kept: a benchmark holding every earlier run's matrices would time later runs in a heap they fill.
  return { ok: result.ok, ms, printed, blocks: runner.blockTimings(), errors: result.errors };
}

/**
 * The values `names` hold after the script's first cell (reads excluded, in
 * an as-written session holding `data`): the initial values a baseline
 * starts from, e.g. ALS-CG's rand() factors or kmeans' sampled centroids.
 */
export function firstCellValues(input: Omit<ScriptRunInput, "plan" | "data"> & { data: ReadonlyMap<string, Value> }, names: readonly string[]): Map<string, Value> {
  const rest = splitReads(input.text).rest;
  const first = splitCells(rest)[0];
  const session = createSession({ params: input.params, scriptPath: input.scriptPath, print: () => undefined });
  for (const [name, value] of input.data) session.env.set(name, value);
  const result = first === undefined ? { ok: false, errors: ["the script has no cell"] } : session.runCell(isolateCell(rest, first));
  if (!result.ok) throw new Error(`bench e2e: the first cell of ${input.scriptPath} failed: ${result.errors.join("; ")}`);
  const values = new Map<string, Value>();
  for (const name of names) {
    const value = session.env.get(name);
    if (value === undefined) throw new Error(`bench e2e: the first cell of ${input.scriptPath} does not assign ${name}`);
    values.set(name, value);
  }
  return values;
}

/** The number each printed line ends with ("iteration 2: loss 1.5E7" -> 15000000), NaN when none. */
export function printedNumbers(lines: readonly string[]): number[] {
  return lines.map((line) => {
    const m = /(-?(?:\d+\.?\d*(?:E-?\d+)?|NaN|Infinity))\s*$/.exec(line);
    return m ? Number(m[1]) : Number.NaN;
  });
}
