/**
 * Sketches through the size analysis: statistics of the sparsity estimators
 * (estimators/) carried on NodeStats next to dims and nnz.
 *
 * - An MNC sketch starts at a `read` of local data (read-sketches.ts) or at a
 *   constructor whose structure is exactly known (all zeros, all non-zeros,
 *   `diag` of a vector). It goes through what the estimators support:
 *   `%*%`, `t`, element-wise `*` and `&` (annihilating) and `+`, `-`, `|`
 *   (non-annihilating), with broadcasting, row and column `sum`, `mean` and
 *   `sumSq`, and through operations that keep the pattern or part of it
 *   (`X * 2`, `abs(X)`; `X > 0`, `round(X)`, where it becomes an estimate).
 *   Any other operation, or an operand without one, drops it, and nnz comes
 *   from the uniform rules of node-sizes.ts. While present, nnz is MNC's.
 *   No sketch is built from metadata alone: it would carry no structure
 *   (mnc.ts then uses the uniform formulas, the numbers the uniform rules
 *   give anyway) and cost vectors as long as rows + cols.
 * - Degree statistics of the chain bound come from the data, else from rows,
 *   cols and an exact nnz (or a known upper bound, or the number of cells),
 *   and go through products, transposes, aggregates and element-wise maps
 *   (also `min`, `max`, comparisons... whose f(0, 0) = 0: inside the union).
 *   They give `nnzUpperBound`; an estimate above it is lowered to it, and a
 *   bound of 0 makes nnz an exact 0.
 * - `pattern` follows which matrices share a pattern: `X * (X > 0)` has the
 *   pattern of `X > 0`, `X + X` that of `X` (or less, if values cancel).
 * - nnz stays exact only where it provably is: MNC's exact product case on
 *   exact inputs (one side with at most one non-zero per row or column: no
 *   sums, so nothing cancels), `*`, `&`, `|` of one matrix with broadcast
 *   vectors on exact counts, `sumSq` aggregates, transposes and operations
 *   that keep the pattern.
 *
 * Counts follow the estimators' boolean semantics; cancellation only removes
 * non-zeros, so the upper bounds hold for the real values too.
 */
import type { AggregateFunction, DagNode, ElementwiseBinaryOp, ElementwiseUnaryOp } from "../../program";
import { chainBoundEstimator as chain, type DegreeStats, mncEstimator as mnc, mncProductIsExact, type MncSketch, sketchFromCounts } from "../estimators";
import { type AggregateAxis, broadcastOf, type MatrixShape } from "../matrix-shape";
import { cells, isMatrix, type NodeSketch, type NodeStats } from "./node-stats";
import { applyNumeric, applyNumericUnary, isNonZero } from "./scalar-fold";

/**
 * Which estimate a matrix's inexact nnz is: `mnc` (the default) MNC's while
 * the matrix carries a sketch, else the uniform rules; `uniform` the uniform
 * (average-case) rules only; `worst-case` the chain bound, the most
 * non-zeros the matrix can have. Every choice is lowered to the chain bound
 * where that is smaller, and keeps the counts that are provably exact.
 */
export type SparsityEstimator = "mnc" | "uniform" | "worst-case";

export const SPARSITY_ESTIMATORS: readonly SparsityEstimator[] = ["mnc", "uniform", "worst-case"];

/** MNC sketches are kept only for matrices with rows + cols up to this (the length of their vectors). */
export const MAX_SKETCH_LENGTH = 1 << 20;

/** An operation's sketch, and the nnz it gives when that replaces the uniform one. */
interface Derived {
  sketch: NodeSketch;
  nnz?: { value: number; exact: boolean };
}

/** `stats` (from the uniform rules) with the sketch of the node's result, and the nnz and bound it gives. */
export function withSketches(node: DagNode, inputs: readonly NodeStats[], stats: NodeStats, estimator: SparsityEstimator = "mnc"): NodeStats {
  if (!isMatrix(stats) || stats.rows === null || stats.cols === null) return stats;
  if (stats.sketch) return stats; // passed through: an input, a read, a call's result
  const derived = derive(node, inputs, { rows: stats.rows, cols: stats.cols });
  const constant = estimator === "mnc" ? constantSketch(node, stats) : undefined;
  return settle(stats, derived ?? { sketch: fresh(constant, metadataDegrees(stats)) }, estimator);
}

