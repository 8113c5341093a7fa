/**
 * The fusion planner's vocabulary (SystemML's codegen optimizer, Boehm et
 * al., VLDB 2018; summarized in docs/FUSION.md): templates, memo table
 * entries, and the fused operators (CPlans) a plan is made of.
 */
import type { FusionDag } from "./fusion-dag";

/**
 * The four operator skeletons:
 * - `cell`: one pass over the cells of a main input, element-wise operations
 *   over it and side inputs (broadcast vectors, scalars), with no, row,
 *   column or full aggregation;
 * - `row`: one pass over the rows of a main input, with vector intermediates
 *   (matrix-vector products, row aggregates), column aggregation of row
 *   results (`t(X) %*% ...`, `colSums`);
 * - `magg`: several full aggregates over the cells of one shared main input;
 * - `outer`: over the non-zeros of a sparse driver X and the rows of the
 *   factors U, V of a low-rank product `U %*% t(V)`.
 */
export type TemplateType = "cell" | "row" | "magg" | "outer";

/**
 * Where a partial plan stands after its node:
 * - `open-valid`: may be extended by a consumer, and is a valid operator as is;
 * - `open-invalid`: may be extended, but is not a valid operator on its own
 *   (e.g. an Outer template before a sparse-safe driver joined it);
 * - `closed-valid`: complete (an aggregation closed it), not extended further;
 * - `closed-invalid` entries are removed, never stored.
 */
export type CloseStatus = "open-valid" | "open-invalid" | "closed-valid" | "closed-invalid";

/** What a template says about its plan once it covers a node. */
export type CloseDecision = "open-valid" | "open-invalid" | "closed-valid" | "closed-invalid";

/**
 * One partial fusion plan of a node (a memo table entry): a fused operator
 * of `template` that covers the node and, for each input position of the
 * node, either continues into that input's group (the input's node id: the
 * input is computed inside the operator) or reads it materialized (-1).
 */
export interface MemoEntry {
  readonly template: TemplateType;
  /** Per input position of the DAG node: the input node id when fused, -1 when materialized. */
  readonly inputs: readonly number[];
  readonly status: CloseStatus;
}

/**
 * A template's open-fuse-merge-close conditions (OFMC): the exploration walk
 * only asks these, so a template is data to it.
 */
export interface FusionTemplate {
  readonly type: TemplateType;
  /** A new operator of this template can start at `node`, covering it and reading its inputs materialized. */
  open(dag: FusionDag, node: number): boolean;
  /** An open operator of this template at `input` can be extended to its consumer `node`. */
  fuse(dag: FusionDag, node: number, input: number): boolean;
  /** An operator of this template at `node` can take in an open operator (of this template or Cell) at its input `input`. */
  merge(dag: FusionDag, node: number, input: number): boolean;
  /** The status of an operator of this template once it covers `node` (called for every entry at the node). */
  close(dag: FusionDag, node: number): CloseDecision;
  /**
   * The operator's data binding once its nodes are chosen, or undefined when
   * they do not make a valid operator of this template (no main input, ...).
   */
  describe(dag: FusionDag, root: number, covered: ReadonlySet<number>, inputs: readonly number[]): OperatorBinding | undefined;
}

/** How a fused operator reads its data, as the template's skeleton binds it. */
export interface OperatorBinding {
  /**
   * The input the skeleton iterates over: the cells (Cell, MAgg), rows (Row)
   * or non-zeros (Outer) of this matrix; null when every input is a vector
   * or scalar and the output's shape drives the loop.
   */
  mainInput: number | null;
  /** The other matrix inputs, read by position (broadcast vectors, side matrices; for Outer: U then V). */
  sideInputs: number[];
  /** Scalar inputs. */
  scalarInputs: number[];
  /** The skeleton's variant, e.g. Cell `full-agg`, Row `col-agg-t`, Outer `right` (see each template). */
  variant: string;
  /**
   * Only the non-zeros of the main input are visited: every covered
   * operation maps a zero of the main input to zero (or to the
   * aggregation's identity), so the result is the same.
   */
  sparseSafe: boolean;
}

/** A fused operator of the chosen plan: its code-generation plan (CPlan) in data form. */
export interface FusedOperator {
  /** Index in the plan's operator list. */
  id: number;
  template: TemplateType;
  /** The DAG nodes whose values the operator produces (one; several for MAgg). */
  roots: number[];
  /** Every DAG node computed inside the operator, roots included, ascending (a topological order). */
  covered: number[];
  /** Materialized values it reads: main input, side inputs and scalars (binding.* are a partition of these). */
  inputs: number[];
  binding: OperatorBinding;
  /** Estimated seconds of the operator (output write + max(input read, compute)). */
  seconds: number;
}

/** How many plans the selection looked at, and how it ended. */
export interface SearchStats {
  partitions: number;
  /** Interesting points over all partitions (the largest partition's count in `maxInterestingPoints`). */
  interestingPoints: number;
  maxInterestingPoints: number;
  /** Plans costed by MPSkipEnum (with pruning). */
  plansEvaluated: number;
  /** Plans an enumeration without pruning costs: the sum over partitions of 2^|interesting points|. */
  plansWithoutPruning: number;
  /** Partitions answered from the plan cache. */
  cacheHits: number;
  /** Partitions past the size limit, planned by a heuristic instead of exactly (reported, never silent). */
  approximated: number;
}

/** The chosen fusion plan of one DAG. */
export interface FusionPlan {
  operators: FusedOperator[];
  /**
   * Estimated seconds of the whole DAG: with the chosen operators (the rest
   * of the nodes run as single operations), and with every operation on its
   * own, each materializing its result.
   */
  cost: { fused: number; unfused: number };
  search: SearchStats;
  /** Milliseconds spent (reported, never used for a decision). */
  ms: number;
}
