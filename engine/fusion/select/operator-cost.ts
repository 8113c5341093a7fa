/**
 * The analytical cost of operations with and without fusion (SystemML's
 * codegen cost model, eq. 3 of the paper): an operator costs its output
 * write plus the larger of its input read and its compute,
 *
 *   T = T_write + max(T_read, T_compute).
 *
 * A single operation's cost is engine/cost's estimate of the node. A fused
 * operator reads each distinct materialized input once, writes only its
 * roots, and computes the FLOPs of every node it covers, as its skeleton
 * runs them:
 * - Cell / MAgg / Outer over a sparse-safe main input visit only that
 *   input's non-zeros: each covered node's dense FLOPs (every operand seen
 *   as dense, i.e. per cell) scaled by the main input's sparsity;
 *   otherwise they visit every cell: the dense FLOPs;
 * - Cell and MAgg use the sparse throughput when they skip zeros, the
 *   dense throughput when they visit every cell; an Outer operator computes
 *   a dot product per visited cell, at the sparse throughput over a driver
 *   stored sparse (the factors' rows read indirectly, at its non-zeros),
 *   at the dense throughput over a dense one (the generated kernel holds
 *   U_i in registers and streams the rows of V in order, as a dense
 *   product does);
 * - a Row operator works on the rows as stored (sparse rows stay sparse):
 *   each node's own FLOPs, at the sparse throughput when the node reads a
 *   matrix stored sparse (as engine/cost runs it on its own); its
 *   matrix-vector products stream the row they read
 *   (one multiply-add per 8-byte value), so they are memory-bound: 4 bytes
 *   per FLOP at the read bandwidth instead of the compute throughput.
 * The per-node FLOPs and bytes all come from engine/cost, so fused and
 * unfused costs share one model.
 */
import { DEFAULT_MACHINE_CONSTANTS, matrixBytes, nodeCost, storageFormat, type MachineConstants, type OperationCost } from "../../cost";
import type { NodeStats } from "../../stats/sizes/node-stats";
import type { FusionDag } from "../fusion-dag";
import type { OperatorBinding, TemplateType } from "../types";

/** Bytes a streamed multiply-add reads per FLOP: one 8-byte value per 2 FLOPs. */
const STREAMED_BYTES_PER_FLOP = 4;

export interface FusedOperatorShape {
  /** The operator's template (a shape without one is costed as a Cell operator). */
  template?: TemplateType;
  roots: readonly number[];
  covered: readonly number[];
  inputs: readonly number[];
  binding: OperatorBinding;
}

/** The fused cost model of one DAG, with each node's estimates computed once. */
export class FusedCostModel {
  private readonly work = new Map<number, OperationCost | undefined>();
  private readonly dense = new Map<number, number>();

  constructor(
    readonly dag: FusionDag,
    readonly constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS,
  ) {}

  /** engine/cost's estimate of the node run on its own (undefined when unknown: an opaque call, an unknown size). */
  nodeWork(node: number): OperationCost | undefined {
    if (!this.work.has(node)) {
      const n = this.dag.nodes[node]!;
      const estimate = nodeCost(n.op, n.inputs.map((i) => this.dag.stats[i]!), this.dag.stats[node]!, this.constants);
      this.work.set(node, estimate.known ? estimate.cost : undefined);
    }
    return this.work.get(node);
  }

  /** Seconds of the node run on its own (0 when unknown). */
  nodeSeconds(node: number): number {
    return this.nodeWork(node)?.seconds ?? 0;
  }

  /** FLOPs of the node run on its own, with its operands' sparsity (0 when unknown). */
  nodeFlops(node: number): number {
    return this.nodeWork(node)?.flops ?? 0;
  }

  /** FLOPs of the node with every matrix operand seen as dense: its work per cell, as a skeleton's loop runs it (0 when unknown). */
  denseFlops(node: number): number {
    let flops = this.dense.get(node);
    if (flops === undefined) {
      const n = this.dag.nodes[node]!;
      const estimate = nodeCost(n.op, n.inputs.map((i) => densified(this.dag.stats[i]!)), densified(this.dag.stats[node]!), this.constants);
      flops = estimate.known ? estimate.cost.flops : 0;
      this.dense.set(node, flops);
    }
    return flops;
  }

  /** Bytes of a node's value in its storage format (8 for a scalar, 0 when unknown). */
  valueBytes(node: number): number {
    return valueBytes(this.dag, node);
  }

  /** The node's value is stored in the sparse format. */
  isStoredSparse(node: number): boolean {
    const s = this.dag.stats[node]!;
    if (s.type.dataType !== "matrix" || s.rows === null || s.cols === null || s.nnz === null) return false;
    return storageFormat({ kind: "matrix", rows: s.rows, cols: s.cols, nnz: s.nnz }) === "sparse";
  }

  /** The node reads a matrix stored sparse (its kernel walks a sparse structure). */
  readsSparse(node: number): boolean {
    return this.dag.nodes[node]!.inputs.some((i) => this.isStoredSparse(i));
  }

