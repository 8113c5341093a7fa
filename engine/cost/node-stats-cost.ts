/**
 * The bridge from the stats stage: a DAG node's `NodeStats` as the cost
 * model's partial operand, and the cost of a node from the stats of its
 * inputs and its own. A matrix of known dims whose non-zeros are unknown
 * is costed as dense. Frames, lists and values of unknown type are
 * "unknown"; a boolean constant is the number 1 or 0; a string constant is
 * a scalar without a numeric value.
 */
import type { DagOp } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { CostEstimate } from "./cost-types";
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "./machine-constants";
import type { PartialOperandStats } from "./operand-stats";
import { estimateOperationCost } from "./operation-cost";

export function operandFromNodeStats(stats: NodeStats): PartialOperandStats {
  switch (stats.type.dataType) {
    case "scalar": {
      const v = stats.value;
      if (typeof v === "number") return { kind: "scalar", value: v };
      if (typeof v === "boolean") return { kind: "scalar", value: v ? 1 : 0 };
      return { kind: "scalar" };
    }
    case "matrix": {
      // Unknown non-zeros of a matrix of known dims count as dense, the worst case (as SystemDS plans with sparsity 1 when it is unknown).
      const dense = stats.rows !== null && stats.cols !== null ? stats.rows * stats.cols : null;
      return { kind: "matrix", rows: stats.rows, cols: stats.cols, nnz: stats.nnz ?? dense };
    }
    default:
      return { kind: "unknown" };
  }
}

/** The cost of a node with operation `op`, the stats of its inputs (in order) and its own stats. */
export function nodeCost(
  op: DagOp,
  inputs: readonly NodeStats[],
  output: NodeStats,
  constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS,
): CostEstimate {
  return estimateOperationCost(op, inputs.map(operandFromNodeStats), operandFromNodeStats(output), constants);
}
