/**
 * Candidate selection (paper section 4): which partial plans of the memo
 * table the chosen fusion plan uses. The memo table is split into plan
 * partitions; each partition's interesting points span its search space,
 * searched exactly by MPSkipEnum (or, with `pruning: false`, by costing
 * every assignment), and heuristically past `exactLimit` points (counted in
 * `approximated`). A partition of the same shape as one already solved in
 * the DAG takes its plan from the plan cache. The selected memo table keeps
 * in each group, per template, the entry the best assignment leaves
 * (plan-entries.ts): what construct.ts builds the operators from.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../../cost";
import { templatesByType } from "../construct";
import type { FusionDag } from "../fusion-dag";
import { MemoTable } from "../memo-table";
import type { FusionTemplate, SearchStats } from "../types";
import { edgeKey, type InterestingPoint } from "./interesting-points";
import { lowerBound, materializationCost, staticCosts } from "./lower-bound";
import { approximate, bruteForce, mpSkipEnum, type PlanSpace, type SearchResult } from "./mp-skip-enum";
import { FusedCostModel } from "./operator-cost";
import { OpenedOperators, partitionPlanCost, type CostContext } from "./plan-cost";
import { PlanEntries } from "./plan-entries";
import { analyzePartitions, type PlanPartition } from "./partitions";
import { partitionSignature } from "./plan-signature";
import { ReachabilityGraph } from "./reachability-graph";

export interface SelectionOptions {
  constants?: MachineConstants;
  /** Cost-based and structural pruning (default true); false enumerates every plan (for tests and `bench fusion`). */
  pruning?: boolean;
  /** Partitions with more interesting points than this are planned by a heuristic, reported in `approximated` (default 15, at most 20). */
  exactLimit?: number;
}

export const DEFAULT_EXACT_LIMIT = 15;
/** The largest exact limit accepted: 2^20 plans for one partition at worst. */
export const MAX_EXACT_LIMIT = 20;

/**
 * The exact search's work bound: 2^|M| plans times the partition's nodes
 * (a costing walks the partition), so a partition of many nodes is searched
 * exactly only with few points; past it the heuristic plans it (reported).
 * 2^15 plans of a 120-node partition fit.
 */
export const EXACT_WORK = 4_000_000;

function withinExactWork(points: number, partitionSize: number): boolean {
  return 2 ** points * Math.max(1, partitionSize) <= EXACT_WORK;
}

/** The option as a usable count: a whole number from 0 to MAX_EXACT_LIMIT (the default when it is not a number). */
function exactLimitOf(option: number | undefined): number {
  if (option === undefined || !Number.isFinite(option)) return DEFAULT_EXACT_LIMIT;
  return Math.min(MAX_EXACT_LIMIT, Math.max(0, Math.floor(option)));
}

/** One partition's outcome. */
export interface PartitionChoice {
  partition: PlanPartition;
  /** The interesting points assigned true (read materialized). */
  materialized: InterestingPoint[];
  /** The partition's cost under that assignment (seconds). */
  cost: number;
  evaluated: number;
  cached: boolean;
  approximated: boolean;
}

export function selectFusionPlan(dag: FusionDag, memo: MemoTable, templates: readonly FusionTemplate[], options: SelectionOptions = {}): { selected: MemoTable; search: SearchStats } {
  const choices = choosePartitionPlans(dag, memo, templates, options);
  const materialized = new Set(choices.flatMap((c) => c.materialized.map((p) => edgeKey(p.consumer, p.target))));
  const entries = new PlanEntries(memo, (consumer, target) => materialized.has(edgeKey(consumer, target)));
  const selected = new MemoTable();
  for (const node of memo.nodes()) selected.set(node, entries.get(node));
  return { selected, search: searchStats(choices) };
}

/** The best assignment of every partition (exported for tests and the fusion benchmark). */
export function choosePartitionPlans(dag: FusionDag, memo: MemoTable, templates: readonly FusionTemplate[], options: SelectionOptions = {}): PartitionChoice[] {
  const ctx: CostContext = { dag, byType: templatesByType(templates), model: new FusedCostModel(dag, options.constants ?? DEFAULT_MACHINE_CONSTANTS) };
  const pruning = options.pruning ?? true;
  const exactLimit = exactLimitOf(options.exactLimit);
  const cache = new Map<string, { plan: boolean[]; cost: number }>();
  return analyzePartitions(dag, memo).map((part) => {
    const space = planSpace(ctx, memo, part);
    const graph = pruning && part.points.length <= exactLimit ? new ReachabilityGraph(dag, part) : undefined;
    const points = graph ? graph.searchSpace : part.points;
    const choice = (result: SearchResult, flags: { cached: boolean; approximated: boolean }): PartitionChoice => ({
      partition: part,
      materialized: points.filter((_, i) => result.plan[i]),
      cost: result.cost,
      evaluated: result.evaluated,
      ...flags,
    });
    if (points.length > exactLimit || !withinExactWork(points.length, part.nodes.length)) return choice(approximate(space, points, part.nodes.length), { cached: false, approximated: true });
    if (!pruning) return choice(bruteForce(space, points), { cached: false, approximated: false });
    const key = partitionSignature(dag, memo, part, points);
    const known = cache.get(key);
    if (known) return choice({ ...known, evaluated: 0 }, { cached: true, approximated: false });
    const result = mpSkipEnum(space, points, 0, graph);
    cache.set(key, { plan: result.plan, cost: result.cost });
    return choice(result, { cached: false, approximated: false });
  });
}

/** The partition's cost function and lower bound over assignments of its points. */
function planSpace(ctx: CostContext, memo: MemoTable, part: PlanPartition): PlanSpace {
  const statics = staticCosts(ctx.dag, memo, part, ctx.model);
  const operators = new OpenedOperators(ctx, memo, part);
  const truePoints = (points: readonly InterestingPoint[], plan: readonly boolean[]) => points.filter((_, i) => plan[i]);
  const position = new Map(part.points.map((p, i) => [p, i]));
  return {
    cost(points, plan, bound) {
      const flags = new Uint8Array(part.points.length);
      points.forEach((p, i) => {
        if (plan[i]) flags[position.get(p)!] = 1;
      });
      return partitionPlanCost(operators, memo, part, flags, bound);
    },
    lowerBound(points, plan) {
      return lowerBound(statics, materializationCost(ctx.dag, part, ctx.model, statics, truePoints(points, plan)));
    },
  };
}

function searchStats(choices: readonly PartitionChoice[]): SearchStats {
  const sizes = choices.map((c) => c.partition.points.length);
  return {
    partitions: choices.length,
    interestingPoints: sizes.reduce((a, b) => a + b, 0),
    maxInterestingPoints: Math.max(0, ...sizes),
    plansEvaluated: choices.reduce((sum, c) => sum + c.evaluated, 0),
    plansWithoutPruning: sizes.reduce((sum, n) => sum + 2 ** n, 0),
    cacheHits: choices.filter((c) => c.cached).length,
    approximated: choices.filter((c) => c.approximated).length,
  };
}

export { FusedCostModel, fusedOperatorSeconds, nodeSeconds } from "./operator-cost";
