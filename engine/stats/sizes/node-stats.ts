/**
 * What the analysis knows about the value of one DAG node: for a matrix its
 * dims and non-zeros, for a scalar possibly its constant value. `null` means
 * unknown; nothing is ever guessed to fill a gap.
 *
 * `nnz` of a matrix is exact when `nnzExact` is set (from metadata, or an
 * operation that preserves it, such as a transpose); otherwise it is the
 * estimate of the uniform (average-case) estimator, or of MNC while the
 * matrix carries a sketch (see sketch-sizes.ts).
 */
import type { DagType } from "../../program";
import type { DegreeStats, MncSketch } from "../estimators";

export type ScalarValue = number | string | boolean;

export interface NodeStats {
  type: DagType;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
  nnzExact?: boolean;
  /** A number of non-zeros the matrix provably does not exceed (the chain bound; `nnz` when exact). */
  nnzUpperBound?: number;
  /** Statistics of the sparsity estimators, when the analysis has them (see sketch-sizes.ts). */
  sketch?: NodeSketch;
  /** The constant value of a scalar, when constant folding found it. */
  value?: ScalarValue;
  /** The stats of a list's items, in order, when the list's construction is known (`list(...)`, `append`). */
  items?: readonly NodeStats[];
}

/**
 * What the sparsity estimators know about a matrix beyond rows, cols and nnz:
 * an MNC sketch (from the data, or propagated; it gives `nnz` while present)
 * and the degree statistics of the chain bound (they give `nnzUpperBound`).
 * `pattern` relates the non-zero pattern to that of another matrix, so that
 * `X * (X > 0)` is known to have the pattern of `X > 0`.
 */
export interface NodeSketch {
  readonly mnc?: MncSketch;
  readonly chain?: DegreeStats;
  readonly pattern?: PatternRef;
}

/** The non-zero pattern is equal to, or contained in, the pattern that `root` stands for. */
interface PatternRef {
  readonly root: object;
  readonly relation: "equal" | "subset";
}

/**
 * A scalar's stats (0 x 0, as SystemDS sizes scalars), with its constant
 * value when known. A value whose type is not known to be scalar gets
 * unknown dims: unknown type means unknown, never a 0 x 0 scalar.
 */
export function scalarStats(type: DagType, value?: ScalarValue): NodeStats {
  if (type.dataType !== "scalar") return { type, rows: null, cols: null, nnz: null };
  return value === undefined ? { type, rows: 0, cols: 0, nnz: null } : { type, rows: 0, cols: 0, nnz: null, value };
}

export function matrixStats(rows: number | null, cols: number | null, nnz: number | null, nnzExact = false): NodeStats {
  const stats: NodeStats = { type: { dataType: "matrix", valueType: "double" }, rows, cols, nnz };
  if (nnzExact && nnz !== null) stats.nnzExact = true;
  return stats;
}

export const unknownStats: NodeStats = { type: { dataType: "unknown", valueType: "unknown" }, rows: null, cols: null, nnz: null };

/**
 * The stats of a node's operand `index`. A DAG node always has the operands
 * its operation takes (the DAG builder makes them), so a missing one is a
 * programming error, reported as such.
 */
export function operand(inputs: readonly NodeStats[], index: number, operation: string): NodeStats {
  const stats = inputs[index];
  if (stats === undefined) throw new Error(`${operation}: operand ${index + 1} of ${inputs.length} is missing (a DAG node built without its operands)`);
  return stats;
}

export function isMatrix(stats: NodeStats): boolean {
  return stats.type.dataType === "matrix";
}

/** A list whose items are known. */
export function listStats(items: readonly NodeStats[]): NodeStats {
  return { type: { dataType: "list", valueType: "unknown" }, rows: items.length, cols: 1, nnz: null, items };
}

export function isScalar(stats: NodeStats): boolean {
  return stats.type.dataType === "scalar";
}

/** Cells of a matrix, when both dims are known. */
export function cells(stats: NodeStats): number | null {
  return stats.rows !== null && stats.cols !== null ? stats.rows * stats.cols : null;
}

/** Fraction of non-zero cells, when known. */
export function sparsity(stats: NodeStats): number | null {
  const n = cells(stats);
  if (n === null || stats.nnz === null) return null;
  return n === 0 ? 0 : stats.nnz / n;
}

/** A constant scalar as a reader expects it: strings quoted, numbers as DML prints them (NaN, Infinity, -Infinity). */
export function scalarValueText(value: number | string | boolean): string {
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** `1000 x 20, nnz 2000` (or `? x 20`), `scalar 3`, used by printers and tests. */
export function formatStats(stats: NodeStats): string {
  if (stats.type.dataType === "scalar") {
    return stats.value === undefined ? `scalar ${stats.type.valueType}` : `scalar ${scalarValueText(stats.value)}`;
  }
  if (stats.type.dataType !== "matrix") return stats.type.dataType;
  const dim = (n: number | null) => (n === null ? "?" : String(n));
  const nnz = stats.nnz === null ? "?" : stats.nnzExact ? String(stats.nnz) : `~${Math.round(stats.nnz)}`;
  return `${dim(stats.rows)} x ${dim(stats.cols)}, nnz ${nnz}`;
}
