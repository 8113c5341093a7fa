/**
 * The MNC estimator (Sommer et al., SIGMOD 2019; ReMac section 4.2), with
 * sketches from mnc-sketch.ts. Estimation follows MNC's Algorithm 1 and
 * SystemDS's `EstimatorMatrixHistogram`:
 *
 * Product C = A B (m x n times n x l):
 *  a) exact when A has at most one non-zero per row or B at most one per
 *     column: nnz = Σ_j h^c_A[j] · h^r_B[j] (no two products meet in a cell);
 *  b) else, with extension vectors, the part from single-non-zero rows of A
 *     and single-non-zero columns of B is counted exactly
 *     (h^ec_A · h^r_B + (h^c_A − h^ec_A) · h^er_B) and the rest by the
 *     density map E_dm over the remaining rows x columns;
 *  c) else E_dm(h^c_A, h^r_B, p) with p = non-empty rows of A x non-empty
 *     columns of B, where E_dm(x, y, p) = p · (1 − Π_j (1 − x_j y_j / p)).
 *  Bounds: at most p, at least (rows of A more than half full) x (columns
 *  of B more than half full).
 *  Propagation: h^r_C ∝ h^r_A and h^c_C ∝ h^c_B scaled to the estimate; a
 *  full diagonal factor passes the other sketch through.
 *
 * Element-wise (after broadcasting, which is exact): per row,
 * A * B ≈ h^r_A[i] · h^r_B[i] · (Σ_j h^c_A[j] h^c_B[j]) / (nnz_A · nnz_B),
 * and A + B = h^r_A + h^r_B − that overlap; the same per column; each row
 * and column clamped to what is possible. The total is the row sum when a
 * column vector is broadcast (exact then), the column sum for a row vector,
 * else the smaller of the two. Aggregates and transposes are exact.
 *
 * Fallback: a sketch from metadata only (no data) has no structure to
 * exploit; any operation with such an input uses the uniform estimator's
 * formula and yields a metadata sketch again, as SystemDS falls back to its
 * metadata estimator where MNC has no sketch.
 */
import { aggregateShape, type AggregateAxis, broadcastOf, type MatrixShape, productShape } from "../matrix-shape";
import type { SparsityStructure } from "../structure";
import { checkMetadata, type SparsityEstimator } from "./estimator";
import { uniformEstimator, type UniformStats } from "./uniform";
import {
  broadcastSketch,
  type MncSketch,
  sketchFromCounts,
  sketchFromMetadata,
  sketchFromStructure,
  spreadCounts,
  transposeSketch,
} from "./mnc-sketch";

/** Whether MNC's product estimate for `a %*% b` is exact (case a, on exact counts). */
export function mncProductIsExact(a: MncSketch, b: MncSketch): boolean {
  return a.origin === "data" && b.origin === "data" && (a.maxRowCount <= 1 || b.maxColCount <= 1);
}

/** MNC's estimate of nnz(a %*% b). */
export function mncProductNnz(a: MncSketch, b: MncSketch): number {
  const hcA = a.colCounts;
  const hrB = b.rowCounts;
  const n = a.cols;
  let nnz = 0;
  if (a.maxRowCount <= 1 || b.maxColCount <= 1) {
    for (let j = 0; j < n; j++) nnz += hcA[j]! * hrB[j]!;
    // Exact on data; a derived sketch's counts may disagree with each other, so keep it within the cells that can be hit.
    return Math.min(nnz, a.nonEmptyRows * b.nonEmptyCols);
  }
  const hecA = a.colCountsInSingleRows;
  const herB = b.rowCountsInSingleCols;
  if (hecA !== null || herB !== null) {
    const p = (a.nonEmptyRows - (hecA ? a.singleRows : 0)) * (b.nonEmptyCols - (herB ? b.singleCols : 0));
    const restA = new Float64Array(n);
    const restB = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const fromSingleRows = hecA ? hecA[j]! : 0;
      const intoSingleCols = herB ? herB[j]! : 0;
      nnz += fromSingleRows * hrB[j]! + (hcA[j]! - fromSingleRows) * intoSingleCols;
      restA[j] = hcA[j]! - fromSingleRows;
      restB[j] = hrB[j]! - intoSingleCols;
    }
    nnz += densityMapNnz(restA, restB, p);
  } else {
    nnz = densityMapNnz(hcA, hrB, a.nonEmptyRows * b.nonEmptyCols);
  }
  nnz = Math.min(nnz, a.nonEmptyRows * b.nonEmptyCols);
  return Math.max(nnz, a.halfFullRows * b.halfFullCols);
}

