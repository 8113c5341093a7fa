/**
 * egg's BackoffScheduler: a rule whose search finds more than its match
 * limit is banned for a number of iterations instead of applied (its
 * matches in that iteration are dropped); each ban doubles both the rule's
 * match limit and the length of its next ban. It keeps expansive rules
 * (associativity, commutativity) from taking over the graph. When an
 * iteration changes nothing while rules sit out, they are let back in for
 * the next one.
 */
import type { MatchList } from "./pattern";
import type { RuleSearch, Scheduler } from "./scheduler";

export interface BackoffOptions {
  /** Matches a rule may have before it is banned (doubles with each ban; default 1000). */
  matchLimit?: number;
  /** Iterations of the first ban (doubles with each ban; default 5). */
  banLength?: number;
}

const DEFAULT_BACKOFF_MATCH_LIMIT = 1000;
const DEFAULT_BACKOFF_BAN_LENGTH = 5;

interface RuleState {
  timesBanned: number;
  /** The first iteration the rule runs again. */
  bannedUntil: number;
}

export class BackoffScheduler implements Scheduler {
  private readonly matchLimit: number;
  private readonly banLength: number;
  private readonly states: RuleState[] = [];
  /** The last iteration in which a rule sat out (banned then or before). */
  private heldBackIn = -1;

  constructor(options: BackoffOptions = {}) {
    this.matchLimit = options.matchLimit ?? DEFAULT_BACKOFF_MATCH_LIMIT;
    this.banLength = options.banLength ?? DEFAULT_BACKOFF_BAN_LENGTH;
  }

  search(iteration: number, rule: RuleSearch): MatchList | undefined {
    const state = (this.states[rule.index] ??= { timesBanned: 0, bannedUntil: 0 });
    if (iteration < state.bannedUntil) {
      this.heldBackIn = iteration;
      return undefined;
    }
    const threshold = this.matchLimit << state.timesBanned;
    const matches = rule.matches(threshold);
    if (matches.size > threshold) {
      state.bannedUntil = iteration + (this.banLength << state.timesBanned);
      state.timesBanned++;
      this.heldBackIn = iteration;
      return undefined;
    }
    return matches;
  }

  canStop(iteration: number): boolean {
    if (this.heldBackIn !== iteration) return true;
    for (const state of this.states) if (state !== undefined) state.bannedUntil = Math.min(state.bannedUntil, iteration + 1);
    return false;
  }

  /** Whether the rule at `index` sits out `iteration` (for reports and tests). */
  isBanned(index: number, iteration: number): boolean {
    const state = this.states[index];
    return state !== undefined && iteration < state.bannedUntil;
  }

  /** How often the rule at `index` was banned so far. */
  timesBanned(index: number): number {
    return this.states[index]?.timesBanned ?? 0;
  }
}

export function backoffScheduler(options: BackoffOptions = {}): BackoffScheduler {
  return new BackoffScheduler(options);
}
