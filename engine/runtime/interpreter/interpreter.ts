/**
 * Runs a parsed program over its statement-block tree: basic blocks by
 * their DAGs (evaluate-dag.ts), if/else and while conditions and for/parfor
 * bounds by predicate DAGs, user functions with defaults and multiple
 * returns. Functions of earlier programs of a session stay callable.
 *
 * A call of a DML-bodied builtin (`lm`, `[C, Y] = kmeans(...)`) that no user
 * function hides runs the SystemDS installation's `scripts/builtin/NAME.dml`
 * (builtin-script-calls.ts): loaded once per run, its function chosen by the
 * first argument's data type, every function of the file joining SystemDS's
 * builtin namespace.
 */
import { type SystemdsInstallation, builtinNames, buildPredicateDag, createDagContext, typeFromSpec, type DagContext, buildProgramDags, type ProgramDags, type DagType, type ForBlock, type FunctionBlock, type StatementBlock, SourceFiles, sourceProblemMessage } from "../../program";
import path from "node:path";
import type { Expression, Parameter, Program, Range, SourceStatement } from "../../syntax";
import { asWrittenRunner, type BlockRunner } from "./block-runner";
import { releaseOverwritten, releaseUnreferenced, withLiveEvaluator, withLiveFrame } from "./buffer-liveness";
import { expectedWhileIterations } from "./while-bound";
import { DeferredValues } from "./deferred-values";
import { withAllocationScope } from "../matrix";
import type { EvalContext } from "./context";
import { DmlRuntimeError, fail, internalError, locate } from "./errors";
import { DagEvaluator } from "./evaluate-dag";
import { MemoryMeter } from "./memory-meter";
import { BuiltinScriptCalls } from "./builtin-script-calls";
import { missingArgumentMessage, unknownArgumentMessage, unknownFunctionMessage } from "./messages";
import { num, truthy } from "./operations";
import { runParforOnWorkers } from "../parfor/parfor-runner";
import { double, int, type Value } from "./values";

export interface Unit {
  dags: ProgramDags;
  context: DagContext;
  /** The unit's functions by plain name (a sourced file's functions call each other so). */
  functions: Map<string, DefinedFunction>;
  /** The file the unit was read from, when it is not the main script (sourced files, builtin scripts). */
  file?: string;
  text: string;
  /** A builtin script of the installation: its calls resolve in SystemDS's builtin namespace, not among the user's functions. */
  builtin?: boolean;
}

export interface DefinedFunction {
  block: FunctionBlock;
  unit: Unit;
}

export interface InterpreterHost {
  params: ReadonlyMap<string, string>;
  scriptPath?: string;
  /** Second place relative reads are looked up, after the script's folder. */
  workspaceRoot?: string;
  /** The SystemDS installation whose builtin scripts and `scripts/` library calls and `source()`s resolve to. */
  installation?: SystemdsInstallation;
  memoryBudget: number;
  print(line: string): void;
  functions: Map<string, DefinedFunction>;
  /** Polled at every loop iteration and function call: true stops the run with an "interrupted" error (e.g. an editor's cancel). */
  shouldInterrupt?(): boolean;
  /** Called after each basic block with the variables it assigned and the variables they were assigned in. */
  onAssign?(outputs: ReadonlyMap<string, Value>, env: ReadonlyMap<string, Value>): void;
  /** How basic blocks run (default: as written). */
  blockRunner?: BlockRunner;
}

const MAX_CALL_DEPTH = 200;

function typeOf(v: Value): DagType {
  if (v.kind === "scalar") return { dataType: "scalar", valueType: v.type };
  if (v.kind === "matrix") return { dataType: "matrix", valueType: "double" };
  return { dataType: v.kind, valueType: "unknown" };
}

export class Interpreter {
  private depth = 0;
  /** The running program's deferred variables (in its environment only: a function call's never defers). */
  private deferred: DeferredValues | undefined;
  /** The memory budget's accounting for everything this interpreter runs. */
  private readonly memory: MemoryMeter;

  constructor(
    readonly host: InterpreterHost,
    readonly sourceText: string,
  ) {
    this.memory = new MemoryMeter(host.memoryBudget);
    this.builtins = new BuiltinScriptCalls({
      files: () => this.files,
      installation: host.installation,
      userFunctions: host.functions,
      makeUnit: (program, text, file) => makeUnit(program, text, file, true),
      source: (unit, statement) => this.source(unit, statement),
      invoke: (f, name, args, names, range) => this.invoke(f, name, args, names, range),
      fileOf: (unit) => unit.file ?? host.scriptPath ?? "script.dml",
    });
  }

