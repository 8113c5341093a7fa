/**
 * The microbenchmarks behind `dml bench calibrate`: small, bounded kernels in
 * plain JavaScript, one thread, whose rates become the cost model's machine
 * constants. Each kernel is timed over several runs after a warm-up; the
 * fastest run gives the rate (as STREAM reports its best run).
 */

export interface KernelTiming {
  runs: number;
  bestMs: number;
  medianMs: number;
}

/** The work of one run (bytes or FLOPs) and its timing. */
export interface KernelMeasurement extends KernelTiming {
  /** Bytes moved or FLOPs done by one run. */
  work: number;
  /** work per second of the fastest run. */
  ratePerSecond: number;
}

/** Keeps results alive so that the JIT cannot drop a kernel as dead code. */
let sink = 0;
export function kernelSink(): number {
  return sink;
}

/** Times `run` after `warmup` calls: at least `minRuns` runs, more until `minTotalMs`, at most `maxRuns`. */
export function timeKernel(
  run: () => number,
  options: { warmup: number; minRuns: number; minTotalMs: number; maxRuns: number },
): KernelTiming {
  for (let i = 0; i < options.warmup; i++) sink += run();
  const samples: number[] = [];
  let total = 0;
  while (samples.length < options.minRuns || (total < options.minTotalMs && samples.length < options.maxRuns)) {
    const start = performance.now();
    sink += run();
    const ms = performance.now() - start;
    samples.push(ms);
    total += ms;
  }
  samples.sort((a, b) => a - b);
  const bestMs = samples[0];
  const medianMs = samples[Math.floor(samples.length / 2)];
  if (bestMs === undefined || medianMs === undefined) throw new Error("timeKernel needs at least one run (minRuns >= 1)");
  return { runs: samples.length, bestMs, medianMs };
}

export function measurement(work: number, timing: KernelTiming): KernelMeasurement {
  return { ...timing, work, ratePerSecond: work / (timing.bestMs / 1000) };
}

/** Sum of all values with four independent accumulators (a streaming read). */
export function streamingSum(a: Float64Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length - (a.length % 4);
  // The loop bounds keep every index below a.length.
  for (let i = 0; i < n; i += 4) {
    s0 += a[i]!;
    s1 += a[i + 1]!;
    s2 += a[i + 2]!;
    s3 += a[i + 3]!;
  }
  for (let i = n; i < a.length; i++) s0 += a[i]!;
  return s0 + s1 + s2 + s3;
}

/** Stores `value` into every cell (a streaming write). */
export function streamingFill(a: Float64Array, value: number): number {
  for (let i = 0; i < a.length; i++) a[i] = value;
  return a[a.length - 1] ?? 0;
}

/**
 * C += A · B for row-major A (m×k), B (k×n), C (m×n), cache-blocked i-k-j
 * loops: each block of B is reused from cache by `block` rows of A.
 */
export function blockedGemm(a: Float64Array, b: Float64Array, c: Float64Array, m: number, k: number, n: number, block = 64): void {
  for (let ii = 0; ii < m; ii += block) {
    const iEnd = Math.min(ii + block, m);
    for (let kk = 0; kk < k; kk += block) {
      const kEnd = Math.min(kk + block, k);
      for (let jj = 0; jj < n; jj += block) {
        const jEnd = Math.min(jj + block, n);
        for (let i = ii; i < iEnd; i++) {
          const ci = i * n;
          const ai = i * k;
          for (let p = kk; p < kEnd; p++) {
            // The loop bounds keep every index inside the m×k, k×n and m×n arrays.
            const aip = a[ai + p]!;
            if (aip === 0) continue;
            const bp = p * n;
            for (let j = jj; j < jEnd; j++) c[ci + j] = c[ci + j]! + aip * b[bp + j]!;
          }
        }
      }
    }
  }
}

/** A matrix in compressed sparse row form. */
export interface CsrArrays {
  rows: number;
  cols: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

/** y = A · x for a CSR matrix A. */
export function csrSpmv(a: CsrArrays, x: Float64Array, y: Float64Array): void {
  const { rowPtr, colIdx, values } = a;
  // rowPtr has rows + 1 entries; a valid CSR matrix keeps every p and column index in range.
  for (let i = 0; i < a.rows; i++) {
    let sum = 0;
    for (let p = rowPtr[i]!; p < rowPtr[i + 1]!; p++) sum += values[p]! * x[colIdx[p]!]!;
    y[i] = sum;
  }
}

/** A deterministic pseudo-random generator in [0, 1) (mulberry32), so runs are comparable. */
export { seededRandom } from "../engine/stats/structure-random";

/** Random values in [0, 1). */
export function randomDense(length: number, random: () => number): Float64Array {
  const a = new Float64Array(length);
  for (let i = 0; i < length; i++) a[i] = random();
  return a;
}

/**
 * A random CSR matrix with exactly `perRow` non-zeros per row at sorted,
 * distinct, uniformly spread columns (one per stride of cols / perRow).
 */
export function randomCsr(rows: number, cols: number, perRow: number, random: () => number): CsrArrays {
  const z = Math.min(perRow, cols);
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(rows * z);
  const values = new Float64Array(rows * z);
  const stride = cols / z;
  let p = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < z; j++) {
      colIdx[p] = Math.min(cols - 1, Math.floor((j + random()) * stride));
      values[p] = random() + 0.5;
      p++;
    }
    rowPtr[i + 1] = p;
  }
  return { rows, cols, rowPtr, colIdx, values };
}
