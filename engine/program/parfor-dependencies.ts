/**
 * The loop dependency analysis of a `parfor`, after SystemDS's
 * ParForStatementBlock: may its iterations run independently, in any order,
 * on separate threads?
 *
 * Every variable the body writes (the loop variable aside) falls in one class:
 * - local: never read before the iteration itself certainly assigned it, so
 *   each iteration has its own (after the loop it holds the last iteration's
 *   value, as after a `for`);
 * - result: a matrix written only through indexes (`R[i, ] = ...`) and read
 *   only through indexes or nrow/ncol; the iterations are independent when
 *   the written slices of different iterations are disjoint in one
 *   dimension, which the runtime decides with the values of the index
 *   expressions' names (affine-index.ts; `R[i, ]`, `R[, i]`, `R[i, j]`,
 *   `R[(i-1)*k+1 : i*k, ]`), the reads staying inside the iteration's own
 *   slices;
 * - dependency: anything else, e.g. `s = s + x` (a value carried from one
 *   iteration to the next), `R += x`, a whole read of a result.
 *
 * It also finds what keeps a body from running on worker threads: write(),
 * source(), setwd(), eval() and calls of functions it cannot see
 * (`sideEffects`), and stop()/assert() statements in the body, which SystemDS
 * rejects in a parfor (`stops`).
 *
 * parforDiagnostics() reports, as errors, what SystemDS's validation rejects
 * (unless the loop says `check=0`): writes to a variable from before the loop
 * (scalars and whole matrices), writes at an index that does not depend on
 * the loop variable, whole reads of a result, stop() and assert(). Cases it
 * cannot decide without values are left to the runtime, which then runs the
 * loop sequentially.
 */
import type { CallExpression, DataIdentifier, Diagnostic, Expression, ForStatement, IndexRange, Program, Range, Statement } from "../syntax";
import { polyOf, type Poly } from "./affine-index";
import { lookupBuiltin } from "./builtins";

/** One dimension of an index: all of it (`R[, j]`), an affine range, or a form the analysis does not understand. */
export type DimensionForm = { kind: "all" } | { kind: "affine"; lower: Poly; upper: Poly } | { kind: "unknown" };

export interface IndexAccess {
  rows: DimensionForm;
  cols: DimensionForm;
  /** Whether the index expressions mention the loop variable. */
  usesLoopVariable: boolean;
  range: Range;
}

export interface ResultVariable {
  name: string;
  writes: IndexAccess[];
  reads: IndexAccess[];
}

type DependencyKind =
  /** Read before the iteration assigned it: the value comes from an earlier iteration. */
  | "loop-carried"
  /** Written whole by every iteration, never read first: harmless at run time, rejected by SystemDS when it existed before the loop. */
  | "output"
  /** An indexed write whose index does not depend on the loop variable: every iteration writes the same cells. */
  | "constant-index"
  /** A whole read of a matrix that iterations write parts of. */
  | "whole-read"
  /** `R += x`: an accumulation over the iterations. */
  | "accumulator"
  /** The body assigns the loop variable. */
  | "loop-variable";

interface ParforDependency {
  variable: string;
  kind: DependencyKind;
  range: Range;
}

export interface ParforAnalysis {
  loopVariable: string;
  /** Written in the body and private to each iteration. */
  locals: string[];
  results: ResultVariable[];
  /** Output dependencies ("output") are listed too: they do not prevent parallel runs (the variable is also in `locals`). */
  dependencies: ParforDependency[];
  /** What the body (or a function it calls) does that another thread cannot: write(), source(), setwd(), eval(), unknown functions. */
  sideEffects: { what: string; range: Range }[];
  /** stop() and assert() statements in the body. */
  stops: Range[];
  /** Whether the body or a function it calls prints. */
  prints: boolean;
  /** Names read in index expressions that are not written in the body (their values decide the slices). */
  indexSymbols: string[];
  /** Every variable the body reads or writes (what an iteration needs from the loop's environment). */
  names: string[];
}

