/**
 * Comparing two plans timed on a shared machine: both run in the same
 * rounds (back to back, the order alternating), and the comparison is the
 * median over rounds of their ratio within a round, so that the load of a
 * round weighs on both sides of its ratio. Medians of each plan's times
 * alone mix rounds of different load: with a few rounds they cannot
 * separate plans a few percent apart. When the first rounds do not separate
 * two plans (their time ranges overlap), more rounds of the pair are run,
 * up to a fixed count (the same for every run, never "until it passes").
 */
import { median } from "./bench-report";

/** Rounds of a pair whose first times overlap (the first rounds included). */
export const PAIRED_ROUNDS = 15;

export interface PairedComparison {
  /** Median over rounds of other / ours (above 1: ours is faster). */
  ratio: number;
  /** Rounds in which ours was strictly faster. */
  wins: number;
  rounds: number;
}

/** `ours[i]` and `other[i]` were taken in the same round. */
export function pairedComparison(ours: readonly number[], other: readonly number[]): PairedComparison {
  const rounds = Math.min(ours.length, other.length);
  const ratios: number[] = [];
  let wins = 0;
  for (let i = 0; i < rounds; i++) {
    const a = ours[i]!;
    const b = other[i]!;
    ratios.push(a > 0 ? b / a : Number.POSITIVE_INFINITY);
    if (a < b) wins++;
  }
  return { ratio: rounds > 0 ? median(ratios) : Number.NaN, wins, rounds };
}

/** The fastest time of one is not above the slowest of the other and vice versa: the rounds so far do not separate them. */
export function rangesOverlap(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  return Math.min(...a) <= Math.max(...b) && Math.min(...b) <= Math.max(...a);
}

/**
 * Runs more rounds of the pair (ours, other), alternating which runs first,
 * until both have `rounds` times (when the times so far overlap); appends
 * to the arrays given.
 */
export function extendPairedRounds(ours: number[], other: number[], runOurs: () => number, runOther: () => number, rounds: number = PAIRED_ROUNDS): void {
  if (!rangesOverlap(ours, other)) return;
  while (ours.length < rounds || other.length < rounds) {
    const oursFirst = ours.length % 2 === 0;
    if (oursFirst) ours.push(runOurs());
    other.push(runOther());
    if (!oursFirst) ours.push(runOurs());
  }
}

/** "1.027 (faster in 10 of 15 rounds)". */
export function pairedText(c: PairedComparison): string {
  return `${c.ratio.toFixed(3)} (faster in ${c.wins} of ${c.rounds} rounds)`;
}

/**
 * Whole-script CPU times on this machine do not separate plans less than
 * this fraction apart (the H update of DFP/BFGS on a wide A dominates every
 * plan; the noise of a round is larger).
 */
export const TIMING_RESOLUTION = 0.05;

export type PairVerdict = "faster" | "equal within resolution" | "not faster" | "slower beyond resolution";

/**
 * The chosen plan against another: when the cost model estimates them less
 * than TIMING_RESOLUTION apart, the measurement can only confirm they are
 * equal (the chosen plan not slower by more than the resolution);
 * otherwise it must be faster (paired ratio above 1).
 */
export function judgePair(estimatedRatio: number, measured: PairedComparison): PairVerdict {
  if (estimatedRatio < 1 + TIMING_RESOLUTION) return measured.ratio > 1 - TIMING_RESOLUTION ? "equal within resolution" : "slower beyond resolution";
  return measured.ratio > 1 ? "faster" : "not faster";
}