  /**
   * Runs `program` in `env` (changed in place). Variables only the session
   * reads after the run may be left to compute later (deferred-values.ts):
   * into `pending` when given (its environment is `env`; the caller computes
   * them when they are read, and the next run computes those still pending
   * before it starts), else when the run ends, normally or not, so that
   * every variable then holds its last value.
   */
  runProgram(program: Program, env: Map<string, Value>, pending?: DeferredValues): void {
    const unit = makeUnit(program, this.sourceText);
    for (const [name, f] of unit.functions) this.host.functions.set(name, f);
    // What an earlier run left pending is computed first: this program's liveness does not know what the earlier one deferred.
    if (pending) this.computeDeferred(pending, env);
    const deferred = pending ?? new DeferredValues(env);
    const outer = this.deferred;
    this.deferred = deferred;
    try {
      withAllocationScope(() =>
        withLiveFrame(env, () =>
          withLiveEvaluator(deferred, () => {
            try {
              this.sequence(unit, unit.dags.programBlocks.main, env, 1);
            } finally {
              if (!pending) this.computeDeferred(deferred, env);
            }
          }),
        ),
      );
    } finally {
      this.deferred = outer;
    }
  }

  /** Computes every pending variable of `deferred` into `env`, and tells the host what was assigned. */
  private computeDeferred(deferred: DeferredValues, env: Map<string, Value>): void {
    const computed = deferred.forceAll();
    if (computed.size > 0) this.host.onAssign?.(computed, env);
  }

  private evalContext(unit: Unit, env: Map<string, Value>): EvalContext {
    const host = this.host;
    return {
      env,
      params: host.params,
      ...(host.scriptPath ? { scriptPath: host.scriptPath } : {}),
      ...(host.workspaceRoot ? { workspaceRoot: host.workspaceRoot } : {}),
      sourceText: unit.text,
      memoryBudget: host.memoryBudget,
      memory: this.memory,
      print: (line) => host.print(line),
      callUser: (name, args, names, range) => this.callUser(unit, name, args, names, range),
      callBuiltin: (name, args, names, range) => this.builtins.call(unit, name, args, names, range),
      callByName: (name, args, names) => this.callByName(unit, name, args, names),
      functionNames: () => [...unit.functions.keys(), ...host.functions.keys()],
    };
  }

  /** Runs the blocks in order; `runs`: how often they are expected to run per run of the program (BlockRunner's `expectedRuns`). */
  private sequence(unit: Unit, blocks: readonly StatementBlock[], env: Map<string, Value>, runs = Infinity): void {
    for (const block of blocks) this.block(unit, block, env, runs);
  }

  private predicate(unit: Unit, expressions: Expression[], env: Map<string, Value>): Value[] {
    const variableTypes = new Map([...env].map(([k, v]) => [k, typeOf(v)]));
    const dag = buildPredicateDag(expressions, { ...unit.context, variableTypes });
    const evaluator = new DagEvaluator(dag, this.evalContext(unit, env));
    return dag.sinks.map((s) => evaluator.node(s.node));
  }

  /** The value of one predicate expression (a condition, a default argument). */
  private predicateValue(unit: Unit, expression: Expression, env: Map<string, Value>): Value {
    const [value] = this.predicate(unit, [expression], env);
    return value ?? internalError("a predicate expression has no value");
  }

  private block(unit: Unit, block: StatementBlock, env: Map<string, Value>, runs: number): void {
    switch (block.kind) {
      case "basic": {
        const info = unit.dags.byBlock.get(block);
        for (const statement of block.statements) if (statement.kind === "source") this.source(unit, statement);
        if (!info) return;
        const deferred = this.deferred?.env === env ? this.deferred : undefined;
        if (deferred && deferred.size > 0) for (const name of info.dag.inputs.keys()) deferred.force(name);
        releaseOverwritten(info.dag, env);
        const runner = this.host.blockRunner ?? asWrittenRunner;
        const outputs = runner.run(block, info.dag, this.evalContext(unit, env), runs);
        const later = runner.takeDeferred?.();
        // A compiled plan leaves out variables no later statement reads before assigning them (dead, liveOut): they are gone, not stale.
        const dropped = [...info.dag.outputs.keys()].filter((name) => !outputs.has(name));
        const replaced = [...outputs.keys(), ...dropped].map((name) => env.get(name));
        for (const [name, value] of outputs) env.set(name, value);
        for (const name of dropped) env.delete(name);
        if (deferred) for (const name of info.dag.outputs.keys()) deferred.forget(name);
        // Values only the session reads: computed when the run ends (outside the program's own environment, now).
        for (const [name, value] of later ?? []) {
          if (deferred) deferred.defer(name, value);
          else env.set(name, value.compute());
        }
        releaseUnreferenced(replaced);
        this.host.onAssign?.(outputs, env);
        return;
      }
      case "if": {
        const taken = truthy(this.predicateValue(unit, block.statement.condition, env), "if condition");
        this.sequence(unit, taken ? block.thenBlocks : block.elseBlocks, env, runs);
        return;
      }
      case "while": {
        const bodyRuns = runs * expectedWhileIterations(block.statement, env);
        for (;;) {
          this.checkInterrupt(block.range);
          if (!truthy(this.predicateValue(unit, block.statement.condition, env), "while condition")) return;
          this.sequence(unit, block.bodyBlocks, env, bodyRuns);
        }
      }
      case "for":
      case "parfor":
        this.forLoop(unit, block, env, runs);
        return;
    }
  }