export interface ParforAnalysisOptions {
  /** The body of a user function callable by this name, if any. */
  functionBody?(name: string): readonly Statement[] | undefined;
  /** Whether a call of this name runs a DML-bodied builtin script (that the analysis cannot see into). */
  isBuiltinScript?(name: string): boolean;
}

/** Builtins a worker thread must not run: their effect is outside the iteration. */
const SIDE_EFFECT_BUILTINS = new Set(["write", "eval", "setwd"]);
const META_BUILTINS = new Set(["nrow", "ncol", "length"]);

interface Access {
  kind: "whole-read" | "meta-read" | "index-read" | "whole-write" | "index-write" | "accumulate";
  range: Range;
  index?: IndexAccess;
  /** Whether the iteration had certainly assigned the variable before this access. */
  assigned: boolean;
  /** A nested for loop's variable (SystemDS does not count these writes as candidates). */
  loopVariable?: boolean;
}

export function analyzeParfor(statement: ForStatement, options: ParforAnalysisOptions = {}): ParforAnalysis {
  return new ParforBodyAnalysis(statement, options).run();
}

class ParforBodyAnalysis {
  private readonly accesses = new Map<string, Access[]>();
  private readonly written = new Set<string>();
  private readonly sideEffects: { what: string; range: Range }[] = [];
  private readonly stops: Range[] = [];
  private prints = false;
  private readonly visitedFunctions = new Set<string>();
  private readonly loopVariable: string;

  constructor(
    private readonly statement: ForStatement,
    private readonly options: ParforAnalysisOptions,
  ) {
    this.loopVariable = statement.variable.name;
  }

  run(): ParforAnalysis {
    collectWrites(this.statement.body, this.written);
    this.walk(this.statement.body, new Set([this.loopVariable]));
    const locals: string[] = [];
    const results: ResultVariable[] = [];
    const dependencies: ParforDependency[] = [];
    for (const [name, accesses] of this.accesses) {
      const writes = accesses.filter((a) => a.kind === "whole-write" || a.kind === "index-write" || a.kind === "accumulate");
      if (writes.length === 0) continue;
      if (name === this.loopVariable) {
        dependencies.push({ variable: name, kind: "loop-variable", range: writes[0]!.range });
        continue;
      }
      const exposed = accesses.find((a) => !a.assigned && a.kind !== "whole-write");
      if (exposed === undefined) {
        locals.push(name);
        const write = writes.find((a) => !a.loopVariable);
        if (write) dependencies.push({ variable: name, kind: "output", range: write.range });
        continue;
      }
      const accumulate = accesses.find((a) => a.kind === "accumulate");
      if (accumulate) {
        dependencies.push({ variable: name, kind: "accumulator", range: accumulate.range });
        continue;
      }
      if (writes.some((a) => a.kind === "whole-write")) {
        dependencies.push({ variable: name, kind: "loop-carried", range: exposed.range });
        continue;
      }
      const wholeRead = accesses.find((a) => a.kind === "whole-read");
      if (wholeRead) {
        dependencies.push({ variable: name, kind: "whole-read", range: wholeRead.range });
        continue;
      }
      const indexWrites = writes.map((a) => a.index!);
      const constant = writes.find((a) => !a.index!.usesLoopVariable);
      if (constant) dependencies.push({ variable: name, kind: "constant-index", range: constant.range });
      results.push({ name, writes: indexWrites, reads: accesses.filter((a) => a.kind === "index-read").map((a) => a.index!) });
    }
    const indexSymbols = new Set<string>();
    for (const r of results) for (const a of [...r.writes, ...r.reads]) for (const d of [a.rows, a.cols]) if (d.kind === "affine") for (const p of [d.lower, d.upper]) for (const m of p.keys()) for (const s of m ? m.split("*") : []) if (s !== this.loopVariable) indexSymbols.add(s);
    return { loopVariable: this.loopVariable, locals, results, dependencies, sideEffects: this.sideEffects, stops: this.stops, prints: this.prints, indexSymbols: [...indexSymbols], names: [...this.accesses.keys()] };
  }

  private record(name: string, access: Access): void {
    let list = this.accesses.get(name);
    if (!list) this.accesses.set(name, (list = []));
    list.push(access);
  }

