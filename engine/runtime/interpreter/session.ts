/**
 * A session of the embedded runtime: variables and functions carried from
 * one run to the next, so a script can be run cell by cell (`# %%` lines
 * split it), and the measured dims and nnz of every assigned variable.
 */
import type { SystemdsInstallation } from "../../program";
import { parse, isolateCell, splitCells } from "../../syntax";
import { DEFAULT_MEMORY_BUDGET } from "./context";
import { DmlRuntimeError, formatRuntimeError, locate } from "./errors";
import { Interpreter, type DefinedFunction } from "./interpreter";
import type { BlockRunner } from "./block-runner";
import { DeferredValues } from "./deferred-values";
import type { Value } from "./values";

export interface SessionOptions {
  params?: ReadonlyMap<string, string> | Record<string, string>;
  /** The script's path: relative reads and writes resolve next to it; errors name it. */
  scriptPath?: string;
  /** Second place relative reads are looked up (the working directory or workspace root). */
  workspaceRoot?: string;
  /** Bytes a dense intermediate may take (default 2 GiB). */
  memoryBudget?: number;
  /** Polled at loop iterations and function calls; true stops the run with an "interrupted" error. */
  shouldInterrupt?: () => boolean;
  /** Where print() goes (default: standard output). */
  print?: (line: string) => void;
  /** How basic blocks run (default: as written; engine/execution compiles them). */
  blockRunner?: BlockRunner;
  /** The SystemDS installation whose builtin scripts and `scripts/` library calls and `source()`s resolve to. */
  installation?: SystemdsInstallation;
  /**
   * When the variables only the session reads after a run (those a
   * compiled plan defers: deferred-values.ts) are computed: "end" (default)
   * when each run ends, so that `env` then holds every variable's last
   * value; "read" when they are read: by a later run, by `settle()` or
   * `variables()` (which settle first). A caller that never looks at them
   * (`dml run` without --json, the benchmarks) never pays for them.
   */
  deferredVariables?: "end" | "read";
}

export interface VariableInfo {
  name: string;
  kind: Value["kind"];
  /** scalars: int, double, boolean, string */
  valueType?: string;
  rows?: number;
  cols?: number;
  nnz?: number;
}

export interface RunResult {
  ok: boolean;
  /** `file:line:col: error: message` lines (syntax errors or the runtime error). */
  errors: string[];
  error?: DmlRuntimeError;
}

export class Session {
  readonly env = new Map<string, Value>();
  readonly functions = new Map<string, DefinedFunction>();
  /**
   * The latest assignment of each name: its sizes, or, for an assignment in
   * this session's own variables, the value itself, whose non-zeros are
   * counted only when asked for (counting every assignment of a loop over a
   * million-row vector is a pass over it per iteration).
   */
  private readonly assigned = new Map<string, { info: VariableInfo } | { value: Value }>();
  private readonly params: ReadonlyMap<string, string>;
  /** With `deferredVariables: "read"`: the variables left to compute when read. */
  private readonly pending: DeferredValues | undefined;

  constructor(readonly options: SessionOptions = {}) {
    const p = options.params;
    this.params = p instanceof Map ? p : new Map(Object.entries((p as Record<string, string> | undefined) ?? {}));
    this.pending = options.deferredVariables === "read" ? new DeferredValues(this.env) : undefined;
  }

  /** Runs a program text (a whole script, a cell, or a script with other cells blanked) in this session. */
  runCell(text: string): RunResult {
    const file = this.options.scriptPath ?? "<cell>";
    const parsed = parse(text);
    const syntax = parsed.diagnostics.filter((d) => d.severity === "error");
    if (syntax.length > 0) {
      return { ok: false, errors: syntax.map((d) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: error: ${d.message}`) };
    }
    const interpreter = new Interpreter(
      {
        params: this.params,
        ...(this.options.scriptPath ? { scriptPath: this.options.scriptPath } : {}),
        ...(this.options.workspaceRoot ? { workspaceRoot: this.options.workspaceRoot } : {}),
        ...(this.options.installation ? { installation: this.options.installation } : {}),
        memoryBudget: this.options.memoryBudget ?? DEFAULT_MEMORY_BUDGET,
        print: this.options.print ?? ((line) => process.stdout.write(`${line}\n`)),
        functions: this.functions,
        ...(this.options.shouldInterrupt ? { shouldInterrupt: this.options.shouldInterrupt } : {}),
        ...(this.options.blockRunner ? { blockRunner: this.options.blockRunner } : {}),
        onAssign: (outputs, env) => {
          for (const [name, value] of outputs) this.assigned.set(name, env === this.env ? { value } : { info: variableInfo(name, value) });
        },
      },
      text,
    );
    try {
      interpreter.runProgram(parsed.program, this.env, this.pending);
      return { ok: true, errors: [] };
    } catch (error) {
      const e = locate(error, undefined);
      return { ok: false, errors: [formatRuntimeError(e, file)], error: e };
    }
  }

  runScript(text: string): RunResult {
    return this.runCell(text);
  }

  /** Runs cells 1..n of `text` in order (stopping at the first error). */
  runCellsThrough(text: string, n: number): RunResult {
    const cells = splitCells(text);
    if (n < 1 || n > cells.length) return { ok: false, errors: [`${this.options.scriptPath ?? "<script>"}: error: no cell ${n} (the script has ${cells.length})`] };
    for (const cell of cells.slice(0, n)) {
      const result = this.runCell(isolateCell(text, cell));
      if (!result.ok) return result;
    }
    return { ok: true, errors: [] };
  }

  /** Computes the variables left pending (`deferredVariables: "read"`) into `env`. */
  settle(): void {
    if (this.pending === undefined || this.pending.size === 0) return;
    for (const [name, value] of this.pending.forceAll()) this.assigned.set(name, { value });
  }

  /** Takes over another session's variables, functions and assignment record (a setting changed: the new session continues the old one). */
  continueFrom(other: Session): void {
    other.settle();
    for (const [name, value] of other.env) this.env.set(name, value);
    for (const [name, fn] of other.functions) this.functions.set(name, fn);
    for (const [name, latest] of other.assigned) this.assigned.set(name, latest);
  }

  /** The variables assigned so far, with the sizes of their latest values. */
  variables(): VariableInfo[] {
    this.settle();
    return [...this.assigned].map(([name, latest]) => {
      if ("info" in latest) return latest.info;
      return variableInfo(name, latest.value, { countNonZeros: this.env.get(name) === latest.value });
    });
  }
}

export function createSession(options: SessionOptions = {}): Session {
  return new Session(options);
}

/**
 * A value's kind and sizes. `countNonZeros: false` leaves a matrix's
 * non-zeros out: a value no longer held by any variable may have had its
 * buffer recycled.
 */
export function variableInfo(name: string, v: Value, options: { countNonZeros: boolean } = { countNonZeros: true }): VariableInfo {
  switch (v.kind) {
    case "scalar":
      return { name, kind: "scalar", valueType: v.type, rows: 0, cols: 0, nnz: 0 };
    case "matrix": {
      const m = v.matrix;
      return { name, kind: "matrix", rows: m.rows, cols: m.cols, ...(options.countNonZeros ? { nnz: m.nnz() } : {}) };
    }
    case "frame":
      return { name, kind: "frame", rows: v.frame.rows, cols: v.frame.columns.length };
    case "list":
      return { name, kind: "list", rows: v.items.length, cols: 1 };
  }
}