  /** A matrix-vector (or vector-matrix) product: the output is a vector. */
  isMatrixVector(node: number): boolean {
    const n = this.dag.nodes[node]!;
    const s = this.dag.stats[node]!;
    return n.op.kind === "matmul" && (s.rows === 1 || s.cols === 1);
  }

  /** Compute seconds of the operator's covered nodes (see the file comment). */
  computeSeconds(op: FusedOperatorShape): number {
    const c = this.constants;
    const template = op.template ?? "cell";
    const fraction = drivenFraction(this.dag, op.binding);
    const skipsZeros = op.binding.sparseSafe && op.binding.mainInput !== null;
    let seconds = 0;
    for (const node of op.covered) {
      if (template === "row") {
        const flops = this.nodeFlops(node);
        if (this.isMatrixVector(node)) seconds += (flops * STREAMED_BYTES_PER_FLOP) / c.memoryBandwidthBytesPerSecond;
        else seconds += flops / (this.readsSparse(node) ? c.sparseFlopsPerSecond : c.flopsPerSecond);
        continue;
      }
      const flops = this.denseFlops(node) * (skipsZeros ? fraction : 1);
      const sparseRate = skipsZeros && (template === "outer" ? this.isStoredSparse(op.binding.mainInput!) : fraction < 1);
      seconds += flops / (sparseRate ? c.sparseFlopsPerSecond : c.flopsPerSecond);
    }
    return seconds;
  }

  /** Seconds of a fused operator: roots written, distinct inputs read once, max(read, compute). */
  operatorSeconds(op: FusedOperatorShape): number {
    const c = this.constants;
    const bytesRead = [...new Set(op.inputs)].reduce((sum, node) => sum + this.valueBytes(node), 0);
    const bytesWritten = op.roots.reduce((sum, node) => sum + this.valueBytes(node), 0);
    const readSeconds = bytesRead / c.memoryBandwidthBytesPerSecond;
    return bytesWritten / c.writeBandwidthBytesPerSecond + Math.max(readSeconds, this.computeSeconds(op));
  }

  /**
   * A lower bound of the compute seconds the node adds to any operator that
   * runs it: on its own (at the faster throughput), in a Row operator (its
   * own FLOPs, streamed when a matrix-vector product), or, when
   * `mayBeSkipping` (the node can be covered by an operator of another
   * template), in a zero-skipping operator whose main input has sparsity
   * `minFraction` or more (its dense FLOPs scaled, at the faster throughput).
   */
  minComputeSeconds(node: number, minFraction: number, mayBeSkipping = true): number {
    const c = this.constants;
    const work = this.nodeWork(node);
    if (!work) return 0;
    const fastest = 1 / Math.max(c.flopsPerSecond, c.sparseFlopsPerSecond);
    const alone = work.flops * fastest;
    const inRow = work.flops * (this.isMatrixVector(node) ? Math.min(STREAMED_BYTES_PER_FLOP / c.memoryBandwidthBytesPerSecond, fastest) : fastest);
    const skipping = mayBeSkipping ? this.denseFlops(node) * minFraction * fastest : Infinity;
    return Math.min(alone, inRow, skipping);
  }
}

function densified(stats: NodeStats): NodeStats {
  if (stats.type.dataType !== "matrix" || stats.rows === null || stats.cols === null) return stats;
  return { type: stats.type, rows: stats.rows, cols: stats.cols, nnz: stats.rows * stats.cols };
}

/** The cost of one node run on its own (0 when the cost model cannot estimate it: an opaque call, an unknown size). */
export function nodeSeconds(dag: FusionDag, node: number, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  return new FusedCostModel(dag, constants).nodeSeconds(node);
}

/** Bytes of a node's value in its storage format (8 for a scalar, 0 when unknown). */
function valueBytes(dag: FusionDag, node: number): number {
  const s = dag.stats[node]!;
  if (s.type.dataType === "scalar") return 8;
  if (s.type.dataType !== "matrix" || s.rows === null || s.cols === null) return 0;
  const nnz = s.nnz ?? s.rows * s.cols;
  return matrixBytes({ kind: "matrix", rows: s.rows, cols: s.cols, nnz });
}

/** The sparsity of a matrix node (1 when unknown or empty). */
export function sparsity(dag: FusionDag, node: number): number {
  const s = dag.stats[node]!;
  if (s.type.dataType !== "matrix" || s.rows === null || s.cols === null || s.nnz === null || s.rows * s.cols === 0) return 1;
  return Math.min(1, s.nnz / (s.rows * s.cols));
}

/** The fraction of cells a sparse-safe operator visits: the main input's sparsity (1 when unknown or dense). */
function drivenFraction(dag: FusionDag, binding: OperatorBinding): number {
  if (!binding.sparseSafe || binding.mainInput === null) return 1;
  return sparsity(dag, binding.mainInput);
}

/** Seconds of a fused operator (see FusedCostModel.operatorSeconds). */
export function fusedOperatorSeconds(dag: FusionDag, op: FusedOperatorShape, constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): number {
  return new FusedCostModel(dag, constants).operatorSeconds(op);
}
