/**
 * Runs a Cell or MAgg operator's generated loop on its input values: the
 * roots' common domain and how its cells are visited (as the reference
 * skeleton's `visitedCells`), the kernel (cell-kernel.ts) run through
 * runKernel, the compensated sums redone without compensation where they
 * are not finite (the runtime's rule, kernels/kahan.ts), skipped zeros of
 * a sparse-safe CSR main input folded into min / max / prod, and each
 * root's value in the kind the reference gives it. What the generated
 * code cannot do for these values throws UnsupportedOperator (the caller
 * then runs the nodes unfused).
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { FusedOperatorError, operatorShapes, shapeText, type NodeShape } from "../fused";
import { double, matrixValue, type Value } from "../interpreter";
import { bufferPool, CsrMatrix, dropZeros, DenseMatrix, settleFormat, allocateF64, copyI32, csrShared, pooledZeros } from "../matrix";
import { extremumOf, foldZero, isSumFold } from "./cell-folds";
import { cellKernel, type CellKernelSource, type CellLoop, type CellVisit } from "./cell-kernel";
import { checkCoveredNodes, type CellRootPlan } from "./cell-roots";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";
import type { KernelProgram } from "./kernel-program";
import { runKernel } from "./kernel-runner";

/** The operator's kernel sources by cellKernelKey, and the kernels it has run (once per source). */
export class CellKernels {
  readonly sources = new Map<string, CellKernelSource>();
  readonly programs: KernelProgram[] = [];

  ran(program: KernelProgram): void {
    if (!this.programs.some((p) => p.source === program.source)) this.programs.push(program);
  }
}

/** A Cell or MAgg operator whose roots run in one generated loop over their common domain. */
export function cellLoopOperator(dag: FusionDag, op: FusedOperator, roots: readonly CellRootPlan[]): GeneratedOperator {
  checkCoveredNodes(dag, op);
  const kernels = new CellKernels();
  return {
    template: op.template,
    roots: op.roots,
    covered: op.covered,
    inputs: op.inputs,
    programs: kernels.programs,
    run: (valueOf) => runCellLoop(dag, op, roots, valueOf, kernels),
  };
}

/** The roots' values. */
export function runCellLoop(dag: FusionDag, op: FusedOperator, roots: readonly CellRootPlan[], valueOf: (node: number) => Value, kernels: CellKernels): Map<number, Value> {
  const values = new Map<number, Value>(op.inputs.map((node) => [node, valueOf(node)]));
  const unsupported = (why: string): never => {
    throw new UnsupportedOperator(`${op.template} operator ${op.id}: ${why}`);
  };
  let shapes: Map<number, NodeShape>;
  try {
    shapes = operatorShapes(dag, op, values);
  } catch (error) {
    if (error instanceof FusedOperatorError) unsupported(error.message);
    throw error;
  }
  const shape = (node: number) => shapes.get(node) ?? unsupported(`node ${node} has no shape`);
  const domain = shape(roots[0]!.domainNode);
  if (domain.scalar) unsupported("its cells are a scalar's: there is no loop");
  for (const root of roots) {
    const d = shape(root.domainNode);
    if (d.scalar || d.rows !== domain.rows || d.cols !== domain.cols) unsupported(`roots over different domains (${shapeText(domain)} and ${shapeText(d)})`);
    if (root.fold.kind === "dot" && (shape(root.node).rows !== 1 || shape(root.node).cols !== 1 || domain.cols !== 1)) unsupported(`a matrix product other than a dot product (${shapeText(shape(root.node))})`);
  }
  const loop: CellLoop = { dag, op, values, shapes, roots, domain, visit: cellVisit(op, values, shapes, domain, unsupported) };
  const outputLength = (root: CellRootPlan) => {
    if (root.fold.kind === "cells") return loop.visit.kind === "walk" ? loop.visit.matrix.nnz() : -1;
    return root.fold.kind === "aggregate" && root.fold.direction === "row" ? domain.rows : 0;
  };
  const length = roots.length === 1 ? outputLength(roots[0]!) : 0;
  // outputs in kernel memory (shared when large, so the runner may split the rows over threads)
  const csrOut = loop.visit.kind === "walk" && length >= 0 && roots[0]!.fold.kind === "cells";
  // A loop over every cell writes each one: its dense output need not be cleared first.
  const denseOutput = () => (loop.visit.kind === "all" ? bufferPool.acquire(domain.rows * domain.cols) : pooledZeros(domain.rows, domain.cols).data);
  const newOutput = () => (length < 0 ? denseOutput() : csrOut ? allocateF64(length, csrShared(domain.rows, length)) : bufferPool.acquireZeroed(length));
  const kernelLoop = flatLoop(loop) ?? loop;
  const compensated = runOnce(kernelLoop, false, newOutput(), kernels);
  const needsPlain = roots.some((root, k) => isSumFold(root.fold) && !sumsFinite(loop, root, compensated, k));
  const plain = needsPlain ? runOnce(kernelLoop, true, newOutput(), kernels) : undefined;
  const results = new Map(roots.map((root, k) => [root.node, rootValue(loop, root, k, compensated, plain)]));
  releaseUnusedOutputs([compensated.out, plain?.out], results.values());
  return results;
}

