/**
 * Runs a parfor's iterations on worker threads when they are independent
 * (engine/program/parfor-dependencies.ts), with the same values as the
 * sequential loop, bit for bit, whatever the number of threads:
 *
 * - the iterations are cut into one contiguous range per worker; each
 *   worker runs its range in order, in a copy of the loop's variables;
 * - results (matrices written in disjoint slices) are merged as SystemDS's
 *   result merge with compare does: every cell a range changed from the
 *   value before the loop is taken from that range (ranges in order); the
 *   merged matrix gets the format the runtime's rule picks for its values,
 *   as left indexing does;
 * - a local holds, after the loop, the value of the last range that
 *   assigned it (what the last iteration assigning it left, as after a
 *   `for`); the loop variable its last value;
 * - print() output is buffered per range and printed in iteration order;
 *   an error (stop(), a bad index, an interrupt) is the one of the first
 *   failing iteration, after the output of the iterations before it, with
 *   its source position; the variables are left as the sequential loop
 *   leaves them (the ranges up to the failing one merged, its own up to the
 *   failing iteration).
 *
 * It runs sequentially (returns false, with the reason in parfor-report.ts)
 * when the iterations are not independent, when the body has side effects
 * (write(), source(), setwd(), eval(), functions the analysis cannot see,
 * builtin scripts), when the loop is small (fewer than 2 iterations, or
 * estimated work below MIN_PARALLEL_WORK, see parfor-work.ts; `opt=NONE`
 * skips this test: as in SystemDS, the loop then runs with the given
 * settings), for `par=1`, for non-integer loop
 * values, inside another parfor's worker, with a block runner it cannot
 * recreate in a worker, or when worker threads are unavailable.
 */
import os from "node:os";
import type { ForStatement } from "../../syntax";
import { analyzeParfor, dependencyCheckOff, type ParforAnalysis, type ForBlock } from "../../program";
import { asWrittenRunner, DmlRuntimeError, type InterpreterHost, type Unit, type Value } from "../interpreter";
import { overlapReason } from "./disjoint-slices";
import { MIN_PARALLEL_WORK, parforWork } from "./parfor-work";
import { mergeResult } from "./result-merge";
import { insideParforWorker, recordParfor } from "./parfor-report";
import type { ParforReply, ParforTask, TaskFunction, TaskUnit } from "./parfor-task";
import { fromWire, toWire } from "./parfor-values";
import { locateParforWorker } from "./parfor-worker-file";
import { ParforWorkerPool } from "./parfor-worker-pool";

/** The most worker threads a parfor uses. */
const MAX_PARFOR_WORKERS = 8;

export interface ParforLoop {
  block: ForBlock;
  unit: Unit;
  env: Map<string, Value>;
  host: InterpreterHost;
  from: number;
  by: number;
  count: number;
  /** Whether the loop values are integers (the loop variable an int). */
  integral: boolean;
}

const analyses = new WeakMap<ForStatement, ParforAnalysis>();
let pool: ParforWorkerPool | string | undefined;

/** Runs the loop on worker threads and returns true, or returns false (the caller runs it sequentially). */
export function runParforOnWorkers(loop: ParforLoop): boolean {
  const { block, count } = loop;
  const analysis = analysisOf(loop);
  const plan = planOf(loop, analysis);
  if (typeof plan === "string") {
    recordParfor({ range: block.range, ...(loop.unit.file ? { file: loop.unit.file } : {}), iterations: count, workers: 0, reason: plan });
    return false;
  }
  let replies: ParforReply[];
  try {
    replies = plan.pool.run(tasksOf(loop, analysis, plan.workers, plan.planMode), loop.host.shouldInterrupt);
  } catch (e) {
    // A worker that died is not used again: later loops run sequentially.
    plan.pool.close();
    pool = e instanceof Error ? e.message : String(e);
    throw new DmlRuntimeError(`parfor: ${pool}`, block.range);
  }
  recordParfor({ range: block.range, ...(loop.unit.file ? { file: loop.unit.file } : {}), iterations: count, workers: replies.length });
  finish(loop, analysis, replies);
  return true;
}

