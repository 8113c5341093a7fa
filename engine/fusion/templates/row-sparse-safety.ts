/**
 * Sparsity safety of a Row operator: whether skipping the empty rows of
 * its main input X (writing zeros for them) gives the same result. A Row
 * operator processes every non-empty row in full, so only empty rows
 * matter, and the question is per row, not per cell.
 *
 * The analysis follows the row-aligned values (row i belongs to X's row i:
 * X, the inputs with X's rows, cell-wise operations, row aggregates,
 * `Z %*% B`, `cbind`) and asks of each whether its row is all zeros when
 * X's row is: X's is; a cell-wise operation's by the cell rules of
 * zero-rules.ts (a broadcast row vector or an input of other rows is
 * unknown, a matrix known exactly to hold no non-zero is zero); a row sum, mean, min or max of
 * an all-zero row is 0 (rowIndexMax is 1, not zero); `Z %*% B` and `cbind`
 * are zero when Z (every operand) is. A row's contribution to a column
 * aggregation (colSums, colMeans, a full sum, `t(Z) %*% B`) must be zero:
 * Z's row zero (or B's, for the product); a column min or max needs every
 * row. A row-aligned root must be zero there too.
 */
import type { FusionDag } from "../fusion-dag";
import { isScalar, shapeOf } from "./node-shapes";
import { aggregateOf, isCellwise, isMatmul, isRowIndexAggregate, isTranspose, ZERO_SKIPPING_AGGREGATES } from "./operation-classes";
import { cellwiseIsZero, scalarAt, UNKNOWN, ZERO, type AtCell } from "./zero-rules";

export function isRowSparseSafe(dag: FusionDag, covered: ReadonlySet<number>, root: number, x: number): boolean {
  const rows = shapeOf(dag, x)?.rows;
  if (rows === undefined) return false;
  /** Row-aligned values: whether the row is all zeros when X's row is empty. */
  const zeroRow = new Map<number, boolean>([[x, true]]);
  /** Transposes of row-aligned values (only a product's left operand may read them). */
  const transposed = new Set<number>();
  const alignedInput = (i: number) => !covered.has(i) && !isScalar(dag, i) && shapeOf(dag, i)?.rows === rows;
  const aligned = (i: number) => zeroRow.has(i) || alignedInput(i);
  const zero = (i: number) => zeroRow.get(i) === true || (alignedInput(i) && dag.stats[i]?.nnz === 0 && dag.stats[i]?.nnzExact === true);
  for (const node of [...covered].sort((a, b) => a - b)) {
    const n = dag.nodes[node]!;
    const out = shapeOf(dag, node);
    if (isTranspose(dag, node)) {
      if (aligned(n.inputs[0]!)) transposed.add(node);
      continue;
    }
    if (isMatmul(dag, node)) {
      const [a, b] = n.inputs as [number, number];
      if (transposed.has(a)) {
        // t(Z) %*% B: row i adds Z[i, ]' B[i, ], nothing when either row is zero.
        if (!aligned(b) || !(zero(dag.nodes[a]!.inputs[0]!) || zero(b))) return false;
        continue;
      }
      if (aligned(a) && out?.rows === rows) zeroRow.set(node, zero(a));
      else if (n.inputs.some(aligned)) return false;
      continue;
    }
    const agg = aggregateOf(dag, node);
    if (agg) {
      const input = n.inputs[0]!;
      if (!aligned(input)) continue;
      if (agg.direction === "row") zeroRow.set(node, zero(input));
      else if (!ZERO_SKIPPING_AGGREGATES.has(agg.fn) || !zero(input)) return false;
      continue;
    }
    if (isRowIndexAggregate(dag, node)) {
      if (aligned(n.inputs[0]!)) zeroRow.set(node, false);
      continue;
    }
    if (n.op.kind === "cbind") {
      zeroRow.set(node, n.inputs.every(zero));
      continue;
    }
    if (isCellwise(dag, node) && out?.rows === rows) {
      const at = (i: number): AtCell => (zero(i) ? ZERO : isScalar(dag, i) ? scalarAt(dag, i) : UNKNOWN);
      zeroRow.set(node, cellwiseIsZero(dag, node, at) === true);
      continue;
    }
    if (n.inputs.some(aligned)) return false;
  }
  return !zeroRow.has(root) || zeroRow.get(root) === true;
}
