/**
 * MPSkipEnum (paper section 4.3, Algorithm 2): the exact search over a
 * partition's 2^|M| assignments of interesting points, laid out linearly
 * from negative to positive: plan j assigns the points the bits of j, the
 * first point the highest bit, so plan 0 is fuse-all (FA) and plan
 * 2^|M|-1 fuse-no-redundancy (FNR).
 * - FA and FNR are costed first: a good best cost from the start (a tie
 *   keeps FA).
 * - Cost-based pruning: when the lower bound of a plan (lower-bound.ts)
 *   reaches the best cost, the plan and the 2^(|M|-x-1) plans after it
 *   that only add true points after its last true point x are skipped;
 *   costing a plan stops once it reaches the best cost.
 * - Structural pruning: at the first plan where a cut set is all true
 *   (reachability-graph.ts), its two sub-problems are solved recursively
 *   (cut fixed true), the combined plan is costed, and the rest of the
 *   cut's sub-space is skipped. A cut is used only when its sub-problems
 *   cost fewer plans than the sub-space it skips, so the count of plans
 *   evaluated never exceeds 2^|M|.
 * `bruteForce` costs all 2^|M| plans without pruning (tests, `bench fusion`).
 */
import type { InterestingPoint } from "./interesting-points";
import type { ReachabilityGraph } from "./reachability-graph";

/** What the search asks of a partition: the cost of an assignment (points true in `plan`, the others false), and its lower bound. */
export interface PlanSpace {
  cost(points: readonly InterestingPoint[], plan: readonly boolean[], bound: number): number;
  lowerBound(points: readonly InterestingPoint[], plan: readonly boolean[]): number;
}

export interface SearchResult {
  plan: boolean[];
  cost: number;
  evaluated: number;
}

export function bruteForce(space: PlanSpace, points: readonly InterestingPoint[]): SearchResult {
  const total = 2 ** points.length;
  let best: boolean[] = assignment(points.length, 0, 0);
  let bestCost = Infinity;
  for (let j = 0; j < total; j++) {
    const plan = assignment(points.length, 0, j);
    const cost = space.cost(points, plan, Infinity);
    if (cost < bestCost) {
      bestCost = cost;
      best = plan;
    }
  }
  return { plan: best, cost: bestCost, evaluated: total };
}

/**
 * The best assignment of `points`, whose first `fixed` points are true in
 * every plan (a sub-problem's cut set); `graph` (positions over `points`)
 * enables structural pruning.
 */
export function mpSkipEnum(space: PlanSpace, points: readonly InterestingPoint[], fixed = 0, graph?: ReachabilityGraph): SearchResult {
  const free = points.length - fixed;
  const total = 2 ** free;
  const planFA = assignment(free, fixed, 0);
  let best = planFA;
  let bestCost = space.cost(points, planFA, Infinity);
  let evaluated = 1;
  if (total > 1) {
    const planFNR = assignment(free, fixed, total - 1);
    const costFNR = space.cost(points, planFNR, bestCost);
    evaluated++;
    if (costFNR < bestCost) {
      bestCost = costFNR;
      best = planFNR;
    }
  }
  for (let j = 1; j < total - 1; j++) {
    const plan = assignment(free, fixed, j);
    let next = j + 1;
    const cut = graph?.cutSetOf(plan);
    const subspaceEnd = cut ? alignedEnd(j, points.length - cut.cut[cut.cut.length - 1]! - 1) : 0;
    if (cut && 2 ** cut.upper.length + 2 ** cut.lower.length + 1 <= Math.min(subspaceEnd, total - 1) - j) {
      for (const side of [cut.upper, cut.lower]) {
        const subPoints = [...cut.cut, ...side].map((i) => points[i]!);
        const sub = mpSkipEnum(space, subPoints, cut.cut.length);
        evaluated += sub.evaluated;
        side.forEach((position, k) => (plan[position] = sub.plan[cut.cut.length + k]!));
      }
      next = subspaceEnd;
    } else if (space.lowerBound(points, plan) >= bestCost) {
      j = alignedEnd(j, points.length - lastTrue(plan) - 1) - 1;
      continue;
    }
    const cost = space.cost(points, plan, bestCost);
    evaluated++;
    if (cost < bestCost) {
      bestCost = cost;
      best = plan;
    }
    j = next - 1;
  }
  return { plan: best, cost: bestCost, evaluated };
}

/** Rounds of single-point flips the heuristic tries (each costs up to |M| plans). */
export const APPROXIMATION_ROUNDS = 4;

/**
 * The heuristic's work bound: plans costed times the partition's nodes (a
 * costing walks the partition). A partition of 100 nodes gets about 2,000
 * flips, one of 10,000 nodes (a straight-line block of thousands of
 * statements) only FA and FNR and a few flips: the planner's work per block
 * stays bounded by a count, not by the machine's speed.
 */
const APPROXIMATION_WORK = 200_000;

/** Partitions of more nodes than this are not costed with fuse-all by the heuristic (see approximate). */
const FUSE_ALL_MAX_NODES = 1_000;

/**
 * A heuristic plan for a partition past the exact search's limit: the
 * better of FNR and (for a partition of at most FUSE_ALL_MAX_NODES nodes)
 * FA, then the best single-point flip while one lowers
 * the cost (at most APPROXIMATION_ROUNDS rounds of |M| plans, and at most
 * APPROXIMATION_WORK / partitionSize plans in all).
 */
export function approximate(space: PlanSpace, points: readonly InterestingPoint[], partitionSize: number): SearchResult {
  const n = points.length;
  const maxPlans = Math.max(1, Math.floor(APPROXIMATION_WORK / Math.max(1, partitionSize)));
  // FNR first: its operators never overlap, so costing it is linear in the partition.
  let best = new Array<boolean>(n).fill(true);
  let bestCost = space.cost(points, best, Infinity);
  let evaluated = 1;
  // FA fuses over every point: in a long chain each operator covers all of it before, so costing it is quadratic; large partitions skip it.
  if (partitionSize <= FUSE_ALL_MAX_NODES) {
    const fa = assignment(n, 0, 0);
    const costFA = space.cost(points, fa, bestCost);
    evaluated++;
    if (costFA < bestCost) {
      best = fa;
      bestCost = costFA;
    }
  }
  for (let round = 0; round < APPROXIMATION_ROUNDS; round++) {
    let improved: boolean[] | undefined;
    for (let i = 0; i < n && evaluated < maxPlans; i++) {
      const plan = [...best];
      plan[i] = !plan[i];
      const cost = space.cost(points, plan, bestCost);
      evaluated++;
      if (cost < bestCost) {
        bestCost = cost;
        improved = plan;
      }
    }
    if (!improved) break;
    best = improved;
  }
  return { plan: best, cost: bestCost, evaluated };
}

/** Plan `j` of the linearized space: `fixed` leading trues, then the bits of j (highest first) over `free` points. */
function assignment(free: number, fixed: number, j: number): boolean[] {
  const plan = new Array<boolean>(fixed + free).fill(true, 0, fixed);
  for (let i = 0; i < free; i++) plan[fixed + i] = Math.floor(j / 2 ** (free - i - 1)) % 2 === 1;
  return plan;
}

/** The first plan after the aligned block of 2^width plans that holds `j`. */
function alignedEnd(j: number, width: number): number {
  const block = 2 ** width;
  return (Math.floor(j / block) + 1) * block;
}

function lastTrue(plan: readonly boolean[]): number {
  return plan.lastIndexOf(true);
}