function analysisOf(loop: ParforLoop): ParforAnalysis {
  const statement = loop.block.statement;
  let a = analyses.get(statement);
  if (!a) {
    const { unit, host } = loop;
    const functionBody = (name: string) => {
      const f = unit.functions.get(name) ?? host.functions.get(name);
      return f && f.block.statement.kind === "function" ? f.block.statement.body : undefined;
    };
    const scripts = host.installation?.builtinScripts;
    a = analyzeParfor(statement, { functionBody, ...(scripts ? { isBuiltinScript: (name: string) => scripts.has(name) } : {}) });
    analyses.set(statement, a);
  }
  return a;
}

interface Plan {
  pool: ParforWorkerPool;
  workers: number;
  planMode: string;
}

/** How the loop runs on workers, or why it runs sequentially. */
function planOf(loop: ParforLoop, analysis: ParforAnalysis): Plan | string {
  const { block, env, count, by } = loop;
  const statement = block.statement;
  const option = (name: string) => statement.options.find((o) => o.name === name)?.text.trim();
  if (insideParforWorker()) return "nested in a parfor that runs on worker threads";
  if (count < 2) return `${count} iteration${count === 1 ? "" : "s"}`;
  if (!loop.integral || !Number.isSafeInteger(loop.from + (count - 1) * by)) return "the loop values are not integers";
  const dependency = analysis.dependencies.find((d) => d.kind !== "output");
  if (dependency) return `${dependencyCheckOff(statement) ? "check=0, but " : ""}${dependencyText(dependency.kind, dependency.variable)}`;
  const effect = analysis.sideEffects[0];
  if (effect) return `the body calls ${effect.what}, which runs on the calling thread`;
  const valueOf = (name: string) => {
    const v = env.get(name);
    return v?.kind === "scalar" && (v.type === "int" || v.type === "double") ? v.value : undefined;
  };
  for (const result of analysis.results) {
    const value = env.get(result.name);
    if (value?.kind !== "matrix") return `the result '${result.name}' is not a matrix before the loop`;
    const overlap = overlapReason(result, analysis.loopVariable, by, valueOf);
    if (overlap) return overlap;
  }
  const par = option("par");
  if (par !== undefined && Number(par) <= 1) return `par=${par}`;
  const planMode = planModeOf(loop.host);
  if (planMode === undefined) return "the block runner cannot run on worker threads";
  if (option("opt")?.toUpperCase() !== "NONE") {
    const work = parforWork(analysis, statement.body, count, env);
    if (work < MIN_PARALLEL_WORK) return `small: ${count} iterations, estimated work ${work} (iterations x matrix cells x nested trips) below ${MIN_PARALLEL_WORK}`;
  }
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  if (cores < 2) return "one core";
  const started = workerPool(Math.min(cores, MAX_PARFOR_WORKERS));
  if (typeof started === "string") return started;
  const requested = par !== undefined && Number.isInteger(Number(par)) ? Number(par) : started.size;
  return { pool: started, workers: Math.max(1, Math.min(started.size, requested, count)), planMode };
}

function dependencyText(kind: string, variable: string): string {
  switch (kind) {
    case "loop-carried":
      return `loop-carried dependency on '${variable}'`;
    case "accumulator":
      return `'${variable}' accumulates over the iterations (+=)`;
    case "whole-read":
      return `an iteration reads all of '${variable}', which the iterations write parts of`;
    case "constant-index":
      return `every iteration writes the same cells of '${variable}'`;
    default:
      return `the body assigns the loop variable '${variable}'`;
  }
}

/** The plan the host's block runner runs (engine/execution's compiled runner has a `mode`), or undefined for a runner a worker cannot recreate. */
function planModeOf(host: InterpreterHost): string | undefined {
  const runner = host.blockRunner;
  if (runner === undefined || runner === asWrittenRunner) return "as-written";
  const mode = (runner as { readonly mode?: unknown }).mode;
  return mode === "as-written" || mode === "rewritten" || mode === "fused" ? mode : undefined;
}

