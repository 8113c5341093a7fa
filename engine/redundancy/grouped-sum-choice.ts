/**
 * Which grouped sums (grouped-sums.ts) go with the chosen plan: a grouped
 * sum conflicts with every option (window or grouped) whose occurrences'
 * source texts meet its own (it prints those expressions again). Best
 * saving first, each costed grouped sum that saves work is taken when the
 * plan's estimate without the chosen window options it conflicts with,
 * minus its saving, is lower than the estimate so far (so a grouped sum
 * can replace the window options inside it). Their savings are
 * independent of the other picks (they replace different products).
 */
import { positionBefore, type Range } from "../syntax";
import type { RedundancyOption } from "./redundancy-types";

export interface GroupedChoice {
  /** Ids of the grouped sums taken with the chosen plan. */
  chosen: string[];
  /** Ids of the chosen window options they replace. */
  replaces: string[];
  /** The estimate of the chosen plan with them, per run of the script. */
  cost: number;
}

/** Fills each grouped sum's `conflicts` and picks the grouped sums that go with the chosen window options. */
export function chooseGroupedSums(
  grouped: readonly RedundancyOption[],
  windows: readonly RedundancyOption[],
  chosenWindows: ReadonlySet<string>,
  /** The estimate of the chosen plan without these of its window options. */
  planCost: (without: ReadonlySet<string>) => number,
): GroupedChoice {
  for (const g of grouped) {
    g.conflicts = [...windows, ...grouped].filter((o) => o !== g && optionsMeet(g, o)).map((o) => o.id);
  }
  const taken: string[] = [];
  const replaced = new Set<string>();
  let saving = 0;
  let cost = planCost(replaced);
  const order = [...grouped].sort((a, b) => b.saving - a.saving || a.id.localeCompare(b.id));
  for (const g of order) {
    const conflicts = g.conflicts ?? [];
    if (g.costed === false || g.saving <= 0 || conflicts.some((id) => taken.includes(id))) continue;
    const without = new Set([...replaced, ...conflicts.filter((id) => chosenWindows.has(id))]);
    const trial = planCost(without) - saving - g.saving;
    if (trial >= cost) continue;
    taken.push(g.id);
    for (const id of without) replaced.add(id);
    saving += g.saving;
    cost = trial;
  }
  return { chosen: taken, replaces: [...replaced].sort(), cost };
}

function optionsMeet(a: RedundancyOption, b: RedundancyOption): boolean {
  return a.occurrences.some((x) => b.occurrences.some((y) => rangesMeet(x.range, y.range)));
}

function rangesMeet(a: Range, b: Range): boolean {
  return positionBefore(a.start, b.end) && positionBefore(b.start, a.end);
}
