/**
 * What the fusion planner found for one statement block, in the form the
 * surfaces use (hover, plan view, `dml explain --json`): plain data that
 * crosses the optimizer worker's message channel. The block is planned as
 * written and, when the rewriter suggested changes, as rewritten, so a user
 * sees both.
 */
import type { SearchStats, TemplateType } from "../fusion";
import type { Range } from "../syntax";

export interface BlockFusion {
  /** The block's DAG as written, planned. */
  asWritten: FusionView;
  /** The block with every offered suggestion applied (its extracted plans), planned; absent without suggestions. */
  rewritten?: FusionView;
}

export interface FusionView {
  /** The planned DAG's nodes that are computed (leaves included), ids as in `operators[].covered`. */
  nodes: FusionViewNode[];
  operators: FusionOperatorView[];
  /** Estimated seconds of the block with the chosen fused operators and with every operation on its own. */
  cost: { fused: number; unfused: number };
  search: SearchStats;
}

export interface FusionViewNode {
  id: number;
  /** The operation in DML notation (`%*%`, `sum`, `exp`, a variable's name, a literal). */
  label: string;
  children: number[];
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  /** Where the operation is written (as-written DAG only). */
  range?: Range;
  /** The index in `operators` of the fused operator that computes this node, if any. */
  operator?: number;
}

export interface FusionOperatorView {
  template: TemplateType;
  /** The skeleton's variant (`full-agg`, `col-agg-t`, `right`, ...). */
  variant: string;
  sparseSafe: boolean;
  /** The DML the operator computes (of its root; MAgg: its roots joined by "; "). */
  text: string;
  /** Source range of its root (as-written DAG only; MAgg: the first root). */
  range?: Range;
  roots: number[];
  covered: number[];
  /** The DML of the materialized values it reads, main input first when there is one. */
  inputs: string[];
  mainInput: string | null;
  /** Estimated seconds of the operator, and of its covered nodes run on their own. */
  seconds: number;
  unfusedSeconds: number;
}