/** E_dm: expected non-zeros when each j drops x_j · y_j products uniformly on p cells. */
function densityMapNnz(x: Float64Array, y: Float64Array, p: number): number {
  if (p <= 0) return 0;
  let density = 0;
  for (let j = 0; j < x.length; j++) {
    const local = Math.min(1, (x[j]! * y[j]!) / p);
    density = density + local - density * local;
  }
  return density * p;
}

function emptySketch(shape: MatrixShape): MncSketch {
  return sketchFromCounts(shape.rows, shape.cols, new Float64Array(shape.rows), new Float64Array(shape.cols), {
    origin: "data",
  });
}

const asUniform = (s: MncSketch): UniformStats => ({ rows: s.rows, cols: s.cols, nnz: s.nnz });
const fromUniform = (u: UniformStats): MncSketch => sketchFromMetadata(u.rows, u.cols, u.nnz);
const structureless = (inputs: readonly MncSketch[]) => inputs.some((s) => s.origin === "metadata");

function productSketch(a: MncSketch, b: MncSketch): MncSketch {
  if (structureless([a, b])) return fromUniform(uniformEstimator.matmul(asUniform(a), asUniform(b)));
  const out = productShape(a, b);
  if (a.fullDiagonal) return b;
  if (b.fullDiagonal) return a;
  if (a.nnz === 0 || b.nnz === 0) return emptySketch(out);
  const nnz = mncProductNnz(a, b);
  const hr = spreadCounts(nnz, a.rowCounts, out.cols);
  const hc = spreadCounts(nnz, b.colCounts, out.rows);
  return sketchFromCounts(out.rows, out.cols, hr, hc, { nnz, origin: "derived" });
}

function sum(v: Float64Array): number {
  return v.reduce((a, x) => a + x, 0);
}

function dot(x: Float64Array, y: Float64Array): number {
  let d = 0;
  for (let i = 0; i < x.length; i++) d += x[i]! * y[i]!;
  return d;
}

/**
 * Which side's sum is the result's total: a column vector broadcast makes the
 * per-row counts exact (rows), a row vector the per-column counts (cols);
 * two full matrices take the smaller estimate of the overlap (min).
 */
type Exact = "rows" | "cols" | "min";

/** Expected overlap of two same-shape sketches per row and per column, clamped to the possible. */
function overlaps(a: MncSketch, b: MncSketch, exact: Exact): { rows: Float64Array; cols: Float64Array; total: number } {
  const scale = sum(a.rowCounts) * sum(b.rowCounts);
  const rowScale = scale === 0 ? 0 : dot(a.colCounts, b.colCounts) / scale;
  const colScale = scale === 0 ? 0 : dot(a.rowCounts, b.rowCounts) / scale;
  const rows = a.rowCounts.map((x, i) => Math.min(x, b.rowCounts[i]!, x * b.rowCounts[i]! * rowScale));
  const cols = a.colCounts.map((x, j) => Math.min(x, b.colCounts[j]!, x * b.colCounts[j]! * colScale));
  const total = exact === "rows" ? sum(rows) : exact === "cols" ? sum(cols) : Math.min(sum(rows), sum(cols));
  return { rows, cols, total };
}

