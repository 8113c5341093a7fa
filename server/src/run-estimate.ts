/**
 * The `dmlLens/estimate` request behind the results view's "elapsed next to
 * the estimate": the estimated seconds of the operations written in a range
 * of lines (a cell), each statement costed once, so a loop body counts one
 * iteration; `unknown` counts the operations whose sizes are not known.
 */
import { DEFAULT_MACHINE_CONSTANTS, nodeCost } from "../../engine/cost";
import type { ProgramAnalysis } from "../../engine/stats/program-analysis";

export const ESTIMATE_REQUEST = "dmlLens/estimate";

export interface RunEstimate {
  seconds: number;
  unknown: number;
}

export function runEstimate(analysis: ProgramAnalysis, startLine: number, endLine: number): RunEstimate {
  let seconds = 0;
  let unknown = 0;
  for (const info of analysis.dags.blocks) {
    if (info.functionName !== undefined) continue; // a function body is costed where it is called: opaque here
    const sizes = analysis.sizes.blocks.get(info.block);
    if (!sizes) continue;
    for (const node of info.dag.nodes) {
      if (node.inputs.length === 0 || node.range.start.line < startLine || node.range.start.line > endLine) continue;
      const estimate = nodeCost(node.op, node.inputs.map((i) => sizes.nodes[i]!), sizes.nodes[node.id]!, DEFAULT_MACHINE_CONSTANTS);
      if (estimate.known) seconds += estimate.cost.seconds;
      else unknown++;
    }
  }
  return { seconds, unknown };
}