/** Chain-bound statistics from rows, cols and an exact nnz (else a known upper bound, else the cells). */
function metadataDegrees(s: NodeStats): DegreeStats | undefined {
  const n = cells(s);
  if (n === null || !Number.isFinite(n) || s.rows! < 0 || s.cols! < 0) return undefined;
  const known = s.nnzExact && s.nnz !== null ? s.nnz : s.nnzUpperBound;
  const nnz = Math.min(n, known ?? n);
  return nnz >= 0 ? chain.fromMetadata(s.rows!, s.cols!, nnz) : undefined;
}

function degreesOf(s: NodeStats): DegreeStats | undefined {
  return s.sketch?.chain ?? (isMatrix(s) ? metadataDegrees(s) : undefined);
}

/** A sketch with a pattern of its own. */
function fresh(m: MncSketch | undefined, c: DegreeStats | undefined): NodeSketch {
  return { ...(m ? { mnc: m } : {}), ...(c ? { chain: c } : {}), pattern: { root: {}, relation: "equal" } };
}

function settle(stats: NodeStats, derived: Derived, estimator: SparsityEstimator): NodeStats {
  const out: NodeStats = { ...stats, sketch: derived.sketch };
  let nnz = stats.nnz;
  let exact = stats.nnzExact === true && nnz !== null;
  if (derived.nnz) ({ value: nnz, exact } = derived.nnz);
  const bound = derived.sketch.chain?.nnz;
  if (bound !== undefined && !exact) {
    if (bound === 0) [nnz, exact] = [0, true];
    else if (estimator === "worst-case" || (nnz !== null && nnz > bound)) nnz = bound;
  }
  out.nnz = nnz;
  if (exact && nnz !== null) out.nnzExact = true;
  else delete out.nnzExact;
  if (exact && nnz !== null) out.nnzUpperBound = nnz;
  else if (bound !== undefined) out.nnzUpperBound = bound;
  return out;
}

function derive(node: DagNode, inputs: readonly NodeStats[], shape: MatrixShape): Derived | undefined {
  const op = node.op;
  switch (op.kind) {
    case "matmul":
      return product(inputs[0]!, inputs[1]!);
    case "transpose": {
      const a = inputs[0]!;
      const m = a.sketch?.mnc;
      const d = degreesOf(a);
      return { sketch: fresh(m && mnc.transpose(m), d && chain.transpose(d)) };
    }
    case "binary": {
      const [a, b] = [inputs[0]!, inputs[1]!];
      if (isMatrix(a) && isMatrix(b)) return elementwise(op.op, a, b, shape);
      if (isMatrix(a) || isMatrix(b)) return withScalar(op.op, isMatrix(a) ? a : b, isMatrix(a) ? b : a, isMatrix(a));
      return undefined;
    }
    case "unary":
      return unary(op.op, inputs[0]!);
    case "aggregate":
      return op.direction === "full" ? undefined : aggregate(op.fn, op.direction === "row" ? "cols" : "rows", inputs[0]!);
    case "diag":
      return diagonal(inputs[0]!, shape);
    default:
      return undefined;
  }
}

function product(a: NodeStats, b: NodeStats): Derived | undefined {
  if (!isMatrix(a) || !isMatrix(b) || a.cols === null || a.cols !== b.rows) return undefined;
  const da = degreesOf(a);
  const db = degreesOf(b);
  const c = da && db ? chain.matmul(da, db) : undefined;
  const ma = a.sketch?.mnc;
  const mb = b.sketch?.mnc;
  if (!ma || !mb) return { sketch: fresh(undefined, c) };
  const m = mnc.matmul(ma, mb);
  const passThrough = (s: MncSketch) => s.fullDiagonal && s.origin === "data";
  const exactCase = mncProductIsExact(ma, mb) || ma.nnz === 0 || mb.nnz === 0 || passThrough(ma) || passThrough(mb);
  return { sketch: fresh(m, c), nnz: { value: m.nnz, exact: a.nnzExact === true && b.nnzExact === true && exactCase } };
}

/** Non-zero where every operand is (`*`, `&`; `bitwAnd` inside that), or where any is (`+`, `-`, `|`; others with f(0, 0) = 0 inside that). */
function mapKind(op: ElementwiseBinaryOp): "intersect" | "union" | undefined {
  if (op === "*" || op === "&" || op === "bitwAnd") return "intersect";
  if (op === "+" || op === "-" || op === "|") return "union";
  return isNonZero(applyNumeric(op, 0, 0)) ? undefined : "union";
}

const MNC_MAPS: ReadonlySet<ElementwiseBinaryOp> = new Set(["*", "&", "+", "-", "|"]);

