/**
 * The optimizer and the fusion planner on the bodies of the functions the
 * main program calls, with the sizes of each call site (the size analysis
 * keeps one body analysis per function and distinct argument sizes:
 * engine/stats/sizes/program-sizes.ts `calls`). A function of the script
 * gets the usual suggestions (they edit the script: quick fixes); a builtin
 * script's or a sourced file's are information about code the user does not
 * edit here. Bounded by counts, in the order the main program reaches the
 * calls: at most MAX_OPTIMIZED_CALLS analyses and MAX_OPTIMIZED_CALL_BLOCKS
 * blocks, and the document's work budget (spent after the main program's
 * blocks: a body past it is fusion-planned, not searched for rewrites).
 */
import type { BlockDagInfo } from "../program";
import type { ProgramAnalysis } from "../analysis";
import type { CallSizes } from "../stats/sizes/program-sizes";
import { documentBudget } from "./document-budget";
import { optimizeBlock, type BlockOptimization, type SuggestOptions } from "./optimize-block";

/** Body analyses optimized per document. */
export const MAX_OPTIMIZED_CALLS = 24;
/** Body blocks optimized per document, over all analyses. */
export const MAX_OPTIMIZED_CALL_BLOCKS = 400;

export interface CallOptimization {
  call: CallSizes;
  /** Whether the body is in the script (its suggestions edit the script) rather than a builtin script or sourced file. */
  editable: boolean;
  /** Each block of the body that has sizes, with what the optimizer found for it with this call site's sizes. */
  blocks: { info: BlockDagInfo; result: BlockOptimization }[];
}

export interface CallOptimizations {
  calls: CallOptimization[];
  /** Body analyses and blocks left out for the bounds above. */
  skipped: { calls: number; blocks: number };
}

/** `documentBudget` in `options` is the document's work left (shared with the main program's blocks, spent here too). */
export function optimizeCalls(analysis: ProgramAnalysis, scriptText: string, options: SuggestOptions = {}): CallOptimizations {
  const calls: CallOptimization[] = [];
  const skipped = { calls: 0, blocks: 0 };
  let blocksLeft = MAX_OPTIMIZED_CALL_BLOCKS;
  const left = options.documentBudget ?? documentBudget();
  for (const call of analysis.sizes.calls) {
    const infos = call.dags.blocks.filter((info) => call.blocks.has(info.block));
    if (calls.length >= MAX_OPTIMIZED_CALLS || infos.length > blocksLeft) {
      skipped.calls++;
      skipped.blocks += infos.length;
      continue;
    }
    blocksLeft -= infos.length;
    const editable = call.file === undefined;
    const sourceText = editable ? scriptText : (call.text ?? "");
    const blocks = infos.map((info) => ({
      info,
      result: optimizeBlock({ block: info.block, dag: info.dag, stats: call.blocks.get(info.block)!.nodes, sourceText }, { ...options, documentBudget: left }),
    }));
    calls.push({ call, editable, blocks });
  }
  return { calls, skipped };
}
