/**
 * The optimizer on every statement block of a program that has sizes, in
 * block order, within one document work budget (document-budget.ts).
 */
import type { ProgramAnalysis } from "../analysis";
import { documentBudget, DEFAULT_DOCUMENT_BUDGET, type DocumentBudget } from "./document-budget";
import { optimizeBlock, type BlockOptimization, type SuggestOptions } from "./optimize-block";

export type ProgramOptimization = Map<ProgramAnalysis["dags"]["blocks"][number], BlockOptimization>;

export function optimizeProgram(analysis: ProgramAnalysis, sourceText: string, options: SuggestOptions = {}, budget: Readonly<DocumentBudget> = DEFAULT_DOCUMENT_BUDGET): ProgramOptimization {
  const result: ProgramOptimization = new Map();
  const left = options.documentBudget ?? documentBudget(budget);
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    result.set(info, optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText }, { ...options, documentBudget: left }));
  }
  return result;
}
