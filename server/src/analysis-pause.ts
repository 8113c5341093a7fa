/**
 * How long the server waits after a change before the full analysis. A
 * document whose analysis takes long waits for a longer pause in typing (as
 * long as its recent analyses take, the least of the last three, so one
 * slow run does not count: while the user types on, at most half the time
 * goes to analysis), at most MAX_PAUSE_MS. A change after a quiet spell
 * (none for that long) to a document that analyzes within the shortest
 * pause is analyzed at once: a single edit need not wait, and the first
 * keystroke of a burst costs little.
 */
export const MAX_PAUSE_MS = 200;

/**
 * `recentMs`: the last analyses' durations (empty when only the first, cold
 * one ran); `sinceLastChangeMs`: time since the change before this one;
 * `shortestMs`: the setting (dmlLens.optimizer.analysisDelayMs).
 */
export function analysisPause(recentMs: readonly number[], sinceLastChangeMs: number, shortestMs: number): number {
  const typical = recentMs.length > 0 ? Math.min(...recentMs) : undefined;
  const pause = Math.max(shortestMs, Math.min(MAX_PAUSE_MS, typical ?? 0));
  const fast = typical !== undefined && typical <= shortestMs;
  return fast && sinceLastChangeMs >= pause ? 0 : pause;
}
