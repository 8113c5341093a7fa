/** A rule search with a given number of matches, recording the limits and orders it was asked with (for scheduler tests). */
import { MatchList, parsePattern, type ClassId, type RuleSearch } from "../../engine/egraph";

export interface FakeSearch extends RuleSearch {
  /** The limit of each `matches` call. */
  readonly limits: number[];
  /** The candidate order of each `matches` call. */
  readonly orders: ClassId[][];
}

/** Rule `index` whose candidates are classes 0..count-1, each one match. */
export function fakeSearch(index: number, count: number): FakeSearch {
  const candidates = Array.from({ length: count }, (_, k) => k);
  const limits: number[] = [];
  const orders: ClassId[][] = [];
  return {
    index,
    name: `rule${index}`,
    candidates,
    limits,
    orders,
    matches(limit = Infinity, order: Iterable<ClassId> = candidates) {
      limits.push(limit);
      const list = new MatchList(parsePattern("?x"));
      const seen: ClassId[] = [];
      for (const id of order) {
        seen.push(id);
        list.push(id, [id]);
        if (list.size > limit) break;
      }
      orders.push(seen);
      return list;
    },
  };
}
