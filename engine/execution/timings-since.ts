/**
 * The block timings of one run in a session whose runner accumulates them
 * (compiled-runner.ts keeps one timing per block for the session's life):
 * a snapshot before the run, and after it each block that ran with only
 * what this run added (a function body defined by an earlier cell and
 * called again counts this run's calls only).
 */
import type { BlockTiming } from "./block-timing";

export type TimingSnapshot = ReadonlyMap<BlockTiming, Readonly<BlockTiming>>;

export function snapshotTimings(timings: readonly BlockTiming[]): TimingSnapshot {
  return new Map(timings.map((t) => [t, { ...t, unfused: [...t.unfused] }]));
}

export function timingsSince(before: TimingSnapshot, now: readonly BlockTiming[]): BlockTiming[] {
  const since: BlockTiming[] = [];
  for (const t of now) {
    const old = before.get(t);
    if (!old) {
      if (t.runs > 0) since.push({ ...t, unfused: [...t.unfused] });
      continue;
    }
    if (t.runs === old.runs) continue;
    since.push({
      ...t,
      unfused: [...t.unfused],
      runs: t.runs - old.runs,
      estimatedSeconds: t.estimatedSeconds - old.estimatedSeconds,
      measuredSeconds: t.measuredSeconds - old.measuredSeconds,
      compilations: t.compilations - old.compilations,
      compileMs: t.compileMs - old.compileMs,
      optimizerMatches: t.optimizerMatches - old.optimizerMatches,
    });
  }
  return since;
}
