/**
 * How a Row kernel holds one row of a row-wise value (a 1 x width slice):
 * - `scalar`: width 1, a JavaScript expression (a local name, a bound
 *   scalar or a literal);
 * - `dense`: `width` numbers at `arr[off + j]` (a dense input's row, a
 *   whole row vector, or a scratch vector with offset 0);
 * - `sparse`: the non-zeros of a CSR row, `vals[p]` at column `idx[p]`
 *   for p in [start, end).
 * Names are kernel identifiers (RowKernelText); `widthName` is the width
 * as bound in the kernel, `nnzPerRow` its expected stored cells (for the
 * work estimate).
 */

export type RowVectorCode =
  | { readonly kind: "scalar"; readonly expr: string }
  | { readonly kind: "dense"; readonly arr: string; readonly off: string; readonly width: number; readonly widthName: string }
  | {
      readonly kind: "sparse";
      readonly vals: string;
      readonly idx: string;
      readonly start: string;
      readonly end: string;
      readonly width: number;
      readonly widthName: string;
      readonly nnzPerRow: number;
    };

export function widthOf(code: RowVectorCode): number {
  return code.kind === "scalar" ? 1 : code.width;
}

/** Cells a loop over the code visits per row (stored cells of a sparse row). */
export function cellsVisited(code: RowVectorCode): number {
  return code.kind === "scalar" ? 1 : code.kind === "dense" ? code.width : code.nnzPerRow;
}

/** Element j of a dense or scalar code (`j` a loop variable's name): a scalar is broadcast. */
export function elementAt(code: Exclude<RowVectorCode, { kind: "sparse" }>, j: string): string {
  return code.kind === "scalar" ? code.expr : code.off === "0" ? `${code.arr}[${j}]` : `${code.arr}[${code.off} + ${j}]`;
}
