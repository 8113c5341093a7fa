/**
 * SPORES's sampling: per rule and iteration, apply at most `sampleLimit`
 * matches, a uniform sample drawn with a seeded generator (the same seed
 * gives the same run on any machine). The candidate classes are searched in
 * a seeded random order until the sample is full, so a rule with a million
 * matches costs a sample's worth of search. An inner scheduler (simple or
 * backoff) decides which rules run: in sampled iterations it sees the
 * sampled search, stopped at the smaller of its limit and the sample's (so
 * backoff still bans a rule whose matches pass its match limit). When an
 * iteration changes nothing after a sample left matches out, the next
 * iteration searches every candidate and applies every match the inner
 * scheduler lets through, to tell saturation from bad luck (a sample there
 * could again pick only matches that add nothing, and the run would say
 * "saturated" with matches never applied).
 */
import { MatchList } from "./pattern";
import { simpleScheduler, type RuleSearch, type Scheduler } from "./scheduler";
import type { ClassId } from "./types";

export interface SamplingOptions {
  /** Matches applied per rule and iteration, at most. */
  sampleLimit: number;
  /** Seed of the generator (default 1). */
  seed?: number;
}

export class SamplingScheduler implements Scheduler {
  private readonly sampleLimit: number;
  private readonly next: () => number;
  /** The last iteration in which a sample left matches out. */
  private truncatedIn = -1;
  /** The iteration that searches every candidate (after one that changed nothing). */
  private exhaustiveIn = -1;

  constructor(
    options: SamplingOptions,
    private readonly inner: Scheduler = simpleScheduler(),
  ) {
    if (!(options.sampleLimit >= 0)) throw new Error(`sampling scheduler: the sample limit must be a count >= 0, got ${options.sampleLimit}`);
    this.sampleLimit = options.sampleLimit;
    this.next = seededRandom(options.seed ?? 1);
  }

  search(iteration: number, rule: RuleSearch): MatchList | undefined {
    const limit = this.sampleLimit;
    if (iteration === this.exhaustiveIn) return this.inner.search(iteration, rule);
    const sampled: RuleSearch = {
      index: rule.index,
      name: rule.name,
      candidates: rule.candidates,
      matches: (innerLimit = Infinity) => {
        let matches = rule.matches(Math.min(limit, innerLimit), randomOrder(rule.candidates, this.next));
        if (matches.size > limit) {
          this.truncatedIn = iteration;
          matches = sample(matches, limit, this.next);
        }
        return matches;
      },
    };
    return this.inner.search(iteration, sampled);
  }

  canStop(iteration: number): boolean {
    // The inner scheduler is asked first: it lets its held-back rules back in.
    if (this.inner.canStop(iteration) && (this.truncatedIn !== iteration || this.exhaustiveIn === iteration)) return true;
    this.exhaustiveIn = iteration + 1;
    return false;
  }
}

export function samplingScheduler(options: SamplingOptions, inner?: Scheduler): SamplingScheduler {
  return new SamplingScheduler(options, inner);
}

/** mulberry32: a small seeded generator, values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The candidates in a seeded pseudo-random order (a random start and a stride coprime to their count). */
function* randomOrder(candidates: readonly ClassId[], next: () => number): Generator<ClassId> {
  const n = candidates.length;
  if (n === 0) return;
  const start = Math.floor(next() * n);
  let stride = 1 + Math.floor(next() * Math.max(1, n - 1));
  while (gcd(stride, n) !== 1) stride++;
  for (let i = 0, at = start; i < n; i++, at = (at + stride) % n) yield candidates[at]!;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** A uniform sample of `limit` matches (deterministic for the generator's state), in their original order. */
function sample(matches: MatchList, limit: number, next: () => number): MatchList {
  const order = Array.from({ length: matches.size }, (_, m) => m);
  for (let i = 0; i < limit; i++) {
    const j = i + Math.floor(next() * (order.length - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chosen = order.slice(0, limit).sort((a, b) => a - b);
  const result = new MatchList(matches.pattern);
  const width = matches.width;
  for (const m of chosen) result.push(matches.roots[m]!, matches.bindings.subarray(m * width, (m + 1) * width), matches.nodes[m]!);
  return result;
}