function elementwise(op: ElementwiseBinaryOp, a: NodeStats, b: NodeStats, shape: MatrixShape): Derived | undefined {
  const kind = mapKind(op);
  if (!kind || !broadcasts(a, shape) || !broadcasts(b, shape)) return undefined;
  const shared = samePattern(op, kind, a, b);
  if (shared) return shared;
  const da = degreesOf(a);
  const db = degreesOf(b);
  const intersect = kind === "intersect";
  const c = da && db ? (intersect ? chain.annihilatingMap([da, db], shape) : chain.nonAnnihilatingMap([da, db], shape)) : undefined;
  const ma = a.sketch?.mnc;
  const mb = b.sketch?.mnc;
  if (!MNC_MAPS.has(op) || !ma || !mb) return { sketch: fresh(undefined, c) };
  const m = intersect ? mnc.annihilatingMap([ma, mb], shape) : mnc.nonAnnihilatingMap([ma, mb], shape);
  // MNC is exact for one matrix with broadcast vectors (or 1 x 1), on exact counts; `+` and `-` may cancel.
  const full = [a, b].filter((s) => s.rows === shape.rows && s.cols === shape.cols && shape.rows > 1 && shape.cols > 1).length;
  const exact = op !== "+" && op !== "-" && full <= 1 && [a, b].every((s) => s.nnzExact === true) && ma.origin === "data" && mb.origin === "data";
  return { sketch: fresh(m, c), nnz: { value: m.nnz, exact } };
}

function broadcasts(s: NodeStats, shape: MatrixShape): boolean {
  if (s.rows === null || s.cols === null) return false;
  try {
    broadcastOf({ rows: s.rows, cols: s.cols }, shape);
    return true;
  } catch {
    return false;
  }
}

/** Operands whose patterns are one root's, one of them all of it: the result's pattern follows without estimating. */
function samePattern(op: ElementwiseBinaryOp, kind: "intersect" | "union", a: NodeStats, b: NodeStats): Derived | undefined {
  const pa = a.sketch?.pattern;
  const pb = b.sketch?.pattern;
  if (!pa || !pb || pa.root !== pb.root) return undefined;
  let whole: NodeStats;
  let part: NodeStats;
  if (pa.relation === "equal" && pb.relation === "equal") [whole, part] = b.nnzExact ? [a, b] : [b, a];
  else if (pa.relation === "equal") [whole, part] = [a, b];
  else if (pb.relation === "equal") [whole, part] = [b, a];
  else return undefined;
  if (kind === "intersect") return op === "bitwAnd" ? subsetOf(part) : sameAs(part);
  // The union is the whole pattern; `+`, `-`, min, max... may lose some of it.
  return op === "|" ? sameAs(whole) : subsetOf(whole, true);
}

/** The operand's pattern, unchanged. */
function sameAs(x: NodeStats): Derived | undefined {
  if (!x.sketch) return undefined;
  return { sketch: x.sketch, ...(x.nnz !== null ? { nnz: { value: x.nnz, exact: x.nnzExact === true } } : {}) };
}

/** Part of the operand's pattern: its statistics become estimates (as the uniform rule, every non-zero is assumed to stay). */
function subsetOf(x: NodeStats, keepNnz = false): Derived {
  const s = x.sketch;
  const m = s?.mnc && (s.mnc.origin === "data" ? { ...s.mnc, origin: "derived" as const } : s.mnc);
  const c = s?.chain ?? degreesOf(x);
  const sketch: NodeSketch = {
    ...(m ? { mnc: m } : {}),
    ...(c ? { chain: c } : {}),
    ...(s?.pattern ? { pattern: { root: s.pattern.root, relation: "subset" } } : {}),
  };
  return keepNnz && x.nnz !== null ? { sketch, nnz: { value: x.nnz, exact: false } } : { sketch };
}

/** A matrix with a scalar: the pattern stays when a zero stays zero and a non-zero stays non-zero; part of it when only the first holds. */
function withScalar(op: ElementwiseBinaryOp, x: NodeStats, scalar: NodeStats, matrixFirst: boolean): Derived | undefined {
  const v = scalar.value;
  const c = typeof v === "number" ? v : typeof v === "boolean" ? (v ? 1 : 0) : undefined;
  if (c === undefined) return mapKind(op) === "intersect" ? subsetOf(x) : undefined;
  if (isNonZero(matrixFirst ? applyNumeric(op, 0, c) : applyNumeric(op, c, 0))) return undefined;
  const keeps =
    ((op === "*" || op === "&") && c !== 0) ||
    (op === "/" && matrixFirst && c !== 0) ||
    ((op === "+" || op === "-" || op === "|" || op === "!=") && c === 0) ||
    (op === "^" && matrixFirst && c > 0);
  if (keeps) return sameAs(x);
  if (op !== "*" && op !== "&") return subsetOf(x);
  // Times 0 (or and FALSE): no non-zero is left.
  return x.rows === null || x.cols === null ? undefined : { sketch: fresh(undefined, chain.fromMetadata(x.rows, x.cols, 0)) };
}