  private forLoop(unit: Unit, block: ForBlock, env: Map<string, Value>, runs: number): void {
    const it = block.statement.iterable;
    const exprs = it.kind === "seq" && it.by ? [it.from, it.to, it.by] : [it.from, it.to];
    const [fromValue, toValue, byValue] = this.predicate(unit, exprs, env);
    if (fromValue === undefined || toValue === undefined) internalError("a for loop's bounds have no value");
    const from = num(fromValue, "for bound");
    const to = num(toValue, "for bound");
    const by = byValue ? num(byValue, "for increment") : from <= to ? 1 : -1;
    // As SystemDS's ForProgramBlock: an increment of the wrong sign runs no iteration (`for (i in seq(1, d, 1))` with d = 0).
    if (by === 0) throw new DmlRuntimeError(`for: seq(${from}, ${to}, 0) has an increment of 0`, it.range);
    // The loop variable is an int when the start and the increment are (the end only bounds the count).
    const intLike = (v: Value) => v.kind === "scalar" && (v.type === "int" || Number.isInteger(num(v)));
    const integral = intLike(fromValue) && (byValue === undefined || intLike(byValue));
    const count = by === 0 ? 0 : Math.max(0, Math.floor((to - from) / by + 1e-10) + 1);
    if (block.kind === "parfor" && runParforOnWorkers({ block, unit, env, host: this.host, from, by, count, integral })) return;
    for (let k = 0; k < count; k++) {
      const x = from + k * by;
      this.checkInterrupt(block.range);
      env.set(block.variable, integral ? int(x) : double(x));
      this.sequence(unit, block.bodyBlocks, env, runs * count);
    }
  }

  /** The files this run sources and the builtin scripts it loads, each read (safely: regular UTF-8 files of bounded size) and parsed once (source-reader.ts). */
  private sourceFiles: SourceFiles | undefined;
  private get files(): SourceFiles {
    this.sourceFiles ??= new SourceFiles([this.host.workspaceRoot ?? process.cwd()], undefined, undefined, this.host.installation);
    return this.sourceFiles;
  }
  /** The DML-bodied builtins this run calls, from the installation's scripts. */
  private readonly builtins: BuiltinScriptCalls;
  /** The unit of each sourced file, and the (namespace, file) pairs loaded: a file sourced again (a diamond, a cycle) is not loaded again. */
  private readonly sourcedUnits = new Map<string, Unit>();
  private readonly sourcedAs = new Set<string>();

  /**
   * `source("file") as ns`: the file's functions become callable as `ns::f`
   * (plain names without `as`) in `unit`, and, outside builtin scripts, in
   * later runs of the session.
   */
  private source(unit: Unit, statement: SourceStatement): void {
    const base = unit.file ?? this.host.scriptPath ?? path.join(process.cwd(), "script.dml");
    const loaded = this.files.load(base, statement.path);
    if (loaded.kind !== "file") fail(sourceProblemMessage(statement.path, loaded), statement.range);
    const file = loaded.file;
    const syntax = loaded.parsed.diagnostics.find((d) => d.severity === "error");
    if (syntax) fail(`source: ${file}:${syntax.range.start.line + 1}:${syntax.range.start.character + 1}: ${syntax.message}`, statement.range);
    const prefix = statement.namespace ? `${statement.namespace.name}::` : "";
    // Each (unit, namespace, file) once: a file sourced again (a diamond, a cycle) is not loaded again.
    const key = `${this.unitId(unit)} ${prefix}${file}`;
    if (this.sourcedAs.has(key)) return;
    this.sourcedAs.add(key);
    let sourced = this.sourcedUnits.get(file);
    if (!sourced) {
      sourced = makeUnit(loaded.parsed.program, loaded.text, file, unit.builtin);
      this.sourcedUnits.set(file, sourced);
    }
    for (const [name, f] of sourced.functions) {
      if (!unit.builtin) this.host.functions.set(prefix + name, f);
      unit.functions.set(prefix + name, f);
    }
    for (const block of sourced.dags.programBlocks.main) {
      if (block.kind === "basic") for (const s of block.statements) if (s.kind === "source") this.source(sourced, s);
    }
  }

