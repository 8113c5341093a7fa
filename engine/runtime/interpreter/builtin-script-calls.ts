/**
 * Calls of DML-bodied builtins in a run, as SystemDS makes them
 * (FunctionCallIdentifier, DmlSyntacticValidator.loadAndParseBuiltinFunction):
 *
 * 1. a user function of that name wins (outside builtin scripts: the
 *    functions of earlier runs of the session; the program's own are called
 *    as user functions already);
 * 2. then SystemDS's builtin namespace: every function of the builtin
 *    scripts loaded so far, by its plain name, so a builtin script calls the
 *    private helpers of another (`topk_cleaning` calls `crossV` of
 *    `bandit.dml`);
 * 3. then the installation's `scripts/builtin/NAME.dml`: loaded and parsed
 *    once per run, its function chosen by the data type of the call's first
 *    argument (`m_NAME` for a matrix, `s_NAME`/`f_NAME` otherwise), all its
 *    functions joining the builtin namespace, its own `source()`s read as
 *    for any file (the installation's `scripts/` is the last place looked
 *    in, so `source("nn/layers/affine.dml")` finds SystemDS's nn library).
 *
 * SystemDS loads the scripts a builtin script calls when it parses it; here
 * they are loaded when a name is not found, which finds the same helpers.
 * A native builtin of the catalog is never taken by a script. Errors inside
 * a script name its file (the interpreter's function call does that).
 */
import path from "node:path";
import type { Program, Range, SourceStatement } from "../../syntax";
import { resolveBuiltinScript, lookupBuiltin, calledNames, needsInstallationMessage, notInInstallationMessage, type LoadedSource, type SourceFiles, type ArgumentDataType, type SystemdsInstallation } from "../../program";
import { DmlRuntimeError, fail, locate } from "./errors";
import type { DefinedFunction, Unit } from "./interpreter";
import type { Value } from "./values";

/** What the calls need from the running interpreter. */
export interface BuiltinScriptHost {
  /** The run's source files (they carry the installation). */
  files(): SourceFiles;
  installation: SystemdsInstallation | undefined;
  /** Functions of earlier runs of the session, by name. */
  userFunctions: ReadonlyMap<string, DefinedFunction>;
  /** A unit of a builtin script (its DAGs, its functions by plain name). */
  makeUnit(program: Program, text: string, file: string): Unit;
  /** Runs a `source()` statement of a unit (its functions join the unit). */
  source(unit: Unit, statement: SourceStatement): void;
  /** Calls a function: arguments, defaults, casts, body, results. */
  invoke(f: DefinedFunction, name: string, args: Value[], names: (string | undefined)[], range: Range | undefined): Value[];
  /** The file a unit was read from (the main script's path for the main unit), for messages. */
  fileOf(unit: Unit): string;
}

export class BuiltinScriptCalls {
  /** SystemDS's builtin namespace: the functions of every builtin script loaded, by plain name (the first of each name). */
  private readonly namespace = new Map<string, DefinedFunction>();
  /** The unit of each builtin script loaded, by file. */
  private readonly units = new Map<string, Unit>();
  /** Builtin scripts that loaded scripts call and that are not loaded yet (SystemDS loads them with their caller). */
  private readonly referenced = new Set<string>();

  constructor(private readonly host: BuiltinScriptHost) {}

  /** The results of calling `name` (see the header); undefined when it is no function this resolves and no DML-bodied builtin. */
  call(caller: Unit, name: string, args: Value[], names: (string | undefined)[], range: Range | undefined): Value[] | undefined {
    const user = caller.builtin ? undefined : this.host.userFunctions.get(name);
    if (user) return this.host.invoke(user, name, args, names, range);
    const known = lookupBuiltin(name);
    if (known && known.kind !== "dml") return undefined;
    const helper = this.helper(name);
    if (helper) return this.host.invoke(helper, name, args, names, range);
    const script = resolveBuiltinScript(this.host.files(), name, dataTypeOf(args[0]));
    if (!script) {
      if (known?.kind !== "dml") return undefined;
      fail(this.host.installation ? notInInstallationMessage(name, this.host.installation) : needsInstallationMessage(name), range);
    }
    if (script.kind === "problem") fail(script.message, range);
    const unit = this.load(script.loaded);
    const f = unit.functions.get(script.name) ?? fail(`builtin script ${script.file} defines no function ${script.name}`, range);
    try {
      return this.host.invoke(f, name, args, names, range);
    } catch (error) {
      throw this.calledFrom(error, caller, name, range);
    }
  }

  /**
   * An error inside a builtin script, as the user's program sees it: it
   * names the script's file and line, and the call of the user's program
   * it came from (`... (in builtin lm, called at driver.dml:3:5)`).
   */
  private calledFrom(error: unknown, caller: Unit, name: string, range: Range | undefined): DmlRuntimeError {
    const e = locate(error, undefined);
    if (caller.builtin || range === undefined || e.file === undefined || e.file === caller.file) return e;
    const at = `${path.basename(this.host.fileOf(caller))}:${range.start.line + 1}:${range.start.character + 1}`;
    return new DmlRuntimeError(`${e.message} (in builtin ${name}, called at ${at})`, e.range, e.file);
  }

  /** A function of the builtin namespace, loading the scripts that loaded ones call until it is found or none are left. */
  private helper(name: string): DefinedFunction | undefined {
    for (;;) {
      const found = this.namespace.get(name);
      if (found || this.referenced.size === 0) return found;
      const pending = [...this.referenced];
      this.referenced.clear();
      for (const script of pending) {
        const loaded = this.host.files().loadBuiltinScript(script);
        // A script that cannot be used fails when it is called, with its own message.
        if (loaded?.kind === "file" && !loaded.parsed.diagnostics.some((d) => d.severity === "error")) this.load(loaded);
      }
    }
  }

  /** The unit of a builtin script, loaded once: its functions join the builtin namespace, its `source()`s are read. */
  private load(loaded: LoadedSource & { kind: "file" }): Unit {
    const existing = this.units.get(loaded.file);
    if (existing) return existing;
    const unit = this.host.makeUnit(loaded.parsed.program, loaded.text, loaded.file);
    this.units.set(loaded.file, unit);
    for (const [name, f] of unit.functions) if (!this.namespace.has(name)) this.namespace.set(name, f);
    try {
      for (const block of unit.dags.programBlocks.main) {
        if (block.kind === "basic") for (const statement of block.statements) if (statement.kind === "source") this.host.source(unit, statement);
      }
    } catch (error) {
      const e = locate(error, undefined);
      if (e.file === undefined) e.file = loaded.file;
      throw e;
    }
    for (const called of this.calledScripts(loaded.parsed.program, unit)) this.referenced.add(called);
    return unit;
  }

  /** Builtin scripts of the installation that `program` calls by plain name and does not define, not loaded yet. */
  private calledScripts(program: Program, unit: Unit): string[] {
    const shipped = this.host.installation?.builtinScripts;
    if (!shipped) return [];
    return [...calledNames(program)].filter((name) => {
      if (!shipped.has(name) || unit.functions.has(name)) return false;
      const file = this.host.files().loadBuiltinScript(name);
      return file !== undefined && !this.units.has(file.file);
    });
  }
}

/** The data type that picks a builtin script's function (SystemDS: the first argument's). */
function dataTypeOf(value: Value | undefined): ArgumentDataType {
  return value ? value.kind : "unknown";
}
