/**
 * The optimizer's work budget for a whole document, in counts: e-nodes
 * (the size of each block's saturated e-graph, summed) and matches applied.
 * Each block is bounded by its own limits (saturate.ts) and by what the
 * document has left, spent in block order, so a script of a thousand blocks
 * costs at most the budget's worth of saturation (about ten times the
 * largest shipped example), the same on any machine. Blocks after the
 * budget is spent are not saturated: their seeded plans (chain orders) are
 * still extracted, and their stop reason says "documentBudget".
 */
import { DEFAULT_SATURATION, type SaturationOptions } from "../rewrite";

export interface DocumentBudget {
  /** E-nodes the document's blocks may still build. */
  nodes: number;
  /** Matches the document's blocks may still apply. */
  applied: number;
}

/** The largest shipped example (examples/*.dml) uses about 4,000 e-nodes and 81,000 matches in all its blocks. */
export const DEFAULT_DOCUMENT_BUDGET: Readonly<DocumentBudget> = { nodes: 40_000, applied: 800_000 };

/** A fresh budget for one document (callers spend it: it is mutable). */
export function documentBudget(budget: Readonly<DocumentBudget> = DEFAULT_DOCUMENT_BUDGET): DocumentBudget {
  return { ...budget };
}

/** A block's saturation options within what the document has left, or undefined when nothing is left. */
export function blockSaturation(options: SaturationOptions, budget: DocumentBudget | undefined): SaturationOptions | undefined {
  if (budget === undefined) return options;
  if (budget.nodes <= 0 || budget.applied <= 0) return undefined;
  return {
    ...options,
    nodeLimit: Math.min(options.nodeLimit ?? DEFAULT_SATURATION.nodeLimit, budget.nodes),
    applyLimit: Math.min(options.applyLimit ?? DEFAULT_SATURATION.applyLimit, budget.applied),
  };
}

/** Takes a block's work off the budget. */
export function spend(budget: DocumentBudget, nodes: number, applied: number): void {
  budget.nodes -= nodes;
  budget.applied -= applied;
}
