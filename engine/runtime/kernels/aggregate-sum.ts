/** sum, sumSq and mean over all cells, each row or each column, with Kahan summation (kahan.ts). */
import type { Matrix } from "../matrix";
import { kahanSum, kahanSumRanges, KahanColumns } from "./kahan";

export type SumFunction = "sum" | "sumSq" | "mean";

export function sumFull(fn: SumFunction, x: Matrix): number {
  const squared = fn === "sumSq";
  const s = x.format === "dense" ? kahanSum(x.data, 0, x.data.length, squared) : kahanSum(x.values, 0, x.nnz(), squared);
  return fn === "mean" ? s / (x.rows * x.cols) : s;
}

/** One value per row (rowSums, rowMeans, rowSums(X^2)). */
export function sumRows(fn: SumFunction, x: Matrix): Float64Array {
  const squared = fn === "sumSq";
  const out = new Float64Array(x.rows);
  if (x.format === "dense") kahanSumRanges(x.data, x.rows, null, x.cols, squared, out);
  else kahanSumRanges(x.values, x.rows, x.rowPtr, 0, squared, out);
  if (fn === "mean") for (let i = 0; i < x.rows; i++) out[i]! /= x.cols;
  return out;
}

/** One value per column (colSums, colMeans). */
export function sumCols(fn: SumFunction, x: Matrix): Float64Array {
  const squared = fn === "sumSq";
  const acc = new KahanColumns(x.cols);
  if (x.format === "dense") {
    for (let i = 0; i < x.rows; i++) acc.addRow(x.data, i * x.cols, squared);
  } else {
    const { colIdx, values } = x;
    const nnz = x.nnz();
    for (let p = 0; p < nnz; p++) acc.add(colIdx[p]!, squared ? values[p]! * values[p]! : values[p]!);
  }
  const out = new Float64Array(x.cols);
  for (let j = 0; j < x.cols; j++) out[j] = fn === "mean" ? acc.result(j) / x.rows : acc.result(j);
  return out;
}