function multiplySketches(a: MncSketch, b: MncSketch, exact: Exact): MncSketch {
  const o = overlaps(a, b, exact);
  const hr = spreadCounts(o.total, o.rows, a.cols);
  const hc = spreadCounts(o.total, o.cols, a.rows);
  return sketchFromCounts(a.rows, a.cols, hr, hc, { nnz: o.total, origin: "derived" });
}

function addSketches(a: MncSketch, b: MncSketch, exact: Exact): MncSketch {
  const o = overlaps(a, b, exact);
  const rows = a.rowCounts.map((x, i) => Math.min(a.cols, x + b.rowCounts[i]! - o.rows[i]!));
  const cols = a.colCounts.map((x, j) => Math.min(a.rows, x + b.colCounts[j]! - o.cols[j]!));
  const nnz = Math.min(a.rows * a.cols, sum(a.rowCounts) + sum(b.rowCounts) - o.total);
  return sketchFromCounts(a.rows, a.cols, spreadCounts(nnz, rows, a.cols), spreadCounts(nnz, cols, a.rows), {
    nnz,
    origin: "derived",
  });
}

function elementwise(
  inputs: readonly MncSketch[],
  out: MatrixShape,
  combine: (a: MncSketch, b: MncSketch, exact: Exact) => MncSketch,
): MncSketch {
  if (inputs.length === 0) throw new RangeError("element-wise map of no inputs");
  if (structureless(inputs)) {
    const uniform = combine === multiplySketches ? uniformEstimator.annihilatingMap : uniformEstimator.nonAnnihilatingMap;
    return fromUniform(uniform(inputs.map(asUniform), out));
  }
  const how = inputs.map((s) => broadcastOf(s, out));
  let acc = broadcastSketch(inputs[0]!, out);
  for (let n = 1; n < inputs.length; n++) {
    const pair = [how[n]!, n === 1 ? how[0]! : "same"];
    const exact: Exact = pair.some((h) => h === "column" || h === "scalar") ? "rows" : pair.includes("row") ? "cols" : "min";
    acc = combine(acc, broadcastSketch(inputs[n]!, out), exact);
  }
  return acc;
}

/** rowSums-like aggregate (over the columns of each row): the non-empty rows, exactly. */
function aggregateColumns(s: MncSketch): MncSketch {
  const hr = s.rowCounts.map((v) => (v > 0 ? 1 : 0));
  const hc = Float64Array.of(s.nonEmptyRows);
  return sketchFromCounts(s.rows, 1, hr, hc, {
    her: s.nonEmptyRows === 1 ? hr : new Float64Array(s.rows),
    hec: hc,
    origin: s.origin === "data" ? "data" : "derived",
  });
}

export const mncEstimator: SparsityEstimator<MncSketch> = {
  name: "mnc",
  fromData: (structure: SparsityStructure) => sketchFromStructure(structure),
  fromMetadata(rows: number, cols: number, nnz: number): MncSketch {
    checkMetadata(rows, cols, nnz);
    return sketchFromMetadata(rows, cols, nnz);
  },
  annihilatingMap: (inputs, out) => elementwise(inputs, out, multiplySketches),
  nonAnnihilatingMap: (inputs, out) => elementwise(inputs, out, addSketches),
  aggregate(s: MncSketch, over: AggregateAxis): MncSketch {
    if (structureless([s])) return fromUniform(uniformEstimator.aggregate(asUniform(s), over));
    if (over === "cols") return aggregateColumns(s);
    if (over === "rows") return transposeSketch(aggregateColumns(transposeSketch(s)));
    const shape = aggregateShape(s, over);
    const on = Float64Array.of(s.nnz > 0 ? 1 : 0);
    return sketchFromCounts(shape.rows, shape.cols, on, on, { origin: s.origin === "data" ? "data" : "derived" });
  },
  matmul: productSketch,
  transpose: transposeSketch,
  estimate: (s) => s.nnz,
  shape: (s) => ({ rows: s.rows, cols: s.cols }),
};
