/**
 * Interesting points (paper section 4.1): the boolean fusion decisions of a
 * partition. A point is a data dependency `consumer <- target`; true means
 * the consumer reads the target materialized, so every entry of the
 * consumer that fuses the target is invalid for that plan. Two kinds:
 * - materialization-point consumers: each consumer edge of a
 *   materialization point (a node with several consumers), decided per
 *   consumer to avoid needless reads in overlapping operators;
 * - template switches: an edge fused by the consumer's entries of some
 *   templates while the target's group also holds other templates (e.g.
 *   the Outer entry of `X * (U %*% t(V))` under a Cell consumer `Y + ...`:
 *   materializing it lets the sparse-safe Outer operator end there).
 * Only edges some entry fuses are decisions (an edge no entry fuses is
 * materialized in every plan). Points are distinct and ordered by target,
 * then consumer.
 */
import { fusedInputs, type MemoTable } from "../memo-table";

export interface InterestingPoint {
  consumer: number;
  target: number;
  kind: "consumer" | "template-switch";
}

export function interestingPoints(
  memo: MemoTable,
  nodes: readonly number[],
  members: ReadonlySet<number>,
  materializationPoints: readonly number[],
  consumers: (node: number) => number[],
): InterestingPoint[] {
  const points = new Map<string, InterestingPoint>();
  const add = (consumer: number, target: number, kind: InterestingPoint["kind"]) => {
    const key = `${consumer}<-${target}`;
    if (!points.has(key)) points.set(key, { consumer, target, kind });
  };
  for (const target of materializationPoints) {
    for (const consumer of consumers(target)) {
      if (members.has(consumer) && fuses(memo, consumer, target)) add(consumer, target, "consumer");
    }
  }
  for (const consumer of nodes) {
    const refs = new Set(memo.get(consumer).flatMap(fusedInputs));
    for (const target of refs) {
      const fusingTemplates = new Set(memo.get(consumer).filter((e) => fusedInputs(e).includes(target)).map((e) => e.template));
      if (memo.get(target).some((e) => !fusingTemplates.has(e.template))) add(consumer, target, "template-switch");
    }
  }
  return [...points.values()].sort((a, b) => a.target - b.target || a.consumer - b.consumer);
}

function fuses(memo: MemoTable, consumer: number, target: number): boolean {
  return memo.get(consumer).some((e) => fusedInputs(e).includes(target));
}

/** The key of a consumer edge. */
export function edgeKey(consumer: number, target: number): string {
  return `${consumer}<-${target}`;
}
