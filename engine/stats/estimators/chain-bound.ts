/**
 * The degree-constraint chain bound (Galley section 7.3.2): an upper bound on
 * the non-zeros that never underestimates (boolean semantics). A matrix
 * A[i, j] keeps the degree statistics
 *
 *   D(ij | ∅) = nnz,  D(j | i) = max non-zeros per row,  D(i | j) = max per
 *   column,  D(i | ∅) = non-empty rows,  D(j | ∅) = non-empty columns.
 *
 * - annihilating map (and the map over (i, j, k) inside a matmul): the output
 *   pattern is a join of the inputs' patterns, so every input constraint
 *   holds for it: take their union (a broadcast vector constrains only the
 *   index it has);
 * - aggregate (the sum over j inside a matmul, rowSums, colSums, sum): a
 *   projection; each output statistic is the cheapest chain of constraints
 *   reaching the kept indices (degree-bound.ts);
 * - non-annihilating map: each input's constraints extended to the output's
 *   indices (a vector repeated n times has n times the degree), then added;
 * - every statistic is finally tightened by the others and by the dims.
 */
import { aggregateShape, type AggregateAxis, broadcastOf, type MatrixShape, productShape } from "../matrix-shape";
import { colCounts, rowCounts, structureNnz, type SparsityStructure } from "../structure";
import { chainBound, type DegreeConstraint } from "./degree-bound";
import { checkMetadata, type SparsityEstimator } from "./estimator";

export interface DegreeStats {
  readonly rows: number;
  readonly cols: number;
  /** Upper bounds (exact when built from data). */
  readonly nnz: number;
  readonly maxRowNnz: number;
  readonly maxColNnz: number;
  readonly nonEmptyRows: number;
  readonly nonEmptyCols: number;
}

/** Applies the implications between the statistics and the dims until nothing changes. */
function tighten(s: DegreeStats): DegreeStats {
  let { nnz, maxRowNnz, maxColNnz, nonEmptyRows, nonEmptyCols } = s;
  for (let round = 0; round < 3; round++) {
    nonEmptyRows = Math.min(nonEmptyRows, s.rows, nnz);
    nonEmptyCols = Math.min(nonEmptyCols, s.cols, nnz);
    maxRowNnz = Math.min(maxRowNnz, nonEmptyCols, nnz);
    maxColNnz = Math.min(maxColNnz, nonEmptyRows, nnz);
    nnz = Math.min(nnz, nonEmptyRows * maxRowNnz, nonEmptyCols * maxColNnz);
  }
  return { rows: s.rows, cols: s.cols, nnz, maxRowNnz, maxColNnz, nonEmptyRows, nonEmptyCols };
}

function emptyStats(shape: MatrixShape): DegreeStats {
  return { rows: shape.rows, cols: shape.cols, nnz: 0, maxRowNnz: 0, maxColNnz: 0, nonEmptyRows: 0, nonEmptyCols: 0 };
}

/** The constraints of `s` with its rows on variable mask `r` and columns on `c` (0: the index is broadcast away). */
function degreeConstraints(s: DegreeStats, r: number, c: number): DegreeConstraint[] {
  const all: DegreeConstraint[] = [
    { x: r | c, y: 0, d: s.nnz },
    { x: c, y: r, d: s.maxRowNnz },
    { x: r, y: c, d: s.maxColNnz },
    { x: r, y: 0, d: s.nonEmptyRows },
    { x: c, y: 0, d: s.nonEmptyCols },
  ];
  return all.filter((k) => k.x !== 0 && (k.x & k.y) === 0);
}

/** Statistics of the projection onto row variable `r` and column variable `c` (aggregating every other variable). */
function project(variables: number, constraints: DegreeConstraint[], r: number, c: number, out: MatrixShape): DegreeStats {
  const all = [...constraints, { x: r, y: 0, d: out.rows }, { x: c, y: 0, d: out.cols }];
  return tighten({
    rows: out.rows,
    cols: out.cols,
    nnz: chainBound(variables, all, 0, r | c),
    maxRowNnz: chainBound(variables, all, r, c),
    maxColNnz: chainBound(variables, all, c, r),
    nonEmptyRows: chainBound(variables, all, 0, r),
    nonEmptyCols: chainBound(variables, all, 0, c),
  });
}

const I = 1;
const J = 2;
const K = 4;

/** Row and column variables of an element-wise input over (i, j), after broadcasting. */
function variablesOf(s: DegreeStats, out: MatrixShape): [number, number] {
  const how = broadcastOf(s, out);
  if (how === "same") return [I, J];
  if (how === "column") return [I, 0];
  if (how === "row") return [0, J];
  return [0, 0];
}

