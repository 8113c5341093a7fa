/**
 * Use of variables that are not assigned on every path before they are read:
 * a forward "definitely assigned" analysis over the statement blocks
 * (blocks.ts), one scope for the main program and one per function.
 *
 * - A basic block runs its statements in order; a statement's reads are
 *   checked before its own writes (`x = x + 1` reads `x` first).
 * - `if`: the condition is read first; after the `if`, a variable is
 *   definite when both branches (or the branch and the fall-through, without
 *   `else`) assign it, otherwise it is only "maybe" assigned.
 * - `while`: the body may run zero times, so what it assigns is only maybe
 *   assigned after the loop; inside the body a variable is also maybe
 *   assigned when only an earlier iteration assigns it (any variable the body
 *   writes: DML never unassigns, so this is the loop back edge's fixpoint in
 *   one step). The condition is read before every iteration.
 * - `for`, `parfor`: the bounds are read once before the loop and the loop
 *   variable is assigned in the body. A loop over `from:to` or `seq(from, to)`
 *   runs at least once in SystemDS (it counts down when from > to, DML_LANGUAGE.md
 *   section 3), so what its body assigns is assigned after it; with an
 *   explicit increment (`seq(from, to, by)`) the body may run zero times.
 * - A function body starts with its parameters assigned and sees nothing of
 *   the main program; its outputs must be assigned when it returns.
 * - `stop(...)` ends the path: a branch that stops does not make the other
 *   branch's assignments conditional.
 * - `$params`, the builtin constants `pi`, `Inf`, `NaN` (unless the program
 *   binds them) and a plain name given to `exists(...)` are not reads.
 *
 * A read of a variable no path assigns is an error; a read of a variable only
 * some paths assign is a warning that says which path misses it. Each
 * variable is reported once per scope, at its first such read.
 */
import type { Diagnostic, Expression, Range } from "../syntax";
import { AssignmentState } from "./assignment-state";
import { didYouMean } from "./edit-distance";
import type { FunctionBlock, ProgramBlocks, SimpleStatement, StatementBlock } from "./statement-block";
import { expressionReadOccurrences, statementReadOccurrences, statementWriteOccurrences, type NameOccurrence } from "./variable-occurrences";

export interface DefiniteAssignmentOptions {
  /** Names that are constants when read (`unboundBuiltinConstants`). */
  constants: ReadonlySet<string>;
  /** True for a call statement that ends execution (`stop(...)`, unless a user function hides it). */
  isStop: (statement: SimpleStatement) => boolean;
}

export function definiteAssignmentDiagnostics(blocks: ProgramBlocks, options: DefiniteAssignmentOptions): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  new Scope(undefined, blocks.main, [], options, diagnostics).run(AssignmentState.start());
  for (const fn of blocks.functions) {
    if (fn.external) continue;
    const scope = new Scope(fn.name, fn.bodyBlocks, fn.params, options, diagnostics);
    const end = scope.run(AssignmentState.start(fn.params));
    scope.checkOutputs(fn, end);
  }
  return diagnostics;
}

