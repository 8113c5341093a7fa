/**
 * The MNC sketch (Sommer et al., "MNC: Structure-Exploiting Sparsity
 * Estimation for Matrix Expressions", SIGMOD 2019; the estimator ReMac uses):
 * non-zero counts per row (h^r) and per column (h^c), the extension vectors
 * h^er / h^ec, and a few summary counts. This file builds sketches; mnc.ts
 * estimates and propagates them.
 *
 * Extension vectors (exact only when built from data):
 * - `rowCountsInSingleCols` (h^er): per row, the non-zeros whose column holds
 *   exactly one non-zero;
 * - `colCountsInSingleRows` (h^ec): per column, the non-zeros whose row holds
 *   exactly one non-zero.
 * A sketch without data knows them only in the two trivial cases: when every
 * row has at most one non-zero, h^ec = h^c; when every column does, h^er = h^r.
 */
import type { MatrixShape } from "../matrix-shape";
import { broadcastOf } from "../matrix-shape";
import { colCounts, rowCounts, type SparsityStructure } from "../structure";

export interface MncSketch {
  readonly rows: number;
  readonly cols: number;
  /** h^r: non-zeros per row. */
  readonly rowCounts: Float64Array;
  /** h^c: non-zeros per column. */
  readonly colCounts: Float64Array;
  /** h^er, or null when unknown. */
  readonly rowCountsInSingleCols: Float64Array | null;
  /** h^ec, or null when unknown. */
  readonly colCountsInSingleRows: Float64Array | null;
  /** Non-zeros: exact from data, else the estimate (may be fractional). */
  readonly nnz: number;
  readonly maxRowCount: number;
  readonly maxColCount: number;
  readonly nonEmptyRows: number;
  readonly nonEmptyCols: number;
  /** Rows (columns) with exactly one non-zero. */
  readonly singleRows: number;
  readonly singleCols: number;
  /** Rows with more than cols/2 non-zeros; columns with more than rows/2 (for the lower bound). */
  readonly halfFullRows: number;
  readonly halfFullCols: number;
  /** A square matrix whose non-zeros are exactly its diagonal (a product with it changes nothing). */
  readonly fullDiagonal: boolean;
  /**
   * Where the counts come from: "data" when they are exact (read from the
   * data, or carried over exactly by a transpose, broadcast or aggregate),
   * "metadata" when spread from rows, cols and nnz, "derived" when estimated
   * by propagation through an operation.
   */
  readonly origin: "data" | "metadata" | "derived";
}

export function sketchFromStructure(s: SparsityStructure): MncSketch {
  const hr = Float64Array.from(rowCounts(s));
  const hc = Float64Array.from(colCounts(s));
  const her = new Float64Array(s.rows);
  const hec = new Float64Array(s.cols);
  let diagonal = s.rows === s.cols;
  for (let i = 0; i < s.rows; i++) {
    for (let p = s.rowPointers[i]!; p < s.rowPointers[i + 1]!; p++) {
      const j = s.colIndices[p]!;
      if (hc[j] === 1) her[i]!++;
      if (hr[i] === 1) hec[j]!++;
    }
    if (diagonal && (hr[i] !== 1 || s.colIndices[s.rowPointers[i]!] !== i)) diagonal = false;
  }
  return sketchFromCounts(s.rows, s.cols, hr, hc, { her, hec, fullDiagonal: diagonal, origin: "data" });
}

/**
 * A sketch from rows, cols and nnz alone (nnz may be a fractional estimate):
 * counts spread as evenly as whole numbers allow. It carries no structure,
 * so mnc.ts estimates with the uniform formulas wherever it is involved.
 */
export function sketchFromMetadata(rows: number, cols: number, nnz: number): MncSketch {
  const hr = spreadCounts(nnz, new Float64Array(rows).fill(1), cols);
  const hc = spreadCounts(nnz, new Float64Array(cols).fill(1), rows);
  return sketchFromCounts(rows, cols, hr, hc, { nnz, origin: "metadata" });
}

/**
 * A sketch from count vectors; the summaries are derived, the extension
 * vectors are taken from `extras` or else derived where they are implied.
 * `nnz` defaults to the sum of the row counts.
 */
export function sketchFromCounts(
  rows: number,
  cols: number,
  hr: Float64Array,
  hc: Float64Array,
  extras: {
    her?: Float64Array | null;
    hec?: Float64Array | null;
    nnz?: number;
    fullDiagonal?: boolean;
    origin: MncSketch["origin"];
    /** Set when every row count, and every column count, is the same number: the summaries are then known without a pass. */
    uniform?: boolean;
  },
): MncSketch {
  const r = extras.uniform ? uniformSummary(hr, cols) : summarize(hr, cols);
  const c = extras.uniform ? uniformSummary(hc, rows) : summarize(hc, rows);
  return {
    rows,
    cols,
    rowCounts: hr,
    colCounts: hc,
    rowCountsInSingleCols: extras.her ?? (c.max <= 1 ? hr : null),
    colCountsInSingleRows: extras.hec ?? (r.max <= 1 ? hc : null),
    nnz: extras.nnz ?? r.sum,
    maxRowCount: r.max,
    maxColCount: c.max,
    nonEmptyRows: r.nonEmpty,
    nonEmptyCols: c.nonEmpty,
    singleRows: r.ones,
    singleCols: c.ones,
    halfFullRows: r.overHalf,
    halfFullCols: c.overHalf,
    fullDiagonal: extras.fullDiagonal ?? false,
    origin: extras.origin,
  };
}

