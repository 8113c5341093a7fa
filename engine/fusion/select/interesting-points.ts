/**
 * Interesting points (paper section 4.1): the boolean fusion decisions of a
 * partition. A point is a data dependency `consumer <- target`; true means
 * the consumer reads the target materialized, so every entry of the
 * consumer that fuses the target is invalid for that plan. Two kinds:
 * - materialization-point consumers: each consumer edge of a
 *   materialization point (a node with several consumers), decided per
 *   consumer to avoid needless reads in overlapping operators;
 * - template switches: an edge the consumer fuses while the target could
 *   root an operator of a template that fusing it never leads to a valid
 *   operator of: the target has a valid-root entry of a template that is
 *   not among the consumer's fusing entries' templates that can still end
 *   in a valid root (at the consumer or further up through fusing
 *   entries of the same template). E.g. `Y + X * (U %*% t(V))`: the Outer
 *   entry of `+` is invalid and no consumer completes it, so only
 *   materializing the product lets the sparse-safe Outer operator end
 *   there. (SystemML's rule, templates the consumer does not fuse with at
 *   all, is the special case where no fusing entry of the template exists.)
 *   Also the other way round: the consumer fuses the target with one
 *   template and can root an operator of another template without it, e.g.
 *   `X * (U %*% t(V))` as Outer (fusing the product) or as Cell (reading
 *   it): materializing the edge chooses the latter, so whether the
 *   sparse-safe Outer pays off is decided by cost (it does not when X is
 *   dense).
 * Only edges some entry fuses are decisions (an edge no entry fuses is
 * materialized in every plan). Points are distinct and ordered by target,
 * then consumer.
 */
import { fusedInputs, isValidRoot, type MemoTable } from "../memo-table";
import type { TemplateType } from "../types";

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
  const canEnd = validEnds(memo, nodes, members);
  for (const consumer of nodes) {
    const refs = new Set(memo.get(consumer).flatMap(fusedInputs));
    for (const target of refs) {
      const completing = new Set(
        memo
          .get(consumer)
          .filter((e) => fusedInputs(e).includes(target) && canEnd.get(consumer)!.has(e.template))
          .map((e) => e.template),
      );
      if (memo.get(target).some((e) => isValidRoot(e.status) && !completing.has(e.template))) add(consumer, target, "template-switch");
      else if (rootsWithout(memo, consumer, target, fusing(memo, consumer, target))) add(consumer, target, "template-switch");
    }
  }
  return [...points.values()].sort((a, b) => a.target - b.target || a.consumer - b.consumer);
}

/**
 * Per partition node, the templates whose operators through the node can
 * end in a valid root: the node has a valid-root entry of the template, or
 * a consumer in the partition fuses it with an entry that can, continuing
 * with the node's entry of that template or, lacking one, its Cell entry
 * (consumers have larger ids: computed in descending order).
 */
function validEnds(memo: MemoTable, nodes: readonly number[], members: ReadonlySet<number>): Map<number, Set<TemplateType>> {
  const ends = new Map<number, Set<TemplateType>>();
  for (const node of [...nodes].sort((a, b) => b - a)) ends.set(node, new Set(memo.get(node).filter((e) => isValidRoot(e.status)).map((e) => e.template)));
  for (const node of [...nodes].sort((a, b) => b - a)) {
    for (const entry of memo.get(node)) {
      if (!ends.get(node)!.has(entry.template)) continue;
      for (const ref of fusedInputs(entry)) {
        if (!members.has(ref)) continue;
        // The operator continues with the input's entry of its template, else the input's Cell entry (construct.ts referencedEntry).
        const continued = memo.get(ref).some((e) => e.template === entry.template) ? entry.template : "cell";
        ends.get(ref)!.add(continued);
      }
    }
  }
  return ends;
}

function fusing(memo: MemoTable, consumer: number, target: number): Set<TemplateType> {
  return new Set(memo.get(consumer).filter((e) => fusedInputs(e).includes(target)).map((e) => e.template));
}

/** The consumer can root an operator of another template that does not fuse the target (e.g. Cell instead of Outer at `X * (U %*% t(V))`). */
function rootsWithout(memo: MemoTable, consumer: number, target: number, fusingTemplates: ReadonlySet<TemplateType>): boolean {
  return memo.get(consumer).some((e) => isValidRoot(e.status) && !fusingTemplates.has(e.template) && !fusedInputs(e).includes(target));
}

function fuses(memo: MemoTable, consumer: number, target: number): boolean {
  return memo.get(consumer).some((e) => fusedInputs(e).includes(target));
}

/** The key of a consumer edge. */
export function edgeKey(consumer: number, target: number): string {
  return `${consumer}<-${target}`;
}