function workerPool(size: number): ParforWorkerPool | string {
  if (pool === undefined) {
    const file = locateParforWorker();
    pool = file === undefined ? "the parfor worker (dist/parfor-worker.js) is not built: run npm run build" : ParforWorkerPool.start(file, size);
  }
  return pool;
}

function tasksOf(loop: ParforLoop, analysis: ParforAnalysis, workers: number, planMode: string): ParforTask[] {
  const { unit, host, env, count } = loop;
  const units: Unit[] = [unit];
  const indexOf = (u: Unit) => {
    let i = units.indexOf(u);
    if (i < 0) i = units.push(u) - 1;
    return i;
  };
  const functions: TaskFunction[] = [];
  for (const table of [host.functions, unit.functions]) for (const [name, f] of table) functions.push({ name, unit: indexOf(f.unit), fn: f.block.name });
  const taskUnits: TaskUnit[] = units.map((u) => ({ text: u.text, ...(u.file ? { file: u.file } : {}) }));
  const variables: ParforTask["variables"] = [];
  for (const name of analysis.names) {
    const v = env.get(name);
    if (v !== undefined) variables.push([name, toWire(v)]);
  }
  const start = loop.block.statement.range.start;
  const tasks: ParforTask[] = [];
  for (let w = 0; w < workers; w++) {
    tasks.push({
      units: taskUnits,
      functions,
      loopStart: { line: start.line, character: start.character },
      from: loop.from,
      by: loop.by,
      firstIndex: Math.floor((w * count) / workers),
      lastIndex: Math.floor(((w + 1) * count) / workers) - 1,
      variables,
      locals: [...analysis.locals, analysis.loopVariable],
      results: analysis.results.map((r) => r.name),
      params: [...host.params],
      ...(host.scriptPath ? { scriptPath: host.scriptPath } : {}),
      ...(host.workspaceRoot ? { workspaceRoot: host.workspaceRoot } : {}),
      memoryBudget: host.memoryBudget,
      planMode,
    });
  }
  return tasks;
}

/** Prints the ranges' output in order, then throws the first error, or merges results and locals into the loop's variables. */
function finish(loop: ParforLoop, analysis: ParforAnalysis, replies: readonly ParforReply[]): void {
  const { env, host } = loop;
  // The ranges up to the first failing one are what the sequential loop would have run.
  const failed = replies.findIndex((r) => r.error !== undefined);
  const ran = failed < 0 ? replies : replies.slice(0, failed + 1);
  for (const reply of ran) for (const line of reply.prints) host.print(line);
  const outputs = merged(loop, analysis, ran);
  for (const [name, value] of outputs) env.set(name, value);
  host.onAssign?.(outputs, env);
  const error = ran[ran.length - 1]!.error;
  if (error) throw new DmlRuntimeError(error.message, error.range, error.file);
}

/** The loop's locals, loop variable and results after the ranges that ran. */
function merged(loop: ParforLoop, analysis: ParforAnalysis, replies: readonly ParforReply[]): Map<string, Value> {
  const { env } = loop;
  const outputs = new Map<string, Value>();
  for (const name of [...analysis.locals, analysis.loopVariable]) {
    for (let w = replies.length - 1; w >= 0; w--) {
      const assigned = replies[w]!.locals.find(([n]) => n === name);
      if (assigned) {
        outputs.set(name, fromWire(assigned[1]));
        break;
      }
    }
  }
  for (const result of analysis.results) {
    const before = env.get(result.name)!;
    if (before.kind !== "matrix") continue;
    const ranges = replies.map((r) => r.results.find(([n]) => n === result.name)?.[1]).flatMap((w) => (w ? [fromWire(w)] : []));
    const after = mergeResult(before.matrix, ranges.flatMap((v) => (v.kind === "matrix" ? [v.matrix] : [])));
    if (after !== before.matrix) outputs.set(result.name, { kind: "matrix", matrix: after });
  }
  return outputs;
}
