/**
 * A statement block's DAG as written, as the planner's input: the block's
 * nodes and their stats; the roots are the values that leave the block
 * (live-out variables when known, else every assigned variable) and the
 * effect sinks (print, write, ...).
 */
import type { BlockDag } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { fusionDag, type FusionDag } from "./fusion-dag";

export function fusionDagOfBlock(dag: BlockDag, stats: readonly NodeStats[]): FusionDag {
  const outputs = dag.liveOut ? dag.liveOut.map((name) => dag.outputs.get(name)).filter((n): n is number => n !== undefined) : [...dag.outputs.values()];
  return fusionDag(dag.nodes, stats, [...outputs, ...dag.sinks.map((s) => s.node)]);
}
