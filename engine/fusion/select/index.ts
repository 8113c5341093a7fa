/**
 * Candidate selection: which partial plans of the memo table the chosen
 * fusion plan uses.
 * TODO(helper selection): partitions, interesting points, MPSkipEnum; fuse-all until then.
 */
import type { MachineConstants } from "../../cost";
import type { FusionDag } from "../fusion-dag";
import type { MemoTable } from "../memo-table";
import type { FusionTemplate, SearchStats } from "../types";
import { selectFuseAll } from "./fuse-all";

export interface SelectionOptions {
  constants?: MachineConstants;
  /** Cost-based and structural pruning (default true); false enumerates every plan (for tests and `bench fusion`). */
  pruning?: boolean;
  /** Partitions with more interesting points than this are planned by a heuristic, reported in `approximated` (default 15). */
  exactLimit?: number;
}

export function selectFusionPlan(_dag: FusionDag, memo: MemoTable, _templates: readonly FusionTemplate[], _options: SelectionOptions = {}): { selected: MemoTable; search: SearchStats } {
  return {
    selected: selectFuseAll(memo),
    search: { partitions: 0, interestingPoints: 0, maxInterestingPoints: 0, plansEvaluated: 0, plansWithoutPruning: 0, cacheHits: 0, approximated: 0 },
  };
}
