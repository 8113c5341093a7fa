/**
 * The memo table as one candidate plan sees it: given the interesting
 * points assigned true (edges read materialized), a node's entries that
 * fuse over such an edge are invalid, and of the rest each template keeps
 * the entry that fuses the most inputs (first in the group on a tie): the
 * fusion the plan does not forbid is done. This is the selected memo table
 * construction (construct.ts) builds operators from, so selection costs
 * exactly what is built.
 */
import { fusedCount, type MemoTable } from "../memo-table";
import type { EntrySource } from "../construct";
import type { MemoEntry, TemplateType } from "../types";

export class PlanEntries implements EntrySource {
  private readonly cache = new Map<number, readonly MemoEntry[]>();

  /** `materialized(consumer, target)`: the edge is a point assigned true. */
  constructor(
    private readonly memo: MemoTable,
    private readonly materialized: (consumer: number, target: number) => boolean,
  ) {}

  get(node: number): readonly MemoEntry[] {
    let entries = this.cache.get(node);
    if (!entries) {
      entries = bestPerTemplate(this.memo.get(node).filter((e) => e.inputs.every((ref) => ref < 0 || !this.materialized(node, ref))));
      this.cache.set(node, entries);
    }
    return entries;
  }
}

function bestPerTemplate(entries: readonly MemoEntry[]): MemoEntry[] {
  const best = new Map<TemplateType, MemoEntry>();
  for (const entry of entries) {
    const known = best.get(entry.template);
    if (!known || fusedCount(entry) > fusedCount(known)) best.set(entry.template, entry);
  }
  return [...best.values()];
}
