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

import { LayeredEnv } from "./layered-env";

export type AssignmentStatus = { definite: true } | { definite: false; reason: string };

const DEFINITE: AssignmentStatus = { definite: true };

export class AssignmentState {
  /** Assignments since the last clone, not yet a layer of `names`. */
  private pending = new Map<string, AssignmentStatus>();

  private constructor(
    private names: LayeredEnv<AssignmentStatus>,
    private isStopped: boolean,
  ) {}

  /** The state at the start of a scope, where `definite` names (function parameters) are assigned. */
  static start(definite: Iterable<string> = []): AssignmentState {
    return new AssignmentState(LayeredEnv.of([...definite].map((name) => [name, DEFINITE] as const)), false);
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  status(name: string): AssignmentStatus | undefined {
    return this.pending.get(name) ?? this.names.get(name);
  }

  assign(name: string): void {
    this.pending.set(name, DEFINITE);
  }

  /** No execution continues past this point (`stop(...)`). */
  stop(): void {
    this.isStopped = true;
  }

  clone(): AssignmentState {
    return new AssignmentState(this.settled(), this.isStopped);
  }

  /** Same names with the same definiteness (reasons are not compared). */
  sameAs(other: AssignmentState): boolean {
    return this.isStopped === other.isStopped && LayeredEnv.same(this.settled(), other.settled(), (a, b) => a.definite === b.definite);
  }

  /** After `if (c) then else otherwise`; `conditionLine` is 1-based, for the reasons. */
  static afterBranches(then: AssignmentState, otherwise: AssignmentState, conditionLine: number): AssignmentState {
    if (then.isStopped) return otherwise.clone();
    if (otherwise.isStopped) return then.clone();
    const merged = LayeredEnv.join(then.settled(), otherwise.settled(), (a, b): AssignmentStatus => {
      if (a?.definite && b?.definite) return DEFINITE;
      if (a?.definite) return { definite: false, reason: `it is not assigned when the if condition on line ${conditionLine} is false` };
      if (b?.definite) return { definite: false, reason: `it is not assigned when the if condition on line ${conditionLine} is true` };
      return (a ?? b)!;
    });
    return new AssignmentState(merged, false);
  }

  /**
   * At the top of a loop body: assigned before the loop, or (maybe) by an
   * earlier iteration, i.e. by any assignment in the body (`bodyWrites`; DML
   * never unassigns a variable, so what an iteration assigns stays assigned).
   * `loop` names the loop, e.g. "while loop on line 4".
   */
  static atLoopEntry(before: AssignmentState, bodyWrites: Iterable<string>, loop: string): AssignmentState {
    const names = before.settled();
    const reason = `it is assigned later in the ${loop}, so the first iteration reads it before it is assigned`;
    const added = [...bodyWrites].filter((name) => names.get(name) === undefined).map((name) => [name, { definite: false, reason }] as const);
    return new AssignmentState(names.with(added), before.isStopped);
  }

  /** After a loop whose body may run zero times. */
  static afterLoop(before: AssignmentState, bodyEnd: AssignmentState, loop: string): AssignmentState {
    const names = before.settled();
    if (bodyEnd.isStopped) return new AssignmentState(names, before.isStopped);
    const end = bodyEnd.settled();
    const reason = `it is assigned only inside the ${loop}, which may run zero times`;
    const added: [string, AssignmentStatus][] = [];
    for (const name of LayeredEnv.namesSetApart(names, end)) {
      const status = end.get(name);
      if (names.get(name) !== undefined || status === undefined) continue;
      added.push([name, status.definite ? { definite: false, reason } : status]);
    }
    return new AssignmentState(names.with(added), before.isStopped);
  }

  /** `names` with the pending assignments as a layer of their own. */
  private settled(): LayeredEnv<AssignmentStatus> {
    if (this.pending.size > 0) {
      this.names = this.names.with(this.pending);
      this.pending = new Map();
    }
    return this.names;
  }
}
