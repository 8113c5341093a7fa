/**
 * The least any plan of a DAG can cost in the fused cost model: one read of
 * each matrix the DAG's roots are computed from (the block's inputs, at the
 * read bandwidth). Every operator reads its inputs at least once
 * (T = T_write + max(T_read, T_compute), operator-cost.ts), so a plan that
 * computes the roots from these matrices costs at least this much, however
 * it is rewritten and fused; writes are not counted, since a rewrite may
 * make a root one of the inputs (`Y = Y * 1`).
 *
 * What a rewrite of the block can save per run is then at most its cost
 * minus this floor: `t(X) %*% y` fused in a Row operator costs about one
 * read of X already, and searching for a cheaper plan of it cannot pay off.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import { reachableAscending } from "./explore";
import type { FusionDag } from "./fusion-dag";
import { FusedCostModel } from "./select";

export function inputReadFloorSeconds(dag: FusionDag, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  const model = new FusedCostModel(dag, constants);
  let bytes = 0;
  for (const node of reachableAscending(dag)) {
    if (dag.nodes[node]!.op.kind === "input" && dag.stats[node]!.type.dataType === "matrix") bytes += model.valueBytes(node);
  }
  return bytes / constants.memoryBandwidthBytesPerSecond;
}
