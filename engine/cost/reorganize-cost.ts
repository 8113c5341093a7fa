/**
 * Operations that move values without arithmetic: no FLOPs (except
 * `table`), only bytes.
 *
 *   t(X)          reads X, writes the output; a sparse X is transposed with a
 *                 per-column count array (4 · cols bytes of temporary)
 *   X[rl:ru, ..]  reads the slice (the output's bytes, as if contiguous) and
 *                 the bound scalars, writes the output; X must be resident
 *   X[..] = Y     copy semantics, as SystemDS outside update-in-place loops:
 *                 reads X, Y and the bounds, writes the new X
 *   cbind, rbind  read every input, write the output
 *   diag(v)       vector → diagonal matrix: reads v, writes the output
 *   diag(M)       matrix → its diagonal: reads the diagonal (the output's
 *                 bytes), writes the output
 *   table(A, B…)  one pair per cell of the largest input, 3 FLOPs each
 *                 (SystemDS's CTABLE weight); reads the inputs, writes the output
 */
import type { WorkResult } from "./cost-types";
import { cellCount, isSparseFormat, operandBytes, type OperandStats } from "./operand-stats";
import { fail, matrixInput, ok, scalarBytes, streamingWork } from "./work-helpers";

const TABLE_FLOPS_PER_PAIR = 3;

export function transposeWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  const x = matrixInput(inputs, 0, "t");
  if (typeof x === "string") return fail(x);
  return ok({ ...streamingWork(inputs, output, 0), temporaryBytes: isSparseFormat(x) ? 4 * x.cols : 0 });
}

export function indexWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 1) return fail("indexing needs an input");
  const bounds = inputs.slice(1);
  return ok({
    ...streamingWork([], output, 0),
    bytesRead: operandBytes(output) + scalarBytes(bounds),
  });
}

export function leftIndexWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 2) return fail(`left indexing needs 2 inputs, got ${inputs.length}`);
  return ok(streamingWork(inputs, output, 0));
}

export function bindWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 1) return fail("cbind / rbind needs an input");
  return ok(streamingWork(inputs, output, 0));
}

export function diagWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length !== 1) return fail(`diag needs 1 input, got ${inputs.length}`);
  const x = inputs[0]!;
  if (x.kind === "matrix" && x.cols > 1) {
    // Matrix → diagonal: only the diagonal is read.
    return ok({ ...streamingWork([], output, 0), bytesRead: operandBytes(output) });
  }
  return ok(streamingWork(inputs, output, 0));
}

export function tableWork(inputs: readonly OperandStats[], output: OperandStats): WorkResult {
  if (inputs.length < 2) return fail(`table needs at least 2 inputs, got ${inputs.length}`);
  const pairs = Math.max(1, ...inputs.map((o) => (o.kind === "matrix" ? cellCount(o) : 1)));
  return ok(streamingWork(inputs, output, TABLE_FLOPS_PER_PAIR * pairs));
}
