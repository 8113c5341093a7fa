/**
 * How a Row kernel's roots become values once every row is seen: a
 * row-wise root's own output array (transposed for a transposed row),
 * compensated column or full sums (sum, sumSq, mean) and folds (min, max,
 * prod) from the combined accumulators, an accumulated product, or a whole
 * value computed before the kernel ran.
 */
import type { AggregateFunction } from "../../program";
import { double, type Value } from "../interpreter";
import { transpose } from "../kernels";
import { DenseMatrix, settleFormat } from "../matrix";

export type RowRootResult =
  | { readonly kind: "whole"; readonly root: number; readonly value: Value }
  | { readonly kind: "rows"; readonly root: number; readonly data: Float64Array; readonly width: number; readonly transposed: boolean }
  | {
      readonly kind: "sum";
      readonly root: number;
      readonly fn: AggregateFunction;
      readonly direction: "col" | "full";
      /** Columns of the aggregated rows. */
      readonly width: number;
      readonly rows: number;
      /** First slots of the compensated sums (per column; a full sum has two, by the parity of the cell's index), their compensations and the plain sums. */
      readonly sum: number;
      readonly compensation: number;
      readonly plain: number;
    }
  | { readonly kind: "fold"; readonly root: number; readonly direction: "col" | "full"; readonly width: number; readonly start: number }
  | { readonly kind: "product"; readonly root: number; readonly rows: number; readonly cols: number; readonly start: number };

/** The root's value from its output array (`rows` rows) or the combined accumulators. */
export function rootValue(result: RowRootResult, rows: number, acc: Float64Array): Value {
  switch (result.kind) {
    case "whole":
      return result.value;
    case "rows": {
      const m = new DenseMatrix(rows, result.width, result.data);
      return { kind: "matrix", matrix: settleFormat(result.transposed ? transpose(m) : m) };
    }
    case "sum": {
      const sumOf = (compensated: number, plain: number) => {
        const sum = compensated - compensated === 0 ? compensated : plain;
        return result.fn === "mean" ? sum / (result.direction === "col" ? result.rows : result.rows * result.width) : sum;
      };
      if (result.direction === "full") {
        // Two compensated sums (cells by parity), combined as kahan.ts does.
        const [s0, s1, c0, c1] = [acc[result.sum]!, acc[result.sum + 1]!, acc[result.compensation]!, acc[result.compensation + 1]!];
        const y = s1 - c1 - c0;
        const t = s0 + y;
        return double(sumOf(t - (t - s0 - y), acc[result.plain]!));
      }
      // A column's compensated sum, as KahanColumns (kahan.ts).
      const values = new Float64Array(result.width);
      for (let j = 0; j < result.width; j++) values[j] = sumOf(acc[result.sum + j]!, acc[result.plain + j]!);
      return { kind: "matrix", matrix: settleFormat(new DenseMatrix(1, result.width, values)) };
    }
    case "fold": {
      if (result.direction === "full") return double(acc[result.start]!);
      return { kind: "matrix", matrix: settleFormat(new DenseMatrix(1, result.width, acc.slice(result.start, result.start + result.width))) };
    }
    case "product":
      return { kind: "matrix", matrix: settleFormat(new DenseMatrix(result.rows, result.cols, acc.slice(result.start, result.start + result.rows * result.cols))) };
  }
}
