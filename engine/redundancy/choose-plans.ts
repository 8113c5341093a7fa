/**
 * The three combinations of options the report shows:
 *
 * - chosen: ReMac's adaptive elimination. The cost graph's probing phase
 *   (cost-graph.ts) names the candidate groups (those with a useful
 *   candidate cost somewhere; the others are discarded); at the joint
 *   upstream (the whole script) each group, best saving first, is picked
 *   when it fits with those picked so far and the exact estimate of the
 *   script with it (plan-costs.ts) is lower, else withdrawn; then each
 *   withdrawn group is tried in place of the picks it contradicts.
 * - conservative: only explicit options (written as-is, so the execution
 *   order stays), each taken when it fits and the script's estimate does
 *   not rise.
 * - aggressive: as many options as fit, whatever they cost (ReMac's
 *   automatic elimination), those that remove the most evaluations first
 *   (executions of the windows minus evaluations of the temporary: a hoist
 *   out of a loop keeps one per entry to the loop, a reuse one per run of
 *   its block), then longest windows.
 */
import type { CostedOption, PlanCosts } from "./plan-costs";
import type { RedundancyPlan } from "./redundancy-types";

export interface ChosenPlans {
  chosen: CostedOption[];
  conservative: CostedOption[];
  aggressive: CostedOption[];
}

export function choosePlans(options: readonly CostedOption[], costs: PlanCosts, gains: ReadonlyMap<string, number>, explicit: ReadonlySet<string>, savings: ReadonlyMap<string, number>): ChosenPlans {
  const costed = options.filter((o) => o.costed);
  // Groups the probing found useful somewhere, best exact saving first (then the probing's estimate).
  const candidates = costed
    .filter((o) => (gains.get(o.id) ?? 0) > 0)
    .sort((a, b) => (savings.get(b.id) ?? 0) - (savings.get(a.id) ?? 0) || gains.get(b.id)! - gains.get(a.id)! || a.id.localeCompare(b.id));
  const chosen = improve(greedy(candidates, costs, true), candidates, costs);
  const conservative = greedy(
    costed.filter((o) => explicit.has(o.id)).sort((a, b) => a.id.localeCompare(b.id)),
    costs,
    false,
  );
  const aggressive: CostedOption[] = [];
  const removed = (o: CostedOption) => o.uses - o.setupRuns;
  const order = [...options].sort((a, b) => removed(b) - removed(a) || b.found.factors.length - a.found.factors.length || a.id.localeCompare(b.id));
  for (const o of order) if (costs.feasible([...aggressive, o])) aggressive.push(o);
  return { chosen, conservative, aggressive };
}

/**
 * Contradictory groups: a group left out because an earlier pick conflicts
 * with it is tried in place of the picks it conflicts with (the others
 * re-added greedily); the swap stays when the script's estimate drops.
 * At most one round per candidate.
 */
function improve(picked: CostedOption[], candidates: readonly CostedOption[], costs: PlanCosts): CostedOption[] {
  let best = picked;
  let bestCost = costs.total(best);
  for (const o of candidates) {
    if (best.includes(o)) continue;
    const kept = best.filter((p) => costs.feasible([p, o]));
    const trial = greedy(candidates.filter((c) => c === o || kept.includes(c) || !best.includes(c)), costs, true, [...kept, o]);
    const cost = costs.total(trial);
    if (cost < bestCost) {
      best = trial;
      bestCost = cost;
    }
  }
  return best;
}

/** Takes each option in order when it fits and lowers the estimate (strictly, or at least does not raise it). */
function greedy(order: readonly CostedOption[], costs: PlanCosts, strict: boolean, start: readonly CostedOption[] = []): CostedOption[] {
  const picked: CostedOption[] = [...start];
  let total = costs.total(picked);
  for (const o of order) {
    if (picked.includes(o)) continue;
    const next = [...picked, o];
    if (!costs.feasible(next)) continue;
    const cost = costs.total(next);
    if (cost < total || (!strict && cost <= total)) {
      picked.push(o);
      total = cost;
    }
  }
  return picked;
}

export function planOf(strategy: RedundancyPlan["strategy"], options: readonly CostedOption[], costs: PlanCosts): RedundancyPlan {
  const costed = options.filter((o) => o.costed);
  return { strategy, options: costs.ordered(options).map((o) => o.id), cost: costs.total(costed), complete: costed.length === options.length };
}