/** The statistics of `s` repeated to `out` by broadcasting (Galley's extension: degree × repeated extent). */
function extend(s: DegreeStats, out: MatrixShape): DegreeStats {
  const how = broadcastOf(s, out);
  if (how === "same") return s;
  const on = s.nnz > 0 ? 1 : 0;
  if (how === "column") {
    return { ...out, nnz: s.nnz * out.cols, maxRowNnz: on * out.cols, maxColNnz: s.maxColNnz, nonEmptyRows: s.nonEmptyRows, nonEmptyCols: on * out.cols };
  }
  if (how === "row") {
    return { ...out, nnz: s.nnz * out.rows, maxRowNnz: s.maxRowNnz, maxColNnz: on * out.rows, nonEmptyRows: on * out.rows, nonEmptyCols: s.nonEmptyCols };
  }
  return { ...out, nnz: on * out.rows * out.cols, maxRowNnz: on * out.cols, maxColNnz: on * out.rows, nonEmptyRows: on * out.rows, nonEmptyCols: on * out.cols };
}

export const chainBoundEstimator: SparsityEstimator<DegreeStats> = {
  name: "chain",
  fromData(structure: SparsityStructure): DegreeStats {
    const hr = rowCounts(structure);
    const hc = colCounts(structure);
    return {
      rows: structure.rows,
      cols: structure.cols,
      nnz: structureNnz(structure),
      maxRowNnz: hr.reduce((m, v) => Math.max(m, v), 0),
      maxColNnz: hc.reduce((m, v) => Math.max(m, v), 0),
      nonEmptyRows: hr.reduce((n, v) => n + (v > 0 ? 1 : 0), 0),
      nonEmptyCols: hc.reduce((n, v) => n + (v > 0 ? 1 : 0), 0),
    };
  },
  fromMetadata(rows: number, cols: number, nnz: number): DegreeStats {
    checkMetadata(rows, cols, nnz);
    return tighten({ rows, cols, nnz, maxRowNnz: cols, maxColNnz: rows, nonEmptyRows: rows, nonEmptyCols: cols });
  },
  annihilatingMap(inputs, out): DegreeStats {
    if (inputs.length === 0) throw new RangeError("element-wise map of no inputs");
    const vars = inputs.map((s) => variablesOf(s, out));
    if (inputs.some((s) => s.nnz === 0)) return emptyStats(out);
    return project(2, inputs.flatMap((s, n) => degreeConstraints(s, ...vars[n]!)), I, J, out);
  },
  nonAnnihilatingMap(inputs, out): DegreeStats {
    if (inputs.length === 0) throw new RangeError("element-wise map of no inputs");
    const add = (key: keyof Omit<DegreeStats, "rows" | "cols">) => inputs.reduce((t, s) => t + extend(s, out)[key], 0);
    return tighten({
      ...out,
      nnz: add("nnz"),
      maxRowNnz: add("maxRowNnz"),
      maxColNnz: add("maxColNnz"),
      nonEmptyRows: add("nonEmptyRows"),
      nonEmptyCols: add("nonEmptyCols"),
    });
  },
  aggregate(s: DegreeStats, over: AggregateAxis): DegreeStats {
    const out = aggregateShape(s, over);
    // Keep the row variable, the column variable, or neither; the rest is projected away.
    const r = over === "rows" ? 0 : I;
    const c = over === "cols" ? 0 : J;
    if (r === 0 && c === 0) return tighten({ ...out, nnz: Math.min(1, s.nnz), maxRowNnz: 1, maxColNnz: 1, nonEmptyRows: 1, nonEmptyCols: 1 });
    const constraints = degreeConstraints(s, I, J);
    const bound = (from: number, to: number) => chainBound(2, constraints, from, to);
    return tighten({
      ...out,
      nnz: bound(0, r | c),
      maxRowNnz: r === 0 ? bound(0, c) : 1,
      maxColNnz: c === 0 ? bound(0, r) : 1,
      nonEmptyRows: r === 0 ? 1 : bound(0, r),
      nonEmptyCols: c === 0 ? 1 : bound(0, c),
    });
  },
  matmul(a: DegreeStats, b: DegreeStats): DegreeStats {
    const out = productShape(a, b);
    if (a.nnz === 0 || b.nnz === 0) return emptyStats(out);
    // Map over (i, j, k): the union of A's constraints on (i, j) and B's on (j, k) ...
    const joined = [...degreeConstraints(a, I, J), ...degreeConstraints(b, J, K), { x: J, y: 0, d: a.cols }];
    // ... then aggregate over j: project onto (i, k).
    return project(3, joined, I, K, out);
  },
  transpose: (s) => ({
    rows: s.cols,
    cols: s.rows,
    nnz: s.nnz,
    maxRowNnz: s.maxColNnz,
    maxColNnz: s.maxRowNnz,
    nonEmptyRows: s.nonEmptyCols,
    nonEmptyCols: s.nonEmptyRows,
  }),
  estimate: (s) => s.nnz,
  shape: (s) => ({ rows: s.rows, cols: s.cols }),
};