function unary(op: ElementwiseUnaryOp, x: NodeStats): Derived | undefined {
  if (!isMatrix(x)) return undefined;
  if (op === "-" || op === "abs" || op === "sign" || op === "sqrt") return sameAs(x);
  return isNonZero(applyNumericUnary(op, 0)) ? undefined : subsetOf(x);
}

/** Row or column aggregates: every function stays inside the pattern of the sum; MNC's estimate is for sum-like ones. */
function aggregate(fn: AggregateFunction, over: AggregateAxis, x: NodeStats): Derived | undefined {
  if (!isMatrix(x)) return undefined;
  // Over no cells (0 columns for row aggregates, 0 rows for column ones) only sums are 0: means are NaN, min/max ±Inf, prod 1.
  const outCells = over === "cols" ? x.rows : x.cols;
  if ((over === "cols" ? x.cols : x.rows) === 0 && outCells !== null) return { sketch: fresh(undefined, undefined), nnz: { value: fn === "sum" || fn === "sumSq" ? 0 : outCells, exact: true } };
  const d = degreesOf(x);
  const c = d && chain.aggregate(d, over);
  const m = x.sketch?.mnc;
  if (!m || (fn !== "sum" && fn !== "mean" && fn !== "sumSq")) return { sketch: fresh(undefined, c) };
  const result = mnc.aggregate(m, over);
  // Sums and means may cancel to 0; sums of squares of non-zeros do not.
  const exact = fn === "sumSq" && x.nnzExact === true && m.origin === "data";
  return { sketch: fresh(result, c), nnz: { value: result.nnz, exact } };
}

/** `diag(v)` of a column vector: one non-zero per row and column, where v has them. */
function diagonal(v: NodeStats, shape: MatrixShape): Derived | undefined {
  if (!isMatrix(v) || v.cols !== 1 || v.rows === null || v.rows !== shape.rows) return undefined;
  const d = degreesOf(v);
  const c: DegreeStats | undefined = d && {
    ...shape,
    nnz: d.nnz,
    maxRowNnz: Math.min(1, d.nnz),
    maxColNnz: Math.min(1, d.nnz),
    nonEmptyRows: Math.min(shape.rows, d.nnz),
    nonEmptyCols: Math.min(shape.cols, d.nnz),
  };
  const m = v.sketch?.mnc;
  let flags: Float64Array | undefined;
  let origin: MncSketch["origin"] = "data";
  if (m) {
    flags = m.rowCounts.map((x) => (x > 0 ? 1 : 0));
    origin = m.origin === "data" ? "data" : "derived";
  } else if (v.nnzExact && v.nnz === v.rows && 2 * v.rows <= MAX_SKETCH_LENGTH) {
    flags = new Float64Array(v.rows).fill(1);
  }
  if (!flags) return { sketch: fresh(undefined, c) };
  const full = origin === "data" && flags.every((x) => x === 1);
  const sketch = sketchFromCounts(shape.rows, shape.cols, flags, flags, { her: flags, hec: flags, fullDiagonal: full, origin });
  return { sketch: fresh(sketch, c) };
}

/** `matrix`, `rand`, `seq` with an exact count of 0 or of all cells: their structure is known. */
function constantSketch(node: DagNode, s: NodeStats): MncSketch | undefined {
  const kind = node.op.kind;
  if (kind !== "matrix" && kind !== "rand" && kind !== "seq") return undefined;
  if (!s.nnzExact || s.nnz === null || s.rows === null || s.cols === null || s.rows + s.cols > MAX_SKETCH_LENGTH) return undefined;
  const { rows, cols } = s;
  if (!Number.isInteger(rows) || !Number.isInteger(cols)) return undefined;
  if (s.nnz === 0) return sketchFromCounts(rows, cols, new Float64Array(rows), new Float64Array(cols), { origin: "data", uniform: true });
  if (s.nnz !== rows * cols) return undefined;
  const hr = new Float64Array(rows).fill(cols);
  const hc = new Float64Array(cols).fill(rows);
  return sketchFromCounts(rows, cols, hr, hc, {
    her: rows === 1 ? hr : new Float64Array(rows),
    hec: cols === 1 ? hc : new Float64Array(cols),
    fullDiagonal: rows === 1 && cols === 1,
    origin: "data",
    uniform: true,
  });
}
