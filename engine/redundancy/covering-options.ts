/**
 * An option found across blocks (cross-block.ts) reuses the windows of an
 * option found within one block or loop and more: hoisting `t(A) %*% A`
 * out of DFP's loop and also reusing it in the gradient before the loop
 * covers the plain hoist. Both are the same choice for the windows they
 * share, so keeping both only doubles the dynamic program's candidates;
 * of such a pair the one that makes the script cheaper on its own stays
 * (the wider one on a tie or when either is not costed: the extra windows
 * it forces may cost more than they save, which the cost decides).
 */
import type { CostedOption } from "./plan-costs";

/** Ids of the options another option covers and does at least as well as, or that does worse than an option it covers. */
export function coveredOptions(options: readonly CostedOption[], total: (options: readonly CostedOption[]) => number): Set<string> {
  const dropped = new Set<string>();
  for (const wide of options) {
    if (!wide.found.across) continue;
    for (const narrow of options) {
      if (narrow === wide || narrow.found.across || dropped.has(narrow.id) || !covers(wide, narrow)) continue;
      if (wide.costed && narrow.costed && total([narrow]) < total([wide])) dropped.add(wide.id);
      else dropped.add(narrow.id);
      if (dropped.has(wide.id)) break;
    }
  }
  return dropped;
}

/** Every window of `narrow` is a window of `wide`. */
function covers(wide: CostedOption, narrow: CostedOption): boolean {
  for (const [chain, windows] of narrow.windows) {
    const theirs = wide.windows.get(chain);
    if (!theirs || !windows.every((w) => theirs.some((v) => v.start === w.start && v.end === w.end))) return false;
  }
  return true;
}
