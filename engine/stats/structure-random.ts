/**
 * Seeded random structures for tests and benchmarks: Zipf-skewed sparse
 * matrices, selection matrices (one non-zero per row or per column) and row
 * permutations. The same seed always gives the same structure.
 */
import { fromRowLists, type SparsityStructure, structureFromCoordinates } from "./structure";

/** A seeded generator of uniform numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded shuffle of 0 .. n-1. */
function seededPermutation(n: number, random: () => number): Int32Array {
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const k = Math.floor(random() * (i + 1));
    [p[i], p[k]] = [p[k]!, p[i]!];
  }
  return p;
}

/** Samples ranks 0 .. n-1 with P(r) ∝ 1 / (r + 1)^skew (skew 0: uniform). */
function zipfSampler(n: number, skew: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / Math.pow(r + 1, skew);
  return () => {
    const u = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! <= u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface ZipfOptions {
  rows: number;
  cols: number;
  /** Wanted non-zeros; fewer when heavy skew makes distinct cells hard to hit. */
  nnz: number;
  rowSkew: number;
  colSkew: number;
  seed: number;
  /**
   * Whether the heavy ranks land on shuffled indices (default true). Two
   * matrices made without shuffling share their heavy rows and columns
   * (index 0 is the heaviest), the worst case for the uniform assumption.
   */
  shuffle?: boolean;
}

/** Cells drawn independently with Zipf-distributed row and column ranks, duplicates merged. */
export function zipfStructure(o: ZipfOptions): SparsityStructure {
  const random = seededRandom(o.seed);
  const rowOf = zipfSampler(o.rows, o.rowSkew, random);
  const colOf = zipfSampler(o.cols, o.colSkew, random);
  const shuffle = o.shuffle ?? true;
  const rowPerm = shuffle ? seededPermutation(o.rows, random) : null;
  const colPerm = shuffle ? seededPermutation(o.cols, random) : null;
  const target = Math.min(o.nnz, o.rows * o.cols);
  const seen = new Set<number>();
  const coordinates: [number, number][] = [];
  for (let attempt = 0; coordinates.length < target && attempt < 20 * target; attempt++) {
    const r = rowOf();
    const c = colOf();
    const i = rowPerm ? rowPerm[r]! : r;
    const j = colPerm ? colPerm[c]! : c;
    const key = i * o.cols + j;
    if (seen.has(key)) continue;
    seen.add(key);
    coordinates.push([i, j]);
  }
  return structureFromCoordinates(o.rows, o.cols, coordinates);
}

/** A k x n matrix picking `k` distinct random rows of an n-row matrix (one non-zero per row). */
export function rowSelection(k: number, n: number, seed: number): SparsityStructure {
  const picked = seededPermutation(n, seededRandom(seed)).slice(0, Math.min(k, n));
  return fromRowLists(picked.length, n, Array.from(picked, (j) => [j]));
}

/** An n x k matrix picking `k` distinct random columns of an n-column matrix (one non-zero per column). */
export function columnSelection(n: number, k: number, seed: number): SparsityStructure {
  const picked = seededPermutation(n, seededRandom(seed)).slice(0, Math.min(k, n));
  const perRow: number[][] = Array.from({ length: n }, () => []);
  picked.forEach((row, col) => perRow[row]!.push(col));
  return fromRowLists(n, picked.length, perRow);
}

/** The rows of `s` in a seeded random order (same non-zeros per row, different pattern). */
export function permuteRows(s: SparsityStructure, seed: number): SparsityStructure {
  const order = seededPermutation(s.rows, seededRandom(seed));
  return fromRowLists(
    s.rows,
    s.cols,
    Array.from(order, (i) => Array.from(s.colIndices.subarray(s.rowPointers[i]!, s.rowPointers[i + 1]!))),
  );
}
