/**
 * What a value measured at run time tells the analysis: a matrix's exact
 * dims, its exact non-zeros when it is sparse (a dense one is taken as
 * full: counting would read every cell at every block, and the format rule
 * already says it is mostly non-zero), a scalar's type (not its value: a
 * plan compiled for one loop iteration must hold for the next), or its value
 * too when `withValue` (a scalar that decides sizes: size-scalars.ts).
 * A small matrix (SMALL_MATRIX_CELLS) is taken as full whatever its format:
 * its format decides nothing worth a compilation, and a loop's all-zero
 * start (`B = matrix(0, rows=d, cols=k - 1)`, kept sparse) then shares its
 * plan with the dense values that follow.
 */
import type { NodeStats } from "../stats/sizes/node-stats";
import { matrixStats, scalarStats, unknownStats } from "../stats/sizes/node-stats";
import type { Value } from "../runtime/interpreter";

export function statsOfValue(value: Value, withValue = false): NodeStats {
  switch (value.kind) {
    case "matrix": {
      const m = value.matrix;
      return m.format === "dense" || isSmall(m.rows, m.cols) ? matrixStats(m.rows, m.cols, m.rows * m.cols) : matrixStats(m.rows, m.cols, m.rowPtr[m.rows]!, true);
    }
    case "scalar":
      return scalarStats({ dataType: "scalar", valueType: value.type }, withValue ? value.value : undefined);
    case "frame":
      return { type: { dataType: "frame", valueType: "unknown" }, rows: value.frame.rows, cols: value.frame.columns.length, nnz: null };
    case "list":
      return unknownStats;
  }
}

/** Matrices of at most this many cells are known by their dims alone (not their format or non-zeros). */
export const SMALL_MATRIX_CELLS = 1024;

function isSmall(rows: number, cols: number): boolean {
  return rows * cols <= SMALL_MATRIX_CELLS;
}

/**
 * The part of a value's stats a compiled plan depends on: dims, the format,
 * and a sparse matrix's density to a factor of 2 (a plan is recompiled when
 * one of these changes: SystemDS's dynamic recompilation); a small matrix's
 * dims only.
 */
export function valueSignature(value: Value): string {
  // An int that becomes a double (`s = 0` then `s = s + 0.5`) keeps its plan: plans never depend on a number's value type.
  if (value.kind === "scalar") return value.type === "int" || value.type === "double" ? "number" : value.type;
  if (value.kind === "matrix") {
    const m = value.matrix;
    if (isSmall(m.rows, m.cols)) return `${m.rows}x${m.cols}:small`;
    if (m.format === "dense") return `${m.rows}x${m.cols}:dense`;
    const cells = m.rows * m.cols;
    const nnz = m.rowPtr[m.rows]!;
    const density = cells === 0 || nnz === 0 ? "0" : String(Math.round(Math.log2(nnz / cells)));
    return `${m.rows}x${m.cols}:sparse:${density}`;
  }
  return value.kind;
}
