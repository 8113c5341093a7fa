/**
 * What ReMac's redundancy elimination (engine/redundancy) reports for a
 * script: the common subexpressions across statements (CSE) and the
 * loop-constant subexpressions (LSE) its block-wise search finds, each as
 * an option that can be applied to the script's text, and the combinations
 * its cost-based choice and the two fixed strategies pick.
 *
 * Options are source-level: applying one inserts `NAME = expression` at
 * `insertBefore` (the start of a statement line, indented like it) and
 * replaces each occurrence's range by its replacement with `{name}` filled
 * in. The runtime executes the chosen options (a rewritten copy of the
 * program; the user's text is only changed by a code action they pick).
 */
import type { Range } from "../syntax";

export type RedundancyKind = "cse" | "lse";

export interface RedundancyOccurrence {
  /** The source text to replace (for an implicit option, the whole chain that hides the window). */
  range: Range;
  /** The DML that replaces it, with `{name}` where the shared temporary goes (e.g. "t({name}) %*% {name}"). */
  replacement: string;
  /** The window appears transposed here (`t(d) %*% t(A)` for `A %*% d`). */
  transposed: boolean;
}

export interface RedundancyOption {
  /** Stable within one analysis: kind, canonical key and first occurrence ("lse:t(A)%*%A@12:8"). */
  id: string;
  kind: RedundancyKind;
  /** The canonical key of the window: a chain and its transpose share it. */
  key: string;
  /** The DML the shared temporary is assigned (e.g. "t(A) %*% A"). */
  expression: string;
  /** A fresh, readable name not used in the script (e.g. "AtA", "Ad"). */
  name: string;
  /** Where `name = expression` goes: the statement (CSE) or loop (LSE) it must precede; for an option across blocks, the statement (or if or loop) holding its first occurrence in the innermost statement list that holds them all. */
  insertBefore: Range;
  occurrences: RedundancyOccurrence[];
  /** Every occurrence is written as-is (explicit); false when found only after re-association or expansion (implicit). */
  explicit: boolean;
  /** LSE: the loop statement the expression is hoisted out of. */
  loop?: Range;
  /** Expected iterations of that loop and where the number comes from (`bound`: the setting capped by the loop's counter, e.g. `while (i < maxi & ...)`). */
  iterations?: { count: number; source: "bounds" | "setting"; bound?: number };
  /** Cost-model seconds of one evaluation of the expression. */
  evaluationCost: number;
  /** Cost-model seconds the option saves per run of the script (negative when it costs more, e.g. a worse multiplication order). */
  saving: number;
  /** False when a size the cost needs is unknown: `evaluationCost` and `saving` are then 0 and only the aggressive strategy takes it (absent: true). */
  costed?: boolean;
  /** Which sparsity estimate its costs rest on: `mnc` when MNC sketches (local data) estimated some product it costs, else `uniform` (metadata). */
  estimator?: "mnc" | "uniform";
  /** How many matrices the window multiplies (for a grouped sum: how many terms the sum adds). */
  length?: number;
  /** A grouped sum (`X %*% Y + Y %*% Z` regrouped out of products that share left and right factors): how many groups use it (one occurrence's expression may hold several). */
  groupedUses?: number;
  /** Ids of options that cannot be applied together with this one: their windows overlap in a chain or their occurrences' source texts meet. */
  conflicts?: string[];
}

export type RedundancyStrategy = "chosen" | "conservative" | "aggressive";

/** A combination of options and the script's estimated cost with them applied. */
export interface RedundancyPlan {
  strategy: RedundancyStrategy;
  /** Ids of the options applied. */
  options: string[];
  /** Cost-model seconds of the script with them (the same unit as `originalCost`). */
  cost: number;
  /** Every option in it was costed (else `cost` leaves the uncosted ones out). */
  complete: boolean;
}

export interface RedundancyReport {
  /** The window options (CSE and LSE of multiplication chains); `allOptions(report)` adds the grouped sums. */
  options: RedundancyOption[];
  /** Estimated cost of the script as written. */
  originalCost: number;
  /** The dynamic program's choice, ReMac's conservative strategy (explicit CSE and LSE only where they cannot lose) and the aggressive one (every option). */
  plans: Record<RedundancyStrategy, RedundancyPlan>;
  /**
   * Options across blocks found by regrouping common factors (a sum of
   * chains used twice or more, or loop-constant): each with its own cost
   * and edits; a choice after the dynamic program says which go with its plan (`groupedChoice`).
   */
  groupedSums: RedundancyOption[];
  /**
   * The grouped sums that go with the dynamic program's plan
   * (grouped-sum-choice.ts), the window options of that plan they replace,
   * and the estimate with them. `plans.chosen` (what the runtime executes
   * and the editor offers first) is that plan with them in place of the
   * replaced options.
   */
  groupedChoice: { chosen: string[]; replaces: string[]; cost: number };
  /** Work the search did (windows keyed), and whether its count bound stopped it. */
  windows: number;
  truncated: boolean;
  ms: number;
  /** Multiplication chains searched (after expansion) and the choice's work. */
  chains: number;
  /** Candidate groups the probing phase carried to the top, and the exact plan evaluations the choice made. */
  candidates: number;
  evaluations: number;
  /** The settings used: loops without known bounds are expected to run `expectedIterations` times. */
  settings: { expectedIterations: number };
  /** Variables in chains whose sizes the analysis does not know (options over them are not costed). */
  unsized: string[];
  /** Variables in chains that carry MNC sketches (from local data): products of them are estimated by MNC, the rest by the uniform formula. */
  sketched: string[];
}

/** Every option of a report, window options and grouped sums: what a plan's ids refer to. */
export function allOptions(report: RedundancyReport): RedundancyOption[] {
  return [...report.options, ...report.groupedSums];
}
