/**
 * Sparsity safety of a fused operator: whether visiting only the non-zero
 * cells of its main input gives the same result as visiting every cell.
 *
 * The analysis follows the values computed from the main input cell by cell
 * (the main input, cell-wise operations over it, their transposes) and
 * asks of each whether it is zero wherever the main input is zero (the
 * rules of zero-rules.ts). Such a value may be consumed inside the operator
 * only by a cell-wise operation, a transpose, a matrix product or a
 * sum-like aggregation (sum, sumSq, mean: a zero adds nothing), and then
 * it must be zero where the main input is; a min, max or any other
 * consumer needs every cell. A root that is such a value must be zero there
 * too (its zero cells are not written), and every root must be computed
 * from the main input (a multi-aggregate part that does not read it would
 * miss the cells where it is zero).
 */
import type { FusionDag } from "../fusion-dag";
import { sameShape, shapeOf, isScalar } from "./node-shapes";
import { aggregateOf, isMatmul, isTranspose, ZERO_SKIPPING_AGGREGATES } from "./operation-classes";
import { cellwiseIsZero, scalarAt, UNKNOWN, ZERO, type AtCell } from "./zero-rules";

/** How a value lines up with the main input's cells. */
type Alignment = "direct" | "transposed";

interface CellValue {
  alignment: Alignment;
  /** Zero wherever the main input is zero. */
  zero: boolean;
}

export function isSparseSafe(dag: FusionDag, covered: ReadonlySet<number>, roots: readonly number[], main: number): boolean {
  const mainShape = shapeOf(dag, main);
  if (!mainShape) return false;
  const values = new Map<number, CellValue>([[main, { alignment: "direct", zero: true }]]);
  const fromMain = new Set<number>([main]);
  for (const node of [...covered].sort((a, b) => a - b)) {
    const n = dag.nodes[node]!;
    if (n.inputs.some((i) => fromMain.has(i))) fromMain.add(node);
    const aligned = n.inputs.filter((i) => values.has(i));
    if (aligned.length === 0) continue;
    if (isTranspose(dag, node)) {
      const v = values.get(n.inputs[0]!)!;
      values.set(node, { alignment: v.alignment === "direct" ? "transposed" : "direct", zero: v.zero });
      continue;
    }
    const agg = aggregateOf(dag, node);
    if (agg || isMatmul(dag, node)) {
      // The cell values end here: summed, or (min, max, ...) compared with every cell.
      if (agg && !ZERO_SKIPPING_AGGREGATES.has(agg.fn)) return false;
      if (aligned.some((i) => !values.get(i)!.zero)) return false;
      continue;
    }
    const value = cellValue(dag, node, values, mainShape);
    if (!value) return false;
    values.set(node, value);
  }
  return roots.every((root) => fromMain.has(root) && (!values.has(root) || values.get(root)!.zero));
}

/** The cell value of a cell-wise operation over aligned operands (undefined: not cell-wise, mixed alignments or another shape). */
function cellValue(dag: FusionDag, node: number, values: ReadonlyMap<number, CellValue>, mainShape: { rows: number; cols: number }): CellValue | undefined {
  const alignments = new Set(dag.nodes[node]!.inputs.filter((i) => values.has(i)).map((i) => values.get(i)!.alignment));
  if (alignments.size !== 1) return undefined;
  const alignment = [...alignments][0]!;
  const expected = alignment === "direct" ? mainShape : { rows: mainShape.cols, cols: mainShape.rows };
  if (!sameShape(shapeOf(dag, node), expected)) return undefined;
  const at = (input: number): AtCell => {
    const v = values.get(input);
    if (v) return v.zero ? ZERO : UNKNOWN;
    return isScalar(dag, input) ? scalarAt(dag, input) : UNKNOWN;
  };
  const zero = cellwiseIsZero(dag, node, at);
  return zero === undefined ? undefined : { alignment, zero };
}