  private readonly unitIds = new Map<Unit, number>();
  private unitId(unit: Unit): number {
    let id = this.unitIds.get(unit);
    if (id === undefined) this.unitIds.set(unit, (id = this.unitIds.size));
    return id;
  }

  private checkInterrupt(range: Range | undefined): void {
    if (this.host.shouldInterrupt?.()) fail("interrupted", range);
  }

  callUser(caller: Unit, name: string, args: Value[], names: (string | undefined)[], range: Range): Value[] {
    const f = caller.functions.get(name) ?? (caller.builtin ? undefined : this.host.functions.get(name));
    if (f) return this.invoke(f, name, args, names, range);
    // `ns::lm` where the file sourced as ns has no lm: SystemDS still calls the DML-bodied builtin.
    const separator = name.indexOf("::");
    const builtin = separator >= 0 ? this.builtins.call(caller, name.slice(separator + 2), args, names, range) : undefined;
    return builtin ?? fail(unknownFunctionMessage(name, [...caller.functions.keys(), ...this.host.functions.keys(), ...builtinNames()]), range);
  }

  /**
   * `eval(name, ...)`: the function called `name` as a call written in
   * `caller` would find it (user functions, the builtin namespace, builtin
   * scripts); the error's position is the `eval` call's.
   */
  private callByName(caller: Unit, name: string, args: Value[], names: (string | undefined)[]): Value[] {
    const f = caller.functions.get(name) ?? (caller.builtin ? undefined : this.host.functions.get(name));
    if (f) return this.invoke(f, name, args, names, undefined);
    return this.builtins.call(caller, name, args, names, undefined) ?? fail(`eval: ${unknownFunctionMessage(name, [...caller.functions.keys(), ...this.host.functions.keys()])}`);
  }

  /** Runs the function `f` (called as `name`): arguments bound by position or name, defaults, scalar casts, its results. */
  private invoke(f: DefinedFunction, name: string, args: Value[], names: (string | undefined)[], range: Range | undefined): Value[] {
    if (f.block.external) fail(`external function ${name} cannot be run`, range);
    this.checkInterrupt(range);
    if (this.depth >= MAX_CALL_DEPTH) fail(`calls nested deeper than ${MAX_CALL_DEPTH} (unbounded recursion?)`, range);
    const statement = f.block.statement;
    const env = new Map<string, Value>();
    const bound = new Set<string>();
    let position = 0;
    args.forEach((value, i) => {
      const n = names[i];
      if (n !== undefined) {
        if (!f.block.params.includes(n)) fail(unknownArgumentMessage(name, n, f.block.params), range);
        env.set(n, value);
        bound.add(n);
        return;
      }
      const p = f.block.params[position++];
      if (p === undefined) fail(`function ${name} takes ${f.block.params.length} arguments, found ${args.length}`, range);
      env.set(p, value);
      bound.add(p);
    });
    for (const p of statement.params) {
      if (bound.has(p.name.name)) continue;
      if (!p.defaultValue) fail(missingArgumentMessage(name, p.name.name), range);
      env.set(p.name.name, this.predicateValue(f.unit, p.defaultValue, env));
    }
    for (const p of statement.params) env.set(p.name.name, coerce(env.get(p.name.name)!, p));
    this.depth++;
    try {
      withLiveFrame(env, () => this.sequence(f.unit, f.block.bodyBlocks, env));
    } catch (error) {
      const e = locate(error, undefined);
      if (e.file === undefined && f.unit.file !== undefined) e.file = f.unit.file;
      throw e;
    } finally {
      this.depth--;
    }
    return statement.returns.map((r) => coerce(env.get(r.name.name) ?? fail(`function ${name} did not assign its result '${r.name.name}'`, range), r));
  }
}

/** A scalar passed to (or returned from) a typed scalar parameter takes its declared value type, as SystemDS casts it. */
function coerce(v: Value, p: Parameter): Value {
  if (v.kind !== "scalar") return v;
  const t = typeFromSpec(p.type);
  if (t.dataType !== "scalar" || t.valueType === v.type) return v;
  if (t.valueType === "double" && (v.type === "int" || v.type === "boolean")) return double(num(v));
  if (t.valueType === "int" && (v.type === "double" || v.type === "boolean")) return int(num(v));
  return v;
}

function makeUnit(program: Program, text: string, file?: string, builtin?: boolean): Unit {
  // A session's variables outlive the run: every one is live at the end (blocks' liveOut, which compiled plans keep).
  const unit: Unit = { dags: buildProgramDags(program, { liveAtEnd: "everything" }), context: createDagContext(program), functions: new Map(), text, ...(file ? { file } : {}), ...(builtin ? { builtin } : {}) };
  for (const f of unit.dags.programBlocks.functions) unit.functions.set(f.name, { block: f, unit });
  return unit;
}
