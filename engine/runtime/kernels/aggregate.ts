/**
 * The aggregates of the LA DAG: sum, mean, min, max, prod, sumSq, var, sd
 * over all cells (`full`, a number), each row (`row`: rowSums, ..., an
 * m x 1 column vector) or each column (`col`: colSums, ..., a 1 x n row
 * vector). Sums use Kahan summation as SystemDS; var and sd are sample
 * statistics (n - 1).
 */
import type { AggregateDirection, AggregateFunction } from "../../program";
import { DenseMatrix, settleFormat, type Matrix } from "../matrix";
import { extremumCols, extremumFull, extremumRows } from "./aggregate-extrema";
import { sumCols, sumFull, sumRows } from "./aggregate-sum";
import { varianceCols, varianceFull, varianceRows } from "./aggregate-variance";

export function aggregateFull(fn: AggregateFunction, x: Matrix): number {
  switch (fn) {
    case "sum":
    case "sumSq":
    case "mean":
      return sumFull(fn, x);
    case "min":
    case "max":
    case "prod":
      return extremumFull(fn, x);
    case "var":
    case "sd":
      return varianceFull(fn, x);
  }
}

/** One value per row, as an m x 1 matrix. */
export function aggregateRows(fn: AggregateFunction, x: Matrix): Matrix {
  const values = perRow(fn, x);
  return settleFormat(new DenseMatrix(x.rows, 1, values));
}

/** One value per column, as a 1 x n matrix. */
export function aggregateCols(fn: AggregateFunction, x: Matrix): Matrix {
  const values = perCol(fn, x);
  return settleFormat(new DenseMatrix(1, x.cols, values));
}

/** `aggregateFull`, `aggregateRows` or `aggregateCols` by direction. */
export function aggregate(fn: AggregateFunction, direction: AggregateDirection, x: Matrix): number | Matrix {
  if (direction === "full") return aggregateFull(fn, x);
  return direction === "row" ? aggregateRows(fn, x) : aggregateCols(fn, x);
}

function perRow(fn: AggregateFunction, x: Matrix): Float64Array {
  switch (fn) {
    case "sum":
    case "sumSq":
    case "mean":
      return sumRows(fn, x);
    case "min":
    case "max":
    case "prod":
      return extremumRows(fn, x);
    case "var":
    case "sd":
      return varianceRows(fn, x);
  }
}

function perCol(fn: AggregateFunction, x: Matrix): Float64Array {
  switch (fn) {
    case "sum":
    case "sumSq":
    case "mean":
      return sumCols(fn, x);
    case "min":
    case "max":
    case "prod":
      return extremumCols(fn, x);
    case "var":
    case "sd":
      return varianceCols(fn, x);
  }
}