class Scope {
  /** Line (1-based) of the first assignment of each name anywhere in the scope. */
  private readonly firstAssigned = new Map<string, number>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly functionName: string | undefined,
    private readonly blocks: readonly StatementBlock[],
    params: readonly string[],
    private readonly options: DefiniteAssignmentOptions,
    private readonly diagnostics: Diagnostic[],
  ) {
    for (const param of params) this.firstAssigned.set(param, 0);
    this.collectAssignments(blocks);
  }

  run(start: AssignmentState): AssignmentState {
    return this.sequence(this.blocks, start);
  }

  checkOutputs(fn: FunctionBlock, end: AssignmentState): void {
    if (end.stopped) return;
    for (const output of fn.statement.returns) {
      const name = output.name.name;
      const status = end.status(name);
      if (status?.definite) continue;
      const message = status
        ? `output '${name}' of function '${fn.name}' may be unassigned when the function returns (${status.reason})`
        : `function '${fn.name}' never assigns its output '${name}'`;
      this.diagnostics.push({ severity: status ? "warning" : "error", message, range: output.name.range, code: "unassigned-output" });
    }
  }

  private sequence(blocks: readonly StatementBlock[], state: AssignmentState): AssignmentState {
    let current = state;
    for (const block of blocks) current = this.block(block, current);
    return current;
  }

  private block(block: StatementBlock, state: AssignmentState): AssignmentState {
    switch (block.kind) {
      case "basic": {
        const current = state.clone();
        for (const statement of block.statements) this.statement(statement, current);
        return current;
      }
      case "if": {
        this.readAll(expressionReadOccurrences(block.statement.condition, this.options.constants), state);
        const then = this.sequence(block.thenBlocks, state.clone());
        const otherwise = this.sequence(block.elseBlocks, state.clone());
        return AssignmentState.afterBranches(then, otherwise, lineOf(block.statement.condition.range));
      }
      case "while": {
        const loop = `while loop on line ${lineOf(block.range)}`;
        const entry = AssignmentState.atLoopEntry(state, block.writes, loop);
        this.readAll(expressionReadOccurrences(block.statement.condition, this.options.constants), entry);
        const end = this.sequence(block.bodyBlocks, entry.clone());
        return AssignmentState.afterLoop(state, end, loop);
      }
      case "for":
      case "parfor": {
        const iterable = block.statement.iterable;
        const bounds: Expression[] = [iterable.from, iterable.to, ...(iterable.kind === "seq" && iterable.by ? [iterable.by] : [])];
        for (const bound of bounds) this.readAll(expressionReadOccurrences(bound, this.options.constants), state);
        const loop = `${block.kind} loop on line ${lineOf(block.range)}`;
        const entry = AssignmentState.atLoopEntry(state, block.writes, loop);
        entry.assign(block.variable);
        const end = this.sequence(block.bodyBlocks, entry);
        const runsAtLeastOnce = iterable.kind === "range" || iterable.by === undefined;
        return runsAtLeastOnce && !end.stopped ? end : AssignmentState.afterLoop(state, end, loop);
      }
    }
  }

  private statement(statement: SimpleStatement, state: AssignmentState): void {
    this.readAll(statementReadOccurrences(statement, this.options.constants), state);
    for (const write of statementWriteOccurrences(statement)) state.assign(write.name);
    if (this.options.isStop(statement)) state.stop();
  }

  private readAll(reads: readonly NameOccurrence[], state: AssignmentState): void {
    for (const read of reads) this.read(read, state);
  }

  private read(read: NameOccurrence, state: AssignmentState): void {
    if (state.stopped || this.reported.has(read.name)) return;
    const status = state.status(read.name);
    if (status?.definite) return;
    this.reported.add(read.name);
    if (status) {
      const message = `'${read.name}' may be used before it is assigned (${status.reason})`;
      this.diagnostics.push({ severity: "warning", message, range: read.range, code: "maybe-unassigned" });
      return;
    }
    this.diagnostics.push({ severity: "error", message: this.unassignedMessage(read), range: read.range, code: "unassigned-variable" });
  }

  private unassignedMessage(read: NameOccurrence): string {
    const name = read.name;
    const line = this.firstAssigned.get(name);
    if (line === undefined) {
      const where = this.functionName === undefined ? "" : ` in function '${this.functionName}' (a function sees only its parameters and its own variables)`;
      return `'${name}' is not defined: it is never assigned${where}${didYouMean(name, this.firstAssigned.keys())}`;
    }
    if (line > lineOf(read.range)) return `'${name}' is used before it is assigned (first assigned on line ${line})`;
    return `'${name}' is not assigned on any path that reaches this use (it is assigned on line ${line})`;
  }

  private collectAssignments(blocks: readonly StatementBlock[]): void {
    const note = (name: string, range: Range) => {
      const line = lineOf(range);
      const known = this.firstAssigned.get(name);
      if (known === undefined || line < known) this.firstAssigned.set(name, line);
    };
    for (const block of blocks) {
      switch (block.kind) {
        case "basic":
          for (const statement of block.statements) for (const write of statementWriteOccurrences(statement)) note(write.name, write.range);
          break;
        case "if":
          this.collectAssignments(block.thenBlocks);
          this.collectAssignments(block.elseBlocks);
          break;
        case "while":
          this.collectAssignments(block.bodyBlocks);
          break;
        case "for":
        case "parfor":
          note(block.variable, block.statement.variable.range);
          this.collectAssignments(block.bodyBlocks);
          break;
      }
    }
  }
}

function lineOf(range: Range): number {
  return range.start.line + 1;
}
