/**
 * `A %*% B` with A m×k and B k×n. FLOPs by storage format (2 per
 * multiply-add; ReMac's 3 counts the additions apart, the ratio between
 * plans is the same):
 *   dense  × dense : 2 · m · k · n
 *   sparse × dense : 2 · nnz(A) · n
 *   dense  × sparse: 2 · m · nnz(B)
 *   sparse × sparse: 2 · Σ_j nnz(A[:,j]) · nnz(B[j,:]), the expected number of
 *                    intermediate products, ≈ 2 · nnz(A) · nnz(B) / k under
 *                    uniformly placed non-zeros
 * Reads both inputs, writes the output; sparse × sparse keeps a dense
 * accumulator row of n doubles (8 · n bytes) as SystemDS's kernel does.
 * A scalar operand counts as a 1×1 matrix.
 */
import type { WorkResult } from "./cost-types";
import { asMatrix, isSparseFormat, type OperandStats } from "./operand-stats";
import { fail, ok, streamingWork } from "./work-helpers";

export function matmulWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length !== 2) return fail(`%*% needs 2 inputs, got ${inputs.length}`);
  const a = asMatrix(inputs[0]!);
  const b = asMatrix(inputs[1]!);
  if (a.cols !== b.rows) return fail(`%*%: inner dimensions differ (${a.rows}×${a.cols} %*% ${b.rows}×${b.cols})`);
  const m = a.rows;
  const k = a.cols;
  const n = b.cols;
  const sparseA = isSparseFormat(a);
  const sparseB = isSparseFormat(b);
  let flops: number;
  let temporaryBytes = 0;
  if (!sparseA && !sparseB) flops = 2 * m * k * n;
  else if (sparseA && !sparseB) flops = 2 * a.nnz * n;
  else if (!sparseA && sparseB) flops = 2 * m * b.nnz;
  else {
    flops = k > 0 ? (2 * a.nnz * b.nnz) / k : 0;
    temporaryBytes = 8 * n;
  }
  return ok({ ...streamingWork(inputs, output, flops, sparseA || sparseB), temporaryBytes });
}
