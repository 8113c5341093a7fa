/**
 * The fuse-all (FA) heuristic: in every group keep, per template, the
 * entry that fuses the most inputs: maximal fusion, with redundant compute
 * where a fused intermediate has several consumers. The exact selection
 * evaluates it first (it is one end of its search space).
 */
import { MemoTable } from "../memo-table";
import type { MemoEntry, TemplateType } from "../types";

export function selectFuseAll(memo: MemoTable): MemoTable {
  const selected = new MemoTable();
  for (const node of memo.nodes()) {
    const best = new Map<TemplateType, MemoEntry>();
    for (const entry of memo.get(node)) {
      const known = best.get(entry.template);
      if (!known || fusedCount(entry) > fusedCount(known)) best.set(entry.template, entry);
    }
    selected.set(node, [...best.values()]);
  }
  return selected;
}

function fusedCount(entry: MemoEntry): number {
  return entry.inputs.filter((i) => i >= 0).length;
}