export function transposeSketch(s: MncSketch): MncSketch {
  return {
    ...s,
    rows: s.cols,
    cols: s.rows,
    rowCounts: s.colCounts,
    colCounts: s.rowCounts,
    rowCountsInSingleCols: s.colCountsInSingleRows,
    colCountsInSingleRows: s.rowCountsInSingleCols,
    maxRowCount: s.maxColCount,
    maxColCount: s.maxRowCount,
    nonEmptyRows: s.nonEmptyCols,
    nonEmptyCols: s.nonEmptyRows,
    singleRows: s.singleCols,
    singleCols: s.singleRows,
    halfFullRows: s.halfFullCols,
    halfFullCols: s.halfFullRows,
  };
}

/**
 * The sketch of `s` broadcast to `out` (a column vector repeated across
 * columns, a row vector down rows, a 1 x 1 everywhere). Broadcasting fixes
 * the pattern, so the expanded counts are exact when the vector's are.
 */
export function broadcastSketch(s: MncSketch, out: MatrixShape): MncSketch {
  const how = broadcastOf(s, out);
  if (how === "same") return s;
  const origin = s.origin;
  // Non-zero flags of the vector's entries, and how many there are.
  const flags = (how === "row" ? s.colCounts : s.rowCounts).map((v) => (v > 0 ? 1 : 0));
  const on = flags.reduce((n, v) => n + v, 0);
  let hr: Float64Array;
  let hc: Float64Array;
  if (how === "scalar") {
    hr = new Float64Array(out.rows).fill(on * out.cols);
    hc = new Float64Array(out.cols).fill(on * out.rows);
  } else if (how === "column") {
    hr = flags.map((v) => v * out.cols);
    hc = new Float64Array(out.cols).fill(on);
  } else {
    hr = new Float64Array(out.rows).fill(on);
    hc = flags.map((v) => v * out.rows);
  }
  // Every non-empty row (column) of the result has the same count, so the
  // extension vectors are all or nothing.
  const rowFill = hr.find((v) => v > 0) ?? 0;
  const colFill = hc.find((v) => v > 0) ?? 0;
  return sketchFromCounts(out.rows, out.cols, hr, hc, {
    her: colFill === 1 ? hr : new Float64Array(out.rows),
    hec: rowFill === 1 ? hc : new Float64Array(out.cols),
    origin,
    uniform: how === "scalar",
  });
}

/**
 * Whole-number counts proportional to `weights` that add up to round(total)
 * (systematic rounding of the running sum: deterministic, unlike SystemDS's
 * probabilistic rounding, and the total is kept), each capped at `cap`.
 */
export function spreadCounts(total: number, weights: Float64Array, cap: number): Float64Array {
  const out = new Float64Array(weights.length);
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum <= 0 || total <= 0) return out;
  let running = 0;
  let placed = 0;
  for (let i = 0; i < weights.length; i++) {
    running += (total * weights[i]!) / sum;
    const upTo = Math.round(running);
    out[i] = Math.min(cap, Math.max(0, upTo - placed));
    placed = upTo;
  }
  return out;
}

interface CountSummary {
  sum: number;
  max: number;
  nonEmpty: number;
  ones: number;
  overHalf: number;
}

/** One pass over the counts (an indexed loop: a sketch of a million rows is summarized at every compilation). */
function summarize(counts: Float64Array, otherDim: number): CountSummary {
  let sum = 0;
  let max = 0;
  let nonEmpty = 0;
  let ones = 0;
  let overHalf = 0;
  const half = otherDim / 2;
  for (let k = 0; k < counts.length; k++) {
    const v = counts[k]!;
    sum += v;
    if (v > max) max = v;
    if (v > 0) nonEmpty++;
    if (v === 1) ones++;
    if (v > half) overHalf++;
  }
  return { sum, max, nonEmpty, ones, overHalf };
}

/** The summary of counts that are all equal (read off the first). */
function uniformSummary(counts: Float64Array, otherDim: number): CountSummary {
  const n = counts.length;
  const v = n === 0 ? 0 : counts[0]!;
  const all = (holds: boolean) => (holds ? n : 0);
  return { sum: v * n, max: Math.max(0, v), nonEmpty: all(v > 0), ones: all(v === 1), overHalf: all(v > otherDim / 2) };
}