  /** Walks statements in order; `assigned` holds the names the iteration has certainly assigned so far (changed in place). */
  private walk(statements: readonly Statement[], assigned: Set<string>): void {
    for (const s of statements) {
      switch (s.kind) {
        case "assign":
          this.reads(s.value, assigned);
          this.target(s.target, assigned, s.op === "+=");
          break;
        case "multiAssign":
          this.reads(s.call, assigned);
          for (const t of s.targets) this.target(t, assigned, false);
          break;
        case "callStatement": {
          const name = s.call.callee.name;
          if (name === "stop" || name === "assert") this.stops.push(s.range);
          this.reads(s.call, assigned);
          break;
        }
        case "if": {
          this.reads(s.condition, assigned);
          const thenAssigned = new Set(assigned);
          this.walk(s.thenBody, thenAssigned);
          const elseAssigned = new Set(assigned);
          if (s.elseBody) this.walk(s.elseBody, elseAssigned);
          for (const name of thenAssigned) if (elseAssigned.has(name)) assigned.add(name);
          break;
        }
        case "while": {
          this.reads(s.condition, assigned);
          this.walk(s.body, new Set(assigned));
          break;
        }
        case "for": {
          const it = s.iterable;
          for (const e of it.kind === "seq" && it.by ? [it.from, it.to, it.by] : [it.from, it.to]) this.reads(e, assigned);
          this.record(s.variable.name, { kind: "whole-write", range: s.variable.range, assigned: assigned.has(s.variable.name), loopVariable: true });
          this.walk(s.body, new Set([...assigned, s.variable.name]));
          break;
        }
        case "source":
          this.sideEffects.push({ what: "source()", range: s.range });
          break;
        case "setwd":
          this.sideEffects.push({ what: "setwd()", range: s.range });
          break;
        case "function":
        case "externalFunction":
          break;
      }
    }
  }

  private target(t: DataIdentifier, assigned: Set<string>, accumulate: boolean): void {
    if (t.kind === "parameter") return;
    if (t.kind === "identifier") {
      this.record(t.name, { kind: accumulate ? "accumulate" : "whole-write", range: t.range, assigned: assigned.has(t.name) });
      if (!accumulate) assigned.add(t.name);
      return;
    }
    for (const part of [t.rows, t.cols]) if (part) for (const e of [part.lower, part.upper]) if (e) this.reads(e, assigned);
    this.record(t.target.name, { kind: accumulate ? "accumulate" : "index-write", range: t.range, index: this.indexAccess(t.rows, t.cols, t.hasComma, t.range), assigned: assigned.has(t.target.name) });
  }

  private reads(e: Expression, assigned: Set<string>): void {
    switch (e.kind) {
      case "identifier":
        this.record(e.name, { kind: "whole-read", range: e.range, assigned: assigned.has(e.name) });
        return;
      case "index":
        this.record(e.target.name, { kind: "index-read", range: e.range, index: this.indexAccess(e.rows, e.cols, e.hasComma, e.range), assigned: assigned.has(e.target.name) });
        for (const part of [e.rows, e.cols]) if (part) for (const x of [part.lower, part.upper]) if (x) this.reads(x, assigned);
        return;
      case "call":
        this.call(e, assigned);
        return;
      case "binary":
        this.reads(e.left, assigned);
        this.reads(e.right, assigned);
        return;
      case "unary":
        this.reads(e.operand, assigned);
        return;
      case "list":
        for (const item of e.items) this.reads(item, assigned);
        return;
      case "ifdef":
        this.reads(e.defaultValue, assigned);
        return;
      default:
        return;
    }
  }

  private call(e: CallExpression, assigned: Set<string>): void {
    const name = e.callee.name;
    const only = e.args.length === 1 ? e.args[0]!.value : undefined;
    if (META_BUILTINS.has(name) && only?.kind === "identifier" && !this.options.functionBody?.(name)) {
      this.record(only.name, { kind: "meta-read", range: only.range, assigned: assigned.has(only.name) });
      return;
    }
    for (const arg of e.args) this.reads(arg.value, assigned);
    this.callee(name, e.range);
  }

