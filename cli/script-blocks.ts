/**
 * The statement blocks of a script with their DAGs and sizes, as the
 * benchmarks plan and optimize them (analyzed as `dml explain` does, with
 * the script's folder for relative paths).
 */
import type { BasicBlock, BlockDag } from "../engine/program";
import { analyzeText, type NodeStats } from "../engine/analysis";

export interface ScriptBlock {
  block: BasicBlock;
  dag: BlockDag;
  /** Stats of every DAG node, by id. */
  stats: readonly NodeStats[];
  /** 1-based line of the block's first statement. */
  line: number;
}

/** Every analyzed block of `text` (the script at `file`; `root` is the workspace folder). */
export function scriptBlocks(file: string, text: string, root: string): ScriptBlock[] {
  const analysis = analyzeText(text, { scriptPath: file, workspaceRoot: root });
  const blocks: ScriptBlock[] = [];
  for (const info of analysis.dags.blocks) {
    const sizes = analysis.sizes.blocks.get(info.block);
    if (sizes) blocks.push({ block: info.block, dag: info.dag, stats: sizes.nodes, line: info.block.range.start.line + 1 });
  }
  return blocks;
}
