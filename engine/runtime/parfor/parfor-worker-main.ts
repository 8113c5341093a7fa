/**
 * The program of a parfor worker thread: it waits for tasks (parfor-task.ts)
 * on its port, runs each range of iterations with its own interpreter, and
 * answers with the range's printed lines, its locals and its results.
 *
 * The loop is found again in the worker's own parse of the same text, then
 * run as a plain `for` over the range (the loop values as integer literals,
 * the statements, and so every source range, the user's), so errors point
 * where they would in the main thread. Blocks run the plan the main thread
 * runs (`runnerFor(planMode)`); a nested parfor runs sequentially here.
 * Started by the bundled entry (engine/execution/parfor-worker.ts).
 */
import { workerData, type MessagePort } from "node:worker_threads";
import { buildProgramDags, createDagContext } from "../../program";
import { type ForStatement, type NumberLiteral, type Program, type Range, type Statement, parse } from "../../syntax";
import { type BlockRunner, locate, Interpreter, type DefinedFunction, type Unit, type Value } from "../interpreter";
import { DONE, STATE, STATE_BROKEN, STATE_READY } from "./parfor-control";
import { markInsideParforWorker } from "./parfor-report";
import type { ParforReply, ParforTask, TaskUnit } from "./parfor-task";
import { fromWire, toWire } from "./parfor-values";

interface ParsedUnit {
  unit: Unit;
  program: Program;
}

export function startParforWorker(runnerFor: (planMode: string) => BlockRunner | undefined): void {
  const { control, interrupt, port } = workerData as { control: SharedArrayBuffer; interrupt: SharedArrayBuffer; port: MessagePort };
  const ctl = new Int32Array(control);
  const stop = new Int32Array(interrupt);
  markInsideParforWorker();
  process.on("exit", () => {
    Atomics.store(ctl, STATE, STATE_BROKEN);
    Atomics.notify(ctl, STATE);
    Atomics.notify(ctl, DONE);
  });
  const parsed = new Map<string, ParsedUnit>();
  const runners = new Map<string, BlockRunner | undefined>();
  const unitOf = (u: TaskUnit): ParsedUnit => {
    const key = `${u.file ?? ""}\u0000${u.text}`;
    let p = parsed.get(key);
    if (!p) {
      const program = parse(u.text).program;
      const unit: Unit = { dags: buildProgramDags(program), context: createDagContext(program), functions: new Map(), text: u.text, ...(u.file ? { file: u.file } : {}) };
      for (const f of unit.dags.programBlocks.functions) unit.functions.set(f.name, { block: f, unit });
      parsed.set(key, (p = { unit, program }));
    }
    return p;
  };
  port.on("message", (task: ParforTask) => {
    if (!runners.has(task.planMode)) runners.set(task.planMode, runnerFor(task.planMode));
    const reply = runTask(task, unitOf, runners.get(task.planMode), () => Atomics.load(stop, 0) !== 0);
    port.postMessage(reply);
    Atomics.add(ctl, DONE, 1);
    Atomics.notify(ctl, DONE);
  });
  Atomics.store(ctl, STATE, STATE_READY);
  Atomics.notify(ctl, STATE);
}

function runTask(task: ParforTask, unitOf: (u: TaskUnit) => ParsedUnit, blockRunner: BlockRunner | undefined, interrupted: () => boolean): ParforReply {
  const prints: string[] = [];
  const units = task.units.map(unitOf);
  const main = units[0]!;
  const functions = new Map<string, DefinedFunction>();
  for (const f of task.functions) {
    const defined = units[f.unit]?.unit.functions.get(f.fn);
    if (defined) functions.set(f.name, defined);
  }
  const loop = findLoop(main.program.body, task.loopStart);
  if (!loop) return { prints, locals: [], results: [], error: { message: "internal error: the parfor worker did not find the loop in its parse of the script" } };
  const env = new Map<string, Value>(task.variables.map(([name, w]) => [name, fromWire(w)]));
  const initial = new Map(env);
  const interpreter = new Interpreter(
    {
      params: new Map(task.params),
      ...(task.scriptPath ? { scriptPath: task.scriptPath } : {}),
      ...(task.workspaceRoot ? { workspaceRoot: task.workspaceRoot } : {}),
      memoryBudget: task.memoryBudget,
      print: (line) => prints.push(line),
      functions,
      shouldInterrupt: interrupted,
      ...(blockRunner ? { blockRunner } : {}),
    },
    main.unit.text,
  );
  const range = rangeProgram(main.program, loop, task);
  let error: ParforReply["error"];
  try {
    interpreter.runProgram(range, env);
  } catch (e) {
    const located = locate(e, undefined);
    error = { message: located.message, ...(located.range ? { range: located.range } : {}), ...(located.file ? { file: located.file } : {}) };
  }
  const locals: ParforReply["locals"] = [];
  for (const name of task.locals) {
    const v = env.get(name);
    if (v !== undefined && v !== initial.get(name)) locals.push([name, toWire(v)]);
  }
  const results: ParforReply["results"] = [];
  for (const name of task.results) {
    const v = env.get(name);
    if (v !== undefined) results.push([name, toWire(v)]);
  }
  return { prints, locals, results, ...(error ? { error } : {}) };
}

/** The parfor statement starting at `start`, at any depth (function bodies included). */
function findLoop(statements: readonly Statement[], start: { line: number; character: number }): ForStatement | undefined {
  for (const s of statements) {
    if (s.kind === "for" && s.parallel && s.range.start.line === start.line && s.range.start.character === start.character) return s;
    const inner =
      s.kind === "for" || s.kind === "while" || s.kind === "function"
        ? findLoop(s.body, start)
        : s.kind === "if"
          ? findLoop([...s.thenBody, ...(s.elseBody ?? [])], start)
          : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/**
 * A program that runs the range's loop: the script's functions, its other
 * statements under `if (FALSE)` (never run, but they tell the DAG builder
 * what the main thread's does: sourced namespaces, builtin constants the
 * script binds), then the loop.
 */
function rangeProgram(program: Program, loop: ForStatement, task: ParforTask): Program {
  const functions = program.body.filter((s) => s.kind === "function" || s.kind === "externalFunction");
  const others = program.body.filter((s) => s.kind !== "function" && s.kind !== "externalFunction");
  const never: Statement = { kind: "if", condition: { kind: "boolean", value: false, range: program.range }, thenBody: others, range: program.range };
  return { kind: "program", body: [...functions, never, rangeLoop(loop, task)], range: program.range };
}

/** The loop as a sequential `for` over iterations firstIndex..lastIndex, as integer literals. */
function rangeLoop(loop: ForStatement, task: ParforTask): ForStatement {
  const at = loop.iterable.range;
  const literal = (value: number): NumberLiteral => ({ kind: "number", text: String(value), value, isInteger: true, range: at });
  const from = task.from + task.firstIndex * task.by;
  const to = task.from + task.lastIndex * task.by;
  const callee = { kind: "identifier" as const, name: "seq", range: at satisfies Range };
  return { ...loop, parallel: false, options: [], iterable: { kind: "seq", callee, from: literal(from), to: literal(to), by: literal(task.by), range: at } };
}
