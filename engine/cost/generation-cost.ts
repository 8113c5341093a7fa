/**
 * Operations that create values: seq, matrix, rand, read, and casts.
 *
 *   seq(from, to, by)  one addition per element; reads the 3 scalars, writes
 *                      the output
 *   matrix(v, ...)     scalar v: a fill, no FLOPs; matrix v: a reshape, reads v;
 *                      writes the output
 *   rand(...)          RAND_FLOPS_PER_DRAW per random draw: a sparse output
 *                      draws a position and a value per non-zero (2 · nnz), a
 *                      dense one a value per cell, plus a keep-or-zero draw per
 *                      cell when sparsity < 1 (cells + nnz); writes the output
 *   read(...)          reads the output's bytes from disk (SystemDS's binary
 *                      format; text files are larger and their parsing is not
 *                      modelled) and writes them to memory; holds only the output
 *   as.scalar / as.matrix / as.frame / as.list
 *                      a copy: reads the input, writes the output
 *   as.double / as.integer / as.logical
 *                      1 FLOP per touched cell (the casts map 0 to 0)
 */
import type { DagOp } from "../program";
import type { WorkResult } from "./cost-types";
import { cellCount, isSparseFormat, operandBytes, type OperandStats } from "./operand-stats";
import { fail, ok, streamingWork, touchedCells } from "./work-helpers";

/** FLOP-equivalents of one pseudo-random draw (a PRNG step and a conversion to double). */
const RAND_FLOPS_PER_DRAW = 8;

export function seqWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  const n = output.kind === "matrix" ? cellCount(output) : 1;
  return ok(streamingWork(inputs, output, n));
}

export function matrixWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 1) return fail("matrix(...) needs a data argument");
  return ok(streamingWork(inputs, output, 0));
}

export function randWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (output.kind !== "matrix") return fail("rand: the output is not a matrix");
  const cells = cellCount(output);
  const draws = isSparseFormat(output) ? 2 * output.nnz : output.nnz === cells ? cells : cells + output.nnz;
  return ok(streamingWork(inputs, output, RAND_FLOPS_PER_DRAW * draws));
}

export function readWork(output: OperandStats): WorkResult {
  const bytes = operandBytes(output);
  return ok({
    flops: 0,
    bytesRead: bytes,
    diskBytesRead: bytes,
    bytesWritten: bytes,
    temporaryBytes: 0,
    sparseKernel: false,
    peakMemoryBytes: bytes,
  });
}

export function castWork(to: Extract<DagOp, { kind: "cast" }>["to"], inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length !== 1) return fail(`as.${to} needs 1 input, got ${inputs.length}`);
  const x = inputs[0]!;
  if (to === "double" || to === "int" || to === "boolean") {
    const touched = x.kind === "matrix" ? touchedCells(x) : 1;
    return ok(streamingWork(inputs, output, touched, x.kind === "matrix" && isSparseFormat(x)));
  }
  return ok(streamingWork(inputs, output, 0));
}