  /** What calling `name` does beyond its result: prints, stops, writes, or cannot be seen. */
  private callee(name: string, range: Range): void {
    const body = this.options.functionBody?.(name);
    if (body) {
      if (this.visitedFunctions.has(name)) return;
      this.visitedFunctions.add(name);
      forEachCall(body, (call) => this.callee(call.callee.name, range), (what) => this.sideEffects.push({ what, range }));
      return;
    }
    if (name === "print") this.prints = true;
    else if (SIDE_EFFECT_BUILTINS.has(name)) this.sideEffects.push({ what: `${name}()`, range });
    else if (this.options.isBuiltinScript?.(name)) this.sideEffects.push({ what: `the builtin script ${name}()`, range });
    else if (lookupBuiltin(name) === undefined && name !== "stop" && name !== "assert") this.sideEffects.push({ what: `${name}() (a function the analysis cannot see)`, range });
  }

  private indexAccess(rows: IndexRange | undefined, cols: IndexRange | undefined, hasComma: boolean, range: Range): IndexAccess {
    const symbolOf = (name: string) => (name === this.loopVariable || !this.written.has(name) ? name : undefined);
    const form = (part: IndexRange | undefined): DimensionForm => {
      if (!part) return { kind: "all" };
      const lower = polyOf(part.lower, symbolOf);
      const upper = part.upper ? polyOf(part.upper, symbolOf) : lower;
      return lower && upper ? { kind: "affine", lower, upper } : { kind: "unknown" };
    };
    const usesLoopVariable = [rows, cols].some((p) => p && [p.lower, p.upper].some((e) => e && mentionsName(e, this.loopVariable)));
    if (!hasComma) return { rows: rows ? { kind: "unknown" } : { kind: "all" }, cols: { kind: "unknown" }, usesLoopVariable, range };
    return { rows: form(rows), cols: form(cols), usesLoopVariable, range };
  }
}

/** Every name a statement list may assign (at any depth; loop variables included). */
function collectWrites(statements: readonly Statement[], into: Set<string>): void {
  for (const s of statements) {
    switch (s.kind) {
      case "assign":
        if (s.target.kind === "identifier") into.add(s.target.name);
        else if (s.target.kind === "index") into.add(s.target.target.name);
        break;
      case "multiAssign":
        for (const t of s.targets) if (t.kind === "identifier") into.add(t.name);
        else if (t.kind === "index") into.add(t.target.name);
        break;
      case "if":
        collectWrites(s.thenBody, into);
        if (s.elseBody) collectWrites(s.elseBody, into);
        break;
      case "while":
        collectWrites(s.body, into);
        break;
      case "for":
        into.add(s.variable.name);
        collectWrites(s.body, into);
        break;
      default:
        break;
    }
  }
}

function mentionsName(e: Expression, name: string): boolean {
  switch (e.kind) {
    case "identifier":
      return e.name === name;
    case "binary":
      return mentionsName(e.left, name) || mentionsName(e.right, name);
    case "unary":
      return mentionsName(e.operand, name);
    case "call":
      return e.args.some((a) => mentionsName(a.value, name));
    case "index":
      return [e.rows, e.cols].some((p) => p && [p.lower, p.upper].some((x) => x && mentionsName(x, name)));
    case "list":
      return e.items.some((x) => mentionsName(x, name));
    default:
      return false;
  }
}