/** Operations that compute a cell from the same cell of their operands (and scalars). */
const CELL_BY_CELL: ReadonlySet<string> = new Set(["literal", "binary", "unary", "cast", "ifelse"]);

/**
 * The loop over a rows x cols domain as one over its rows * cols cells in
 * one column, when that visits the same cells in the same (row-major)
 * order: every cell is visited, every matrix input is dense with the
 * domain's shape (its row-major values are that column), the operator
 * computes cell by cell (no transpose, index or product), and each root
 * writes its cells or folds all of them. The generated kernel then runs one
 * loop over the cells instead of a loop over the n columns of each row
 * (ALS-CG's 5,000 x 10 updates). Undefined otherwise, and for a domain of
 * one column already.
 */
function flatLoop(loop: CellLoop): CellLoop | undefined {
  const { rows, cols } = loop.domain;
  if (cols === 1 || loop.visit.kind !== "all") return undefined;
  const rootNodes = new Set(loop.roots.map((root) => root.node));
  for (const root of loop.roots) if (!(root.fold.kind === "cells" || (root.fold.kind === "aggregate" && root.fold.direction === "full"))) return undefined;
  for (const node of loop.op.covered) if (!CELL_BY_CELL.has(loop.dag.nodes[node]!.op.kind) && !rootNodes.has(node)) return undefined;
  const values = new Map<number, Value>();
  for (const [node, value] of loop.values) {
    if (value.kind !== "matrix") values.set(node, value);
    else if (value.matrix.format === "dense" && value.matrix.rows === rows && value.matrix.cols === cols) values.set(node, matrixValue(new DenseMatrix(rows * cols, 1, value.matrix.data)));
    else return undefined;
  }
  const column = { rows: rows * cols, cols: 1, scalar: false };
  const shapes = new Map<number, NodeShape>();
  for (const [node, shape] of loop.shapes) {
    if (!shape.scalar && (shape.rows !== rows || shape.cols !== cols)) return undefined;
    shapes.set(node, shape.scalar ? shape : column);
  }
  return { ...loop, values, shapes, domain: { rows: rows * cols, cols: 1 } };
}

/** Gives the kernel outputs no result kept (row aggregates copied out, a dense result made sparse) back to the pool. */
function releaseUnusedOutputs(outputs: readonly (Float64Array | undefined)[], results: Iterable<Value>): void {
  const kept = new Set<ArrayBufferLike>();
  for (const v of results) if (v.kind === "matrix") kept.add(v.matrix.format === "dense" ? v.matrix.data.buffer : v.matrix.values.buffer);
  for (const out of outputs) if (out !== undefined && !kept.has(out.buffer)) bufferPool.release(out);
}

interface LoopResult {
  acc: Float64Array;
  out: Float64Array;
  bases: readonly number[];
}

function runOnce(loop: CellLoop, plain: boolean, output: Float64Array, kernels: CellKernels): LoopResult {
  const kernel = cellKernel(loop, plain, output, kernels.sources);
  try {
    const acc = runKernel(kernel.call);
    kernels.ran(kernel.call.program);
    return { acc, out: output, bases: kernel.bases };
  } finally {
    kernel.release();
  }
}

/** Which cells the loop visits (the reference's visitedCells). */
function cellVisit(op: FusedOperator, values: ReadonlyMap<number, Value>, shapes: ReadonlyMap<number, NodeShape>, domain: NodeShape, unsupported: (why: string) => never): CellVisit {
  const main = op.binding.mainInput;
  if (main === null) {
    if (op.binding.sparseSafe) unsupported("sparse-safe without a main input");
    return { kind: "all" };
  }
  const value = values.get(main);
  if (!value || value.kind !== "matrix") return unsupported(`the main input ${main} is not a matrix`);
  const m = value.matrix;
  const same = m.rows === domain.rows && m.cols === domain.cols;
  const transposed = (domain.rows === 1 || domain.cols === 1) && m.rows === domain.cols && m.cols === domain.rows;
  if (!same && !transposed) unsupported(`the main input is ${m.rows} x ${m.cols} but the cells computed are ${shapeText(domain)}`);
  if (!op.binding.sparseSafe) return { kind: "all" };
  if (same && m.format === "sparse") return { kind: "walk", main, matrix: m };
  return { kind: "main-non-zero", main, mainShape: shapes.get(main)!, transposed: !same };
}

