/**
 * var and sd (sample variance, divided by n - 1 as R and SystemDS) over
 * all cells, each row or each column: two passes, the mean (Kahan) then
 * the sum of squared deviations (Kahan), in which a CSR matrix's unstored
 * cells contribute mean² each. As SystemDS: one value has variance 0; a
 * slice without cells gives NaN.
 */
import type { Matrix } from "../matrix";
import { kahanSum, kahanSumRanges, KahanColumns } from "./kahan";

export type VarianceFunction = "var" | "sd";

function finish(fn: VarianceFunction, squaredDeviations: number, n: number): number {
  const v = n === 0 ? Number.NaN : n === 1 ? 0 : squaredDeviations / (n - 1);
  return fn === "sd" ? Math.sqrt(v) : v;
}

/** Σ (a[i] - mean)² over a[start .. end) plus `zeros` unstored cells, compensated. */
function squaredDeviations(a: Float64Array, start: number, end: number, mean: number, zeros: number): number {
  let s = zeros * mean * mean;
  let c = 0;
  for (let i = start; i < end; i++) {
    const d = a[i]! - mean;
    const y = d * d - c;
    const t = s + y;
    c = t - s - y;
    s = t;
  }
  return s;
}

export function varianceFull(fn: VarianceFunction, x: Matrix): number {
  const n = x.rows * x.cols;
  if (x.format === "dense") {
    const mean = kahanSum(x.data, 0, n) / n;
    return finish(fn, squaredDeviations(x.data, 0, n, mean, 0), n);
  }
  const nnz = x.nnz();
  const mean = kahanSum(x.values, 0, nnz) / n;
  return finish(fn, squaredDeviations(x.values, 0, nnz, mean, n - nnz), n);
}

export function varianceRows(fn: VarianceFunction, x: Matrix): Float64Array {
  const n = x.cols;
  const out = new Float64Array(x.rows);
  const a = x.format === "dense" ? x.data : x.values;
  const offsets = x.format === "dense" ? null : x.rowPtr;
  // The row sums in one loop (kahanSumRanges: no kahanSum call per row), then each row's squared deviations from its mean.
  kahanSumRanges(a, x.rows, offsets, n, false, out);
  let start = offsets === null ? 0 : offsets[0]!;
  for (let i = 0; i < x.rows; i++) {
    const end = offsets === null ? start + n : offsets[i + 1]!;
    out[i] = finish(fn, squaredDeviations(a, start, end, out[i]! / n, n - (end - start)), n);
    start = end;
  }
  return out;
}

export function varianceCols(fn: VarianceFunction, x: Matrix): Float64Array {
  const { rows, cols } = x;
  const sums = new KahanColumns(cols);
  const devs = new KahanColumns(cols);
  const means = new Float64Array(cols);
  const out = new Float64Array(cols);
  if (x.format === "dense") {
    const d = x.data;
    for (let i = 0; i < rows; i++) sums.addRow(d, i * cols, false);
    for (let j = 0; j < cols; j++) means[j] = sums.result(j) / rows;
    for (let i = 0; i < rows; i++) {
      const base = i * cols;
      for (let j = 0; j < cols; j++) {
        const dev = d[base + j]! - means[j]!;
        devs.add(j, dev * dev);
      }
    }
    for (let j = 0; j < cols; j++) out[j] = finish(fn, devs.result(j), rows);
    return out;
  }
  const { colIdx, values } = x;
  const nnz = x.nnz();
  const counts = new Int32Array(cols);
  for (let p = 0; p < nnz; p++) {
    sums.add(colIdx[p]!, values[p]!);
    counts[colIdx[p]!]!++;
  }
  for (let j = 0; j < cols; j++) means[j] = sums.result(j) / rows;
  for (let p = 0; p < nnz; p++) {
    const j = colIdx[p]!;
    const dev = values[p]! - means[j]!;
    devs.add(j, dev * dev);
  }
  for (let j = 0; j < cols; j++) {
    const zeros = rows - counts[j]!;
    devs.add(j, zeros * means[j]! * means[j]!);
    out[j] = finish(fn, devs.result(j), rows);
  }
  return out;
}
