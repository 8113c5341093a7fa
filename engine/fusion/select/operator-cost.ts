/**
 * The analytical cost of operations with and without fusion (SystemML's
 * codegen cost model, eq. 3 of the paper): an operator costs its output
 * write plus the larger of its input read and its compute,
 *
 *   T = T_write + max(T_read, T_compute),
 *
 * where a fused operator reads each distinct materialized input once,
 * writes only its roots, and computes the FLOPs of every node it covers; a
 * sparse-safe operator computes only over the non-zeros of its main input
 * (its FLOPs scale with that input's sparsity). The per-node FLOPs and
 * bytes come from engine/cost, so fused and unfused costs share one model.
 */
import { DEFAULT_MACHINE_CONSTANTS, estimateTime, matrixBytes, nodeCost, type MachineConstants } from "../../cost";
import type { FusionDag } from "../fusion-dag";
import type { OperatorBinding } from "../types";

/** The cost of one node run on its own (0 when the cost model cannot estimate it: an opaque call, an unknown size). */
export function nodeSeconds(dag: FusionDag, node: number, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  return nodeWork(dag, node, constants)?.seconds ?? 0;
}

/** FLOPs of one node (0 when unknown). */
export function nodeFlops(dag: FusionDag, node: number, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  return nodeWork(dag, node, constants)?.flops ?? 0;
}

function nodeWork(dag: FusionDag, node: number, constants: MachineConstants) {
  const n = dag.nodes[node]!;
  const estimate = nodeCost(n.op, n.inputs.map((i) => dag.stats[i]!), dag.stats[node]!, constants);
  return estimate.known ? estimate.cost : undefined;
}

/** Bytes of a node's value in its storage format (8 for a scalar, 0 when unknown). */
export function valueBytes(dag: FusionDag, node: number): number {
  const s = dag.stats[node]!;
  if (s.type.dataType === "scalar") return 8;
  if (s.type.dataType !== "matrix" || s.rows === null || s.cols === null) return 0;
  const nnz = s.nnz ?? s.rows * s.cols;
  return matrixBytes({ kind: "matrix", rows: s.rows, cols: s.cols, nnz });
}

/** The fraction of cells a sparse-safe operator visits: the main input's sparsity (1 when unknown or dense). */
export function drivenFraction(dag: FusionDag, binding: OperatorBinding): number {
  if (!binding.sparseSafe || binding.mainInput === null) return 1;
  const s = dag.stats[binding.mainInput]!;
  if (s.rows === null || s.cols === null || s.nnz === null || s.rows * s.cols === 0) return 1;
  return Math.min(1, s.nnz / (s.rows * s.cols));
}

export interface FusedOperatorShape {
  roots: readonly number[];
  covered: readonly number[];
  inputs: readonly number[];
  binding: OperatorBinding;
}

/** Seconds of a fused operator: roots written, distinct inputs read once, covered FLOPs (scaled for a sparse-safe driver). */
export function fusedOperatorSeconds(dag: FusionDag, op: FusedOperatorShape, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  const fraction = drivenFraction(dag, op.binding);
  const flops = op.covered.reduce((sum, node) => sum + nodeFlops(dag, node, constants), 0) * fraction;
  const bytesRead = [...new Set(op.inputs)].reduce((sum, node) => sum + valueBytes(dag, node), 0);
  const bytesWritten = op.roots.reduce((sum, node) => sum + valueBytes(dag, node), 0);
  return estimateTime({ flops, bytesRead, diskBytesRead: 0, bytesWritten, sparseKernel: fraction < 1 }, constants).seconds;
}