/** Whether the compensated sums of a sum root are all finite. */
function sumsFinite(loop: CellLoop, root: CellRootPlan, result: LoopResult, k: number): boolean {
  const { acc, out } = result;
  const base = result.bases[k]!;
  if (root.fold.kind === "aggregate" && root.fold.direction === "row") {
    // A plain loop: `every` with a closure over a million row sums cost tens of milliseconds.
    for (let i = 0; i < out.length; i++) if (out[i]! - out[i]! !== 0) return false;
    return true;
  }
  if (root.fold.kind === "aggregate" && root.fold.direction === "col") {
    const n = loop.domain.cols;
    for (let j = 0; j < n; j++) if (!Number.isFinite(acc[j]!)) return false;
    return true;
  }
  return Number.isFinite(acc[base]! - acc[base + 1]!);
}

function rootValue(loop: CellLoop, root: CellRootPlan, k: number, compensated: LoopResult, plain: LoopResult | undefined): Value {
  const { rows, cols } = loop.domain;
  const fold = root.fold;
  const base = compensated.bases[k]!;
  const walked = loop.visit.kind === "walk" ? loop.visit.matrix : undefined;
  if (fold.kind === "cells") {
    if (walked) {
      const shared = csrShared(rows, walked.nnz());
      const m = new CsrMatrix(rows, cols, copyI32(walked.rowPtr, 0, rows + 1, shared), copyI32(walked.colIdx, 0, walked.nnz(), shared), compensated.out);
      return { kind: "matrix", matrix: settleFormat(dropZeros(m)) };
    }
    return { kind: "matrix", matrix: settleFormat(new DenseMatrix(rows, cols, compensated.out)) };
  }
  /** A compensated sum, or the plain one where it is not finite. */
  const sum = (kahan: number, plainSum: () => number) => (kahan - kahan === 0 || plain === undefined ? kahan : plainSum());
  const ext = extremumOf(fold);
  if (fold.kind === "dot" || fold.direction === "full") {
    let r: number;
    if (ext !== undefined) {
      r = compensated.acc[base]!;
      if (walked && walked.nnz() < rows * cols) r = foldZero(ext, r);
    } else {
      r = sum(compensated.acc[base]! - compensated.acc[base + 1]!, () => plain!.acc[plain!.bases[k]!]! - plain!.acc[plain!.bases[k]! + 1]!);
      if (fold.kind === "aggregate" && fold.fn === "mean") r /= rows * cols;
    }
    return fold.kind === "dot" ? { kind: "matrix", matrix: DenseMatrix.filled(1, 1, r) } : double(r);
  }
  if (fold.direction === "row") {
    // A row fold's root is its operator's only root, so the kernel wrote row i's compensated sum or extremum to out[i]
    // (an output of `rows` numbers): each is finished there, read once and replaced.
    const out = compensated.out;
    if (ext !== undefined) {
      if (walked) for (let i = 0; i < rows; i++) out[i] = walked.rowPtr[i + 1]! - walked.rowPtr[i]! < cols ? foldZero(ext, out[i]!) : out[i]!;
    } else {
      const fallback = plain?.out;
      const divisor = fold.fn === "mean" ? cols : 1;
      for (let i = 0; i < rows; i++) {
        const r = out[i]!;
        out[i] = (fallback === undefined || r - r === 0 ? r : fallback[i]!) / divisor;
      }
    }
    return { kind: "matrix", matrix: settleFormat(new DenseMatrix(rows, 1, out)) };
  }
  const out = allocateF64(cols);
  const counts = walked && ext !== undefined ? columnCounts(walked) : undefined;
  for (let j = 0; j < cols; j++) {
    if (ext !== undefined) {
      const r = compensated.acc[j]!;
      out[j] = counts && counts[j]! < rows ? foldZero(ext, r) : r;
    } else {
      // the column's compensated sum as KahanColumns.result gives it (its last correction not applied)
      out[j] = sum(compensated.acc[j]!, () => plain!.acc[j]!);
      if (fold.fn === "mean") out[j]! /= rows;
    }
  }
  return { kind: "matrix", matrix: settleFormat(new DenseMatrix(1, cols, out)) };
}

function columnCounts(m: CsrMatrix): Int32Array {
  const counts = new Int32Array(m.cols);
  const nnz = m.nnz();
  for (let p = 0; p < nnz; p++) counts[m.colIdx[p]!]!++;
  return counts;
}
