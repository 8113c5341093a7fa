/**
 * The fuse-all (FA) plan on its own: every interesting point false, so in
 * every group each template keeps the entry that fuses the most inputs
 * (maximal fusion, with redundant compute where a fused intermediate has
 * several consumers). The exact selection costs it first, as plan 0 of its
 * search space; this is that plan without the search (for tests that want
 * construction from maximal fusion).
 */
import { MemoTable } from "../memo-table";
import { PlanEntries } from "./plan-entries";

export function selectFuseAll(memo: MemoTable): MemoTable {
  const entries = new PlanEntries(memo, () => false);
  const selected = new MemoTable();
  for (const node of memo.nodes()) selected.set(node, entries.get(node));
  return selected;
}
