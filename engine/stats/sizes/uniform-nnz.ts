/**
 * Non-zero estimates under SystemDS's average-case assumption (non-zeros
 * uniformly spread), as in `OptimizerUtils.getMatMultSparsity` and Galley's
 * uniform estimator. Each returns null when an input count is unknown.
 */
import type { AggregateDirection, AggregateFunction } from "../../program";
import { cells, type NodeStats, sparsity } from "./node-stats";

/** `A %*% B` (m x k times k x n): m·n·(1 − (1 − sA·sB)^k). */
export function matmulNnz(a: NodeStats, b: NodeStats): number | null {
  const sa = sparsity(a);
  const sb = sparsity(b);
  if (sa === null || sb === null || a.rows === null || b.cols === null || a.cols === null) return null;
  const density = 1 - Math.pow(1 - sa * sb, a.cols);
  return a.rows * b.cols * density;
}

/** `A * B` with broadcasting: out cells · sA · sB. */
export function intersectionNnz(a: NodeStats, b: NodeStats, out: NodeStats): number | null {
  const sa = sparsity(a);
  const sb = sparsity(b);
  const n = cells(out);
  if (sa === null || sb === null || n === null) return null;
  return n * sa * sb;
}

/** `A + B` with broadcasting: out cells · (sA + sB − sA·sB). */
export function unionNnz(a: NodeStats, b: NodeStats, out: NodeStats): number | null {
  const sa = sparsity(a);
  const sb = sparsity(b);
  const n = cells(out);
  if (sa === null || sb === null || n === null) return null;
  return n * (sa + sb - sa * sb);
}

/** Row or column aggregates: an output cell is non-zero when its row (column) holds a non-zero (all, for prod). */
export function aggregateNnz(fn: AggregateFunction, direction: AggregateDirection, a: NodeStats): number | null {
  const s = sparsity(a);
  if (s === null || a.rows === null || a.cols === null) return null;
  const outCells = direction === "row" ? a.rows : a.cols;
  const span = direction === "row" ? a.cols : a.rows;
  // Over no cells only sums are 0 (means are NaN, min/max ±Inf, prod 1).
  if (span === 0) return fn === "sum" || fn === "sumSq" ? 0 : outCells;
  if (fn === "prod") return outCells * Math.pow(s, span);
  return outCells * (1 - Math.pow(1 - s, span));
}
