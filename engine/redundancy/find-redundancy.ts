/**
 * ReMac's redundancy elimination for one analysed script: the block-wise
 * search (program-chains.ts, window-search.ts) finds the CSE and LSE
 * options, each is turned into source edits (occurrence-edits.ts) and
 * costed (plan-costs.ts), and the cost graph's dynamic program
 * (cost-graph.ts, choose-plans.ts) chooses a combination, next to the
 * conservative and aggressive strategies. Bounded by counts (windows,
 * options, products per expression, carried candidates); `truncated`
 * says when a bound stopped the search.
 */
import { performance } from "node:perf_hooks";
import { positionOffsets } from "../syntax";
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import type { ProgramAnalysis } from "../analysis";
import { chainText } from "./chain-print";
import { coveredOptions } from "./covering-options";
import { choosePlans, planOf } from "./choose-plans";
import { probeCostGraph } from "./cost-graph";
import { baseName, FreshNames } from "./fresh-names";
import { optionEdits } from "./occurrence-edits";
import { optionOrder } from "./option-order";
import { PlanCosts, type CostedOption } from "./plan-costs";
import { programChains } from "./program-chains";
import { groupedSumOption } from "./grouped-sum-options";
import { searchGroupedSums } from "./grouped-sums";
import { chooseGroupedSums, type GroupedChoice } from "./grouped-sum-choice";
import type { RedundancyOption, RedundancyPlan, RedundancyReport } from "./redundancy-types";
import { searchWindows, type FoundOption } from "./window-search";

/** The `expectedIterations` setting's default: loops whose bounds are unknown are expected to run this often. */
export const DEFAULT_EXPECTED_ITERATIONS = 10;

export interface RedundancySettings {
  /** Iterations expected of a loop whose bounds are unknown (default 10). */
  expectedIterations?: number;
  constants?: MachineConstants;
}

export function findRedundancy(analysis: ProgramAnalysis, text: string, settings: RedundancySettings = {}): RedundancyReport {
  const started = performance.now();
  const expectedIterations = settings.expectedIterations ?? DEFAULT_EXPECTED_ITERATIONS;
  const constants = settings.constants ?? DEFAULT_MACHINE_CONSTANTS;
  const program = programChains(analysis, text, { expectedIterations });
  const search = searchWindows(program);
  const costs = new PlanCosts(program, constants);
  const names = new FreshNames(program.names);
  const ids = new Set<string>();
  const offset = positionOffsets(text);

  const found = [...search.options].sort((a, b) => firstPosition(a) - firstPosition(b) || (a.kind === b.kind ? 0 : a.kind === "lse" ? -1 : 1) || a.key.localeCompare(b.key));
  const all: { option: RedundancyOption; costed: CostedOption }[] = [];
  for (const f of found) {
    const edits = optionEdits(f, text);
    if (edits.occurrences.length === 0) continue;
    const expression = chainText(f.factors.map((factor) => ({ factor, text: factor.atom.text })));
    const start = edits.occurrences[0]!.range.start;
    let id = `${f.kind}:${expression.replace(/\s+/g, "")}@${start.line + 1}:${start.character + 1}`;
    for (let n = 2; ids.has(id); n++) id = `${id.replace(/#\d+$/, "")}#${n}`;
    ids.add(id);
    const costed = costs.option(id, f);
    costed.spans = edits.occurrences.map((o) => [offset(o.range.start), offset(o.range.end)]);
    const first = Math.min(...f.occurrences.map((o) => o.chain.region.statementIndex));
    const insertBefore = f.across?.insertBefore ?? (f.kind === "lse" ? f.loop!.statement.range : f.block.info.block.statements[first]!.range);
    const option: RedundancyOption = {
      id,
      kind: f.kind,
      key: f.key,
      expression,
      name: "",
      insertBefore,
      occurrences: edits.occurrences,
      explicit: edits.explicit,
      ...(f.kind === "lse" ? { loop: f.loop!.statement.range, iterations: { ...f.loop!.iterations } } : {}),
      evaluationCost: costed.costed ? costed.evaluation! : 0,
      saving: 0,
      costed: costed.costed,
      estimator: costed.estimator,
      length: f.factors.length,
      conflicts: [],
    };
    all.push({ option, costed });
  }
  // An option across blocks and one whose windows it covers are one choice: the better alone stays (covering-options.ts).
  const covered = coveredOptions(all.map((b) => b.costed), (options) => costs.total(options));
  const built = all.filter((b) => !covered.has(b.option.id));
  for (const b of built) b.option.name = names.take(baseName(b.costed.found.factors));
  // Options whose texts meet are compatible when they compose (DFP's t(A) %*% A and t(A) %*% b hoisted together).
  const order = optionOrder(
    built.map((b) => ({ option: b.option, spans: b.costed.spans, costed: b.costed })),
    (a, b) => costs.windowsOverlap(a.costed, b.costed),
  );
  costs.order = order;
  const original = costs.total([]);
  for (const b of built) if (b.costed.costed) b.option.saving = original - costs.total([b.costed]);
  for (const a of built) {
    for (const b of built) if (a !== b && !costs.feasible([a.costed, b.costed])) a.option.conflicts!.push(b.option.id);
  }
  const costedOptions = built.map((b) => b.costed);
  const probe = probeCostGraph(costedOptions, constants);
  const explicit = new Set(built.filter((b) => b.option.explicit).map((b) => b.option.id));
  const savings = new Map(built.map((b) => [b.option.id, b.option.saving]));
  const plans = choosePlans(costedOptions, costs, probe.gains, explicit, savings);
  // ReMac's extension across blocks: sums regrouped out of products with common factors (grouped-sums.ts), named after the window options.
  const grouped = searchGroupedSums(program);
  const groupedSums = grouped.sums.map((g) => groupedSumOption(g, names, constants));
  const groupedChoice = chooseGroupedSums(
    groupedSums,
    built.map((b) => b.option),
    new Set(plans.chosen.map((o) => o.id)),
    (without) => costs.total(plans.chosen.filter((o) => o.costed && !without.has(o.id))),
  );
  return {
    options: built.map((b) => b.option),
    originalCost: original,
    plans: {
      chosen: withGroupedSums(planOf("chosen", plans.chosen, costs), groupedChoice),
      conservative: planOf("conservative", plans.conservative, costs),
      aggressive: planOf("aggressive", plans.aggressive, costs),
    },
    groupedSums,
    groupedChoice,
    windows: search.windows,
    truncated: search.truncated || probe.truncated || order.truncated || grouped.truncated,
    ms: performance.now() - started,
    chains: program.chains.length,
    candidates: probe.gains.size,
    evaluations: costs.evaluations,
    settings: { expectedIterations },
    unsized: [...program.unsized].sort(),
    sketched: costs.sketchedNames(),
  };
}

function firstPosition(o: FoundOption): number {
  return Math.min(...o.occurrences.map((w) => w.chain.region.sums.root.range.start.line * 100_000 + w.chain.region.sums.root.range.start.character));
}

/** The dynamic program's plan with the grouped sums that go with it in place of the window options they replace: what the runtime executes. */
function withGroupedSums(plan: RedundancyPlan, choice: GroupedChoice): RedundancyPlan {
  if (choice.chosen.length === 0) return plan;
  const replaced = new Set(choice.replaces);
  return { ...plan, options: [...plan.options.filter((id) => !replaced.has(id)), ...choice.chosen], cost: choice.cost };
}
