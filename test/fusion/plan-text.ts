/**
 * Test helper: the fusion plans of every statement block of a DML text
 * (analyzed as the language server does, sizes from the text's own
 * constructors such as `rand(rows=, cols=, sparsity=)`).
 */
import { analyzeText } from "../../engine/analysis/program-analysis";
import { exploreFusionPlans, FUSION_TEMPLATES, fusionDagOfBlock, planFusion, type FusionDag, type FusionOptions, type FusionPlan, type MemoTable } from "../../engine/fusion";

export interface PlannedBlock {
  dag: FusionDag;
  memo: MemoTable;
  plan: FusionPlan;
  /** The DML text of a node (its source range). */
  text(node: number): string;
}

export function planText(source: string, options: FusionOptions = {}): PlannedBlock[] {
  const analysis = analyzeText(source);
  const lines = source.split("\n");
  const textOf = (range: { start: { line: number; character: number }; end: { line: number; character: number } }) => {
    if (range.start.line === range.end.line) return lines[range.start.line]!.slice(range.start.character, range.end.character);
    return [lines[range.start.line]!.slice(range.start.character), ...lines.slice(range.start.line + 1, range.end.line), lines[range.end.line]!.slice(0, range.end.character)].join("\n");
  };
  return analysis.dags.blocks.map((info) => {
    const sizes = analysis.sizes.blocks.get(info.block)!;
    const dag = fusionDagOfBlock(info.dag, sizes.nodes);
    return { dag, memo: exploreFusionPlans(dag, FUSION_TEMPLATES), plan: planFusion(dag, options), text: (node: number) => textOf(dag.nodes[node]!.range) };
  });
}

/** The last block's plan (tests put their data in a first block or in the same one). */
export function lastPlan(source: string, options: FusionOptions = {}): PlannedBlock {
  const blocks = planText(source, options);
  return blocks[blocks.length - 1]!;
}
