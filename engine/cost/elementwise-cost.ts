/**
 * Element-wise binary and unary operations and aggregates. Each reads its
 * inputs in full and writes its output; FLOPs are the operator's per-cell
 * weight (elementwise-ops.ts) times the cells it touches:
 *
 * binary, matrix–matrix (with row / column vector broadcasting; R×C output,
 * nnz′ = an input's non-zeros replicated to R×C):
 *   dense class (op(0,0) ≠ 0)            : R · C
 *   intersection (`*`, ...), both inputs stored dense : R · C
 *                            else        : nnz(output), the intersection
 *   union (`+`, ...), any input stored dense : R · C
 *                     both stored sparse : nnz′(A) + nnz′(B) − nnz′(A)·nnz′(B)/(R·C),
 *                                          the expected union under uniformity
 * binary, matrix–scalar: sparse-safe (op(0, s) = 0) → the matrix's touched
 *   cells (nnz if stored sparse, else all cells); else every cell
 * binary, scalar–scalar: one weight
 * unary: sparse-safe (f(0) = 0) → touched cells; else every cell
 * aggregate: perCell · touched cells + perOutput · output cells (a sparse
 *   input's zeros are accounted for by count, not visited)
 * Compute time uses the sparse throughput when the kernel walks a sparse input.
 */
import type { AggregateFunction, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../program";
import type { WorkResult } from "./cost-types";
import {
  aggregateWeights,
  binaryOpWeight,
  binarySparsityClass,
  isSparseSafeUnary,
  isSparseSafeWithScalar,
  unaryOpWeight,
} from "./elementwise-ops";
import { cellCount, isSparseFormat, type MatrixStats, type OperandStats } from "./operand-stats";
import { fail, ok, streamingWork, touchedCells } from "./work-helpers";

export function binaryWork(op: ElementwiseBinaryOp, inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length !== 2) return fail(`'${op}' needs 2 inputs, got ${inputs.length}`);
  const a = inputs[0]!;
  const b = inputs[1]!;
  const exponent = op === "^" && b.kind === "scalar" ? b.value : undefined;
  const weight = binaryOpWeight(op, exponent);
  if (a.kind === "scalar" && b.kind === "scalar") return ok(streamingWork(inputs, output, weight));
  if (a.kind === "matrix" && b.kind === "matrix") return matrixMatrix(op, weight, a, b, inputs, output);
  const matrix = (a.kind === "matrix" ? a : b) as MatrixStats;
  const scalar = a.kind === "scalar" ? a : b.kind === "scalar" ? b : undefined;
  const safe = isSparseSafeWithScalar(op, scalar?.value, a.kind === "scalar");
  const cells = safe ? touchedCells(matrix) : cellCount(matrix);
  return ok(streamingWork(inputs, output, weight * cells, safe && isSparseFormat(matrix)));
}

function matrixMatrix(
  op: ElementwiseBinaryOp,
  weight: number,
  a: MatrixStats,
  b: MatrixStats,
  inputs: readonly OperandStats[],
  output: OperandStats,
): WorkResult {
  const rows = Math.max(a.rows, b.rows);
  const cols = Math.max(a.cols, b.cols);
  for (const m of [a, b]) {
    if ((m.rows !== rows && m.rows !== 1) || (m.cols !== cols && m.cols !== 1)) {
      return fail(`'${op}': ${a.rows}×${a.cols} and ${b.rows}×${b.cols} are not the same shape or a valid broadcast`);
    }
  }
  const cells = rows * cols;
  const sparseA = isSparseFormat(a);
  const sparseB = isSparseFormat(b);
  const cls = binarySparsityClass(op);
  let touched = cells;
  let sparseKernel = false;
  if (cls === "intersection" && (sparseA || sparseB)) {
    touched = output.kind === "matrix" ? output.nnz : Math.min(expandedNnz(a, rows, cols), expandedNnz(b, rows, cols));
    sparseKernel = true;
  } else if (cls === "union" && sparseA && sparseB) {
    const za = expandedNnz(a, rows, cols);
    const zb = expandedNnz(b, rows, cols);
    touched = Math.min(cells, cells > 0 ? za + zb - (za * zb) / cells : 0);
    sparseKernel = true;
  }
  return ok(streamingWork(inputs, output, weight * touched, sparseKernel));
}

/** Non-zeros of `m` once broadcast to rows × cols. */
function expandedNnz(m: MatrixStats, rows: number, cols: number): number {
  return m.nnz * (m.rows === rows ? 1 : rows) * (m.cols === cols ? 1 : cols);
}

export function unaryWork(op: ElementwiseUnaryOp, inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length !== 1) return fail(`'${op}' needs 1 input, got ${inputs.length}`);
  const x = inputs[0]!;
  const weight = unaryOpWeight(op);
  if (x.kind === "scalar") return ok(streamingWork(inputs, output, weight));
  const safe = isSparseSafeUnary(op);
  const cells = safe ? touchedCells(x) : cellCount(x);
  return ok(streamingWork(inputs, output, weight * cells, safe && isSparseFormat(x)));
}

export function aggregateWork(fn: AggregateFunction, inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 1) return fail(`${fn} needs an input`);
  const x = inputs[0]!;
  const { perCell, perOutput } = aggregateWeights(fn);
  const touched = x.kind === "scalar" ? 1 : touchedCells(x);
  const outputCells = output.kind === "scalar" ? 1 : cellCount(output);
  return ok(streamingWork(inputs, output, perCell * touched + perOutput * outputCells, isSparseFormat(x)));
}
