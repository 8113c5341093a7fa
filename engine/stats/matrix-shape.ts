/**
 * Shapes, broadcasting and aggregation axes shared by the exact structure
 * operations and the sparsity estimators.
 */

export interface MatrixShape {
  readonly rows: number;
  readonly cols: number;
}

/**
 * The index an aggregate sums away. `"cols"` sums over the columns of each
 * row (DML `rowSums`, result rows x 1), `"rows"` sums over the rows of each
 * column (`colSums`, result 1 x cols), `"all"` over both (`sum`, 1 x 1).
 * Non-zero semantics are those of sum/max/min/mean without cancellation: an
 * output cell is non-zero exactly when its slice holds a non-zero.
 */
export type AggregateAxis = "rows" | "cols" | "all";

/** The shape of `aggregate(s, over)`. */
export function aggregateShape(shape: MatrixShape, over: AggregateAxis): MatrixShape {
  if (over === "cols") return { rows: shape.rows, cols: 1 };
  if (over === "rows") return { rows: 1, cols: shape.cols };
  return { rows: 1, cols: 1 };
}

/**
 * How an element-wise input reaches the output shape, as in DML: the same
 * shape, a column vector repeated across columns, a row vector repeated down
 * rows, or a 1 x 1 repeated everywhere.
 */
export type Broadcast = "same" | "column" | "row" | "scalar";

export function broadcastOf(input: MatrixShape, output: MatrixShape): Broadcast {
  if (input.rows === output.rows && input.cols === output.cols) return "same";
  if (input.rows === 1 && input.cols === 1) return "scalar";
  if (input.rows === output.rows && input.cols === 1) return "column";
  if (input.rows === 1 && input.cols === output.cols) return "row";
  throw new RangeError(
    `a ${input.rows} x ${input.cols} input does not broadcast to a ${output.rows} x ${output.cols} element-wise result`,
  );
}

/** The shape of an element-wise operation over `inputs` (the largest extent per dimension). */
export function elementwiseShape(inputs: readonly MatrixShape[]): MatrixShape {
  const shape = {
    rows: Math.max(0, ...inputs.map((s) => s.rows)),
    cols: Math.max(0, ...inputs.map((s) => s.cols)),
  };
  for (const input of inputs) broadcastOf(input, shape);
  return shape;
}

export function productShape(a: MatrixShape, b: MatrixShape): MatrixShape {
  if (a.cols !== b.rows) {
    throw new RangeError(`matrix multiply of ${a.rows} x ${a.cols} and ${b.rows} x ${b.cols}: inner dimensions differ`);
  }
  return { rows: a.rows, cols: b.cols };
}
