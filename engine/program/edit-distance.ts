/** "Did you mean ...?" suggestions by edit distance. */

/**
 * Levenshtein distance (insertions, deletions, substitutions; adjacent swaps
 * count as one), or `max + 1` as soon as it must exceed `max`: three rows
 * kept, and the walk stops once two consecutive rows are past the bound (a
 * row's least value is at least the least of the row before it and of the
 * one before that plus one).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  let older = new Uint32Array(cols);
  let previous = Uint32Array.from({ length: cols }, (_, j) => j);
  let current = new Uint32Array(cols);
  let previousLeast = 0;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let least = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, older[j - 2]! + 1);
      current[j] = d;
      if (d < least) least = d;
    }
    if (least > max && previousLeast + 1 > max) return max + 1;
    previousLeast = least;
    [older, previous, current] = [previous, current, older];
  }
  const distance = previous[cols - 1]!;
  return distance > max ? max + 1 : distance;
}

/**
 * The candidate closest to `name`, if it is close enough to be a likely typo:
 * a case-insensitive match first, else the smallest edit distance, at most 1
 * for names of 2 to 4 characters, 2 up to 8 and 3 beyond (a one-character
 * name gets case-insensitive matches only: every short name is one edit away
 * from it). Ties go to the earlier candidate.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = name.length <= 1 ? 0 : name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    // Only a strictly closer candidate than the best so far counts.
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean 'x'?` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const suggestion = closestName(name, candidates);
  return suggestion === undefined ? "" : `; did you mean '${suggestion}'?`;
}
