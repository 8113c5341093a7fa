/**
 * The three combinations of options the report shows:
 *
 * - chosen: ReMac's adaptive elimination. The cost graph's probing phase
 *   (cost-graph.ts) names the candidate groups and their estimated gains;
 *   at the joint upstream (the whole script) each group, best estimate
 *   first, is picked when it fits with those picked so far and the exact
 *   estimate of the script with it (plan-costs.ts) is lower, else withdrawn.
 * - conservative: only explicit options (written as-is, so the execution
 *   order stays), each taken when it fits and the script's estimate does
 *   not rise.
 * - aggressive: as many options as fit, most occurrences and longest
 *   windows first, whatever they cost (ReMac's automatic elimination).
 */
import type { CostedOption, PlanCosts } from "./plan-costs";
import type { RedundancyPlan } from "./redundancy-types";

export interface ChosenPlans {
  chosen: CostedOption[];
  conservative: CostedOption[];
  aggressive: CostedOption[];
}

export function choosePlans(options: readonly CostedOption[], costs: PlanCosts, gains: ReadonlyMap<string, number>, explicit: ReadonlySet<string>): ChosenPlans {
  const costed = options.filter((o) => o.costed);
  const byGain = costed.filter((o) => (gains.get(o.id) ?? 0) > 0).sort((a, b) => gains.get(b.id)! - gains.get(a.id)! || a.id.localeCompare(b.id));
  const chosen = greedy(byGain, costs, true);
  const conservative = greedy(
    costed.filter((o) => explicit.has(o.id)).sort((a, b) => a.id.localeCompare(b.id)),
    costs,
    false,
  );
  const aggressive: CostedOption[] = [];
  const order = [...options].sort((a, b) => b.found.occurrences.length - a.found.occurrences.length || b.found.factors.length - a.found.factors.length || a.id.localeCompare(b.id));
  for (const o of order) if (costs.feasible([...aggressive, o])) aggressive.push(o);
  return { chosen, conservative, aggressive };
}

/** Takes each option in order when it fits and lowers the estimate (strictly, or at least does not raise it). */
function greedy(order: readonly CostedOption[], costs: PlanCosts, strict: boolean): CostedOption[] {
  const picked: CostedOption[] = [];
  let total = costs.total(picked);
  for (const o of order) {
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
  return { strategy, options: options.map((o) => o.id), cost: costs.total(costed), complete: costed.length === options.length };
}
