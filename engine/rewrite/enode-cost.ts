/**
 * The cost of one e-node for extraction: the estimated seconds of its LA
 * operation on the stats of its class and its children's classes (the cost
 * stage's model), 0 for leaves, and infinite for relational nodes, which are
 * not DML and can never be extracted.
 */
import type { ClassId, ENode, EGraphView } from "../egraph";
import { DEFAULT_MACHINE_CONSTANTS, estimateTime, nodeCost, type MachineConstants, type TimeInputs } from "../cost";
import type { OptimizerData } from "./analysis";
import { dagOpOf, fillDims, opFamily } from "./la-ops";

/** The cost of an operation whose sizes are unknown: high, so a known alternative wins, but finite. */
export const UNKNOWN_COST_SECONDS = 1e3;

/** What one operation costs in each unit the editor can show. */
export interface OperationMeasures {
  seconds: number;
  flops: number;
  /** Bytes read and written. */
  bytes: number;
}

/** `node` is a member of class `id`. */
export function enodeCost(egraph: EGraphView<OptimizerData>, node: ENode, id: ClassId, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  const measures = enodeMeasures(egraph, node, id, constants);
  return measures === "not LA" ? Number.POSITIVE_INFINITY : measures === "unknown" ? UNKNOWN_COST_SECONDS : measures.seconds;
}

/** The operation's cost in every unit; `unknown` when a size is, `not LA` for nodes that can never be extracted. */
export function enodeMeasures(egraph: EGraphView<OptimizerData>, node: ENode, id: ClassId, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): OperationMeasures | "unknown" | "not LA" {
  if (opFamily(node.op) !== "la") return "not LA";
  const own = egraph.data(id);
  if (node.children.length === 0) return { seconds: 0, flops: 0, bytes: 0 };
  const kids = node.children.map((c) => egraph.data(c));
  if (kids.some((k) => k.family !== "la" || k.invalid)) return "not LA";
  const inputs = kids.map((k) => (k.family === "la" ? k.stats : undefined)!);
  const fromWork = (work: TimeInputs): OperationMeasures => ({ seconds: estimateTime(work, constants).seconds, flops: work.flops, bytes: work.bytesRead + work.bytesWritten });
  const fill = fillDims(node.op);
  if (fill) {
    const constant = kids[0]!.family === "la" ? kids[0]!.constant : undefined;
    if (constant === 0) return { seconds: 0, flops: 0, bytes: 0 };
    return fromWork({ flops: 0, bytesRead: 0, diskBytesRead: 0, bytesWritten: fill.rows * fill.cols * 8, sparseKernel: false });
  }
  const op = dagOpOf(node.op, node.children.length);
  if (!op || own.family !== "la" || own.invalid) return "not LA";
  const estimate = nodeCost(op, inputs, own.stats, constants);
  if (!estimate.known) return "unknown";
  const { seconds, flops, bytesRead, bytesWritten } = estimate.cost;
  return { seconds, flops, bytes: bytesRead + bytesWritten };
}
