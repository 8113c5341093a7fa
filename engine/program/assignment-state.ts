/**
 * The lattice of the "definitely assigned" analysis (definite-assignment.ts):
 * for each variable, whether every path to the current point assigns it
 * (`definite`), or only some paths do (`maybe`, with a reason to show the
 * user). A variable that no path assigns is absent.
 *
 * `stopped` marks a point no execution reaches, e.g. after `stop(...)`: it
 * is the neutral element of a merge, so a branch that stops does not make
 * the variables of the other branch conditional.
 */

export type AssignmentStatus = { definite: true } | { definite: false; reason: string };

const DEFINITE: AssignmentStatus = { definite: true };

export class AssignmentState {
  private constructor(
    private readonly names: Map<string, AssignmentStatus>,
    private isStopped: boolean,
  ) {}

  /** The state at the start of a scope, where `definite` names (function parameters) are assigned. */
  static start(definite: Iterable<string> = []): AssignmentState {
    return new AssignmentState(new Map([...definite].map((name) => [name, DEFINITE])), false);
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  status(name: string): AssignmentStatus | undefined {
    return this.names.get(name);
  }

  assign(name: string): void {
    this.names.set(name, DEFINITE);
  }

  /** No execution continues past this point (`stop(...)`). */
  stop(): void {
    this.isStopped = true;
  }

  clone(): AssignmentState {
    return new AssignmentState(new Map(this.names), this.isStopped);
  }

  /** Same names with the same definiteness (reasons are not compared). */
  sameAs(other: AssignmentState): boolean {
    if (this.isStopped !== other.isStopped || this.names.size !== other.names.size) return false;
    for (const [name, status] of this.names) {
      const theirs = other.names.get(name);
      if (!theirs || theirs.definite !== status.definite) return false;
    }
    return true;
  }

  /** After `if (c) then else otherwise`; `conditionLine` is 1-based, for the reasons. */
  static afterBranches(then: AssignmentState, otherwise: AssignmentState, conditionLine: number): AssignmentState {
    if (then.isStopped) return otherwise.clone();
    if (otherwise.isStopped) return then.clone();
    const merged = new Map<string, AssignmentStatus>();
    for (const name of new Set([...then.names.keys(), ...otherwise.names.keys()])) {
      const a = then.names.get(name);
      const b = otherwise.names.get(name);
      if (a?.definite && b?.definite) merged.set(name, DEFINITE);
      else if (a?.definite) merged.set(name, { definite: false, reason: `it is not assigned when the if condition on line ${conditionLine} is false` });
      else if (b?.definite) merged.set(name, { definite: false, reason: `it is not assigned when the if condition on line ${conditionLine} is true` });
      else merged.set(name, (a ?? b)!);
    }
    return new AssignmentState(merged, false);
  }

  /**
   * At the top of a loop body: assigned before the loop, or (maybe) by an
   * earlier iteration, i.e. by any assignment in the body (`bodyWrites`; DML
   * never unassigns a variable, so what an iteration assigns stays assigned).
   * `loop` names the loop, e.g. "while loop on line 4".
   */
  static atLoopEntry(before: AssignmentState, bodyWrites: Iterable<string>, loop: string): AssignmentState {
    const joined = before.clone();
    const reason = `it is assigned later in the ${loop}, so the first iteration reads it before it is assigned`;
    for (const name of bodyWrites) if (!joined.names.has(name)) joined.names.set(name, { definite: false, reason });
    return joined;
  }

  /** After a loop whose body may run zero times. */
  static afterLoop(before: AssignmentState, bodyEnd: AssignmentState, loop: string): AssignmentState {
    const joined = before.clone();
    if (bodyEnd.isStopped) return joined;
    const reason = `it is assigned only inside the ${loop}, which may run zero times`;
    for (const [name, status] of bodyEnd.names) {
      if (joined.names.has(name)) continue;
      joined.names.set(name, status.definite ? { definite: false, reason } : status);
    }
    return joined;
  }
}
