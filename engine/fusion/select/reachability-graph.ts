/**
 * Structural pruning (paper section 4.3): interesting points assigned true
 * are fusion barriers, and some sets of them, once all true, split the rest
 * of the search space into independent sub-problems.
 *
 * The reachability graph of a partition is its nodes linked by the DAG's
 * input edges. For a candidate cut set cs (a single point, the points of
 * one target, i.e. with the same inputs below them, or a pair of those):
 * - the upper region: nodes reachable from the partition's roots without
 *   crossing a cs edge; S1: the points whose consumer lies there;
 * - the lower region: nodes reachable from the cs targets; S2: the points
 *   whose consumer lies there.
 * cs is a cut set when both S1 and S2 are non-empty and the two regions
 * share no node. (Disjoint point sets alone are not enough: a node below
 * both sides with no point under it would be costed by either side's
 * choice, and the split would no longer be exact.) Then every operator
 * lies in one region and the partition's cost is the sum of a cost of S1
 * and a cost of S2: each sub-problem (cs true, its points free, the other
 * side fused) is solved on its own.
 *
 * Cut sets are ordered by score (eq. 4: the plans left with cs inactive
 * and active), (2^|cs|-1)/2^|cs| · 2^|M| + (2^|S1| + 2^|S2|)/2^|cs|,
 * and put first in the search space; the other points follow by target
 * size, largest first (skipping larger sub-spaces early).
 */
import type { FusionDag } from "../fusion-dag";
import type { InterestingPoint } from "./interesting-points";
import type { PlanPartition } from "./partitions";

export interface CutSet {
  /** Positions in the search space, ascending. */
  cut: number[];
  /** Positions of the two sub-problems' free points. */
  upper: number[];
  lower: number[];
}

export class ReachabilityGraph {
  /** The ordered search space: cut set points first, then the rest by target size. */
  readonly searchSpace: InterestingPoint[];
  readonly cutSets: CutSet[];

  constructor(dag: FusionDag, part: PlanPartition) {
    const points = part.points;
    const candidates = groupByTarget(points);
    const found: { cut: InterestingPoint[]; upper: InterestingPoint[]; lower: InterestingPoint[]; score: number }[] = [];
    const remaining: InterestingPoint[][] = [];
    for (const cand of candidates) {
      const split = splitAt(dag, part, cand);
      if (split) found.push({ cut: cand, ...split, score: score(cand.length, points.length, split) });
      else remaining.push(cand);
    }
    if (remaining.length > 1 && remaining.length < 5) {
      const used = new Set<InterestingPoint>();
      for (let i = 0; i < remaining.length; i++) {
        for (let j = i + 1; j < remaining.length; j++) {
          const cand = [...remaining[i]!, ...remaining[j]!];
          if (cand.some((p) => used.has(p))) continue;
          const split = splitAt(dag, part, cand);
          if (!split) continue;
          found.push({ cut: cand, ...split, score: score(cand.length, points.length, split) });
          for (const p of cand) used.add(p);
        }
      }
    }
    found.sort((a, b) => a.score - b.score);
    const order: InterestingPoint[] = [];
    for (const cs of found) order.push(...cs.cut);
    const inCuts = new Set(order);
    const size = (p: InterestingPoint) => cells(dag, p.target);
    order.push(...points.filter((p) => !inCuts.has(p)).sort((a, b) => size(b) - size(a) || a.target - b.target || a.consumer - b.consumer));
    this.searchSpace = order;
    const position = new Map(order.map((p, i) => [p, i]));
    const positions = (ps: InterestingPoint[]) => ps.map((p) => position.get(p)!).sort((a, b) => a - b);
    this.cutSets = found.map((cs) => ({ cut: positions(cs.cut), upper: positions(cs.upper), lower: positions(cs.lower) }));
  }

  /** The first cut set whose points are all true in `plan`, if any. */
  cutSetOf(plan: readonly boolean[]): CutSet | undefined {
    return this.cutSets.find((cs) => cs.cut.every((i) => plan[i]));
  }
}

function groupByTarget(points: readonly InterestingPoint[]): InterestingPoint[][] {
  const groups = new Map<number, InterestingPoint[]>();
  for (const p of points) groups.set(p.target, [...(groups.get(p.target) ?? []), p]);
  return [...groups.values()];
}

function score(cutSize: number, total: number, split: { upper: unknown[]; lower: unknown[] }): number {
  const combos = 2 ** cutSize;
  return ((combos - 1) / combos) * 2 ** total + (2 ** split.upper.length + 2 ** split.lower.length) / combos;
}

/** The two sub-problems of a candidate cut set, or undefined when it does not cut the partition. */
function splitAt(dag: FusionDag, part: PlanPartition, cut: readonly InterestingPoint[]): { upper: InterestingPoint[]; lower: InterestingPoint[] } | undefined {
  const cutEdges = new Set(cut.map((p) => `${p.consumer}<-${p.target}`));
  const upper = reach(dag, part, part.roots, (from, to) => !cutEdges.has(`${from}<-${to}`));
  const lower = reach(dag, part, [...new Set(cut.map((p) => p.target))], () => true);
  for (const n of lower) if (upper.has(n)) return undefined;
  const inCut = new Set(cut);
  const rest = part.points.filter((p) => !inCut.has(p));
  const s1 = rest.filter((p) => upper.has(p.consumer));
  const s2 = rest.filter((p) => lower.has(p.consumer));
  if (s1.length === 0 || s2.length === 0) return undefined;
  return { upper: s1, lower: s2 };
}

function reach(dag: FusionDag, part: PlanPartition, starts: readonly number[], follow: (from: number, to: number) => boolean): Set<number> {
  const seen = new Set<number>(starts);
  const stack = [...starts];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const input of dag.nodes[node]!.inputs) {
      if (!part.members.has(input) || seen.has(input) || !follow(node, input)) continue;
      seen.add(input);
      stack.push(input);
    }
  }
  return seen;
}

function cells(dag: FusionDag, node: number): number {
  const s = dag.stats[node]!;
  return Math.max(s.rows ?? 1, 1) * Math.max(s.cols ?? 1, 1);
}