/** Calls everything a statement list (a function body) calls, and names its source()/setwd() statements. */
function forEachCall(statements: readonly Statement[], onCall: (call: CallExpression) => void, onEffect: (what: string) => void): void {
  const visit = (e: Expression): void => {
    if (e.kind === "call") onCall(e);
    switch (e.kind) {
      case "binary":
        visit(e.left);
        visit(e.right);
        break;
      case "unary":
        visit(e.operand);
        break;
      case "call":
        for (const a of e.args) visit(a.value);
        break;
      case "index":
        for (const p of [e.rows, e.cols]) if (p) for (const x of [p.lower, p.upper]) if (x) visit(x);
        break;
      case "list":
        for (const x of e.items) visit(x);
        break;
      case "ifdef":
        visit(e.defaultValue);
        break;
      default:
        break;
    }
  };
  for (const s of statements) {
    switch (s.kind) {
      case "assign":
        visit(s.value);
        if (s.target.kind === "index") visit(s.target);
        break;
      case "multiAssign":
        visit(s.call);
        break;
      case "callStatement":
        visit(s.call);
        break;
      case "if":
        visit(s.condition);
        forEachCall(s.thenBody, onCall, onEffect);
        if (s.elseBody) forEachCall(s.elseBody, onCall, onEffect);
        break;
      case "while":
        visit(s.condition);
        forEachCall(s.body, onCall, onEffect);
        break;
      case "for":
        visit(s.iterable.from);
        visit(s.iterable.to);
        if (s.iterable.kind === "seq" && s.iterable.by) visit(s.iterable.by);
        forEachCall(s.body, onCall, onEffect);
        break;
      case "source":
        onEffect("source()");
        break;
      case "setwd":
        onEffect("setwd()");
        break;
      default:
        break;
    }
  }
}

/** Whether the loop turns SystemDS's dependency check off (`check=0`). */
export function dependencyCheckOff(statement: ForStatement): boolean {
  return statement.options.some((o) => o.name === "check" && o.text.trim() === "0");
}

/**
 * The errors SystemDS's parfor validation raises for the program's parfor
 * loops (see the file comment); loops with `check=0` are not checked.
 */
export function parforDiagnostics(program: Program): Diagnostic[] {
  const functions = new Map<string, readonly Statement[]>();
  for (const s of program.body) if (s.kind === "function") functions.set(s.name.name, s.body);
  const out: Diagnostic[] = [];
  const visit = (statements: readonly Statement[], before: Set<string>): void => {
    for (const s of statements) {
      if (s.kind === "for" && s.parallel) out.push(...loopDiagnostics(s, before, functions));
      switch (s.kind) {
        case "if":
          visit(s.thenBody, new Set(before));
          if (s.elseBody) visit(s.elseBody, new Set(before));
          break;
        case "while":
          visit(s.body, new Set(before));
          break;
        case "for":
          visit(s.body, new Set([...before, s.variable.name]));
          break;
        case "function":
          visit(s.body, new Set([...s.params.map((p) => p.name.name)]));
          break;
        default:
          break;
      }
      collectWrites([s], before);
    }
  };
  visit(program.body, new Set());
  return out;
}

function loopDiagnostics(statement: ForStatement, before: ReadonlySet<string>, functions: ReadonlyMap<string, readonly Statement[]>): Diagnostic[] {
  if (dependencyCheckOff(statement)) return [];
  const analysis = analyzeParfor(statement, { functionBody: (name) => functions.get(name) });
  const i = analysis.loopVariable;
  const out: Diagnostic[] = [];
  const error = (range: Range, message: string) => out.push({ severity: "error", range, message, code: "parfor-dependency" });
  const advice = "use a for loop, or add check=0 to the parfor to run it as it is (sequentially here)";
  for (const s of analysis.stops) error(s, "parfor: stop() and assert() are not allowed inside a parfor loop body (SystemDS rejects the loop)");
  for (const d of analysis.dependencies) {
    if (!before.has(d.variable)) continue;
    switch (d.kind) {
      case "loop-carried":
        error(d.range, `parfor: loop-carried dependency on '${d.variable}': an iteration reads the value an earlier iteration wrote, so the iterations are not independent; ${advice}`);
        break;
      case "output":
        error(d.range, `parfor: every iteration writes '${d.variable}', a variable from before the loop (an output dependency SystemDS rejects); use a name of its own inside the loop, write a slice of a result (${d.variable}[${i}, ] = ...), or add check=0`);
        break;
      case "constant-index":
        error(d.range, `parfor: every iteration writes the same cells of '${d.variable}' (the index does not depend on ${i}), so the iterations are not independent; ${advice}`);
        break;
      case "whole-read":
        error(d.range, `parfor: an iteration reads all of '${d.variable}', which the other iterations write parts of (a loop-carried dependency); ${advice}`);
        break;
      case "loop-variable":
      case "accumulator":
        break;
    }
  }
  return out;
}
