/**
 * How the runner picks the matches of each rule per iteration (after egg's
 * RewriteScheduler): the runner asks the scheduler for each rule's matches,
 * and, when an iteration changed nothing, whether that is saturation or only
 * the scheduler holding matches back (egg's `can_stop`). The runner keeps
 * the limits (iterations, e-nodes, matches applied, the time safety net);
 * a scheduler only decides what is searched and applied. Schedulers:
 * `simpleScheduler` (every match of every rule), `backoffScheduler`
 * (egg's: rules with too many matches sit out), `samplingScheduler`
 * (SPORES's seeded per-rule sample of matches).
 */
import type { MatchList } from "./pattern";
import type { ClassId } from "./types";

/** One rule's search in one iteration, as the runner offers it to a scheduler. */
export interface RuleSearch {
  /** The rule's position in the runner's rule list (schedulers keep per-rule state by it). */
  readonly index: number;
  readonly name: string;
  /** The classes that may hold a match (those with a node of the pattern's root operator; every class for a variable root). */
  readonly candidates: readonly ClassId[];
  /** The matches in `order` (default: `candidates`), the search stopping once it has more than `limit`. */
  matches(limit?: number, order?: Iterable<ClassId>): MatchList;
}

/** A scheduler keeps the state of one run: create one per `runRewrites` call. */
export interface Scheduler {
  /** The matches of one rule to apply in `iteration`, or undefined when the rule sits the iteration out. */
  search(iteration: number, rule: RuleSearch): MatchList | undefined;
  /**
   * Called after an iteration that changed nothing: true when that is
   * saturation; false when the scheduler held matches back in it (a ban, a
   * sample), which it then lets back in for the next iteration.
   */
  canStop(iteration: number): boolean;
}

/** Every match of every rule, every iteration: an unchanged iteration is saturation. */
export function simpleScheduler(): Scheduler {
  return {
    search: (_iteration, rule) => rule.matches(),
    canStop: () => true,
  };
}
