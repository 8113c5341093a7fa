/**
 * Sizes of `X[rl:ru, cl:cu]` and `X[rl:ru, cl:cu] = Y`. Bounds are inputs
 * (the literal ALL_INDICES stands for "all"); known bounds outside the
 * matrix are errors. As in SystemDS (IndexedIdentifier: lower == upper), a
 * single index selects one row or column whatever its value (`X[, i]` is
 * nrow x 1), and so do bounds that differ by a constant (`X[k*(b-1)+1 : k*b, ]`
 * has k rows, affine-bounds.ts).
 */
import { type DagNode, ALL_INDICES } from "../../program";
import { cells, isMatrix, matrixStats, type NodeStats, operand } from "./node-stats";

type Report = (message: string, code: string) => void;

interface Span {
  /** Number of rows (or columns) selected, when known. */
  count: number | null;
  /** The span covers the whole dimension. */
  all: boolean;
}

function bound(s: NodeStats | undefined): number | null | "all" {
  if (!s || s.value === undefined) return null;
  if (s.value === ALL_INDICES) return "all";
  const v = typeof s.value === "boolean" ? (s.value ? 1 : 0) : Number(s.value);
  return Number.isFinite(v) ? v : null;
}

/** `upper - lower + 1` of two bounds given by node ids, when they differ by a constant. */
export type SpanOf = (lower: number, upper: number) => number | undefined;

function span(lower: NodeStats | undefined, upper: NodeStats | undefined, extent: number | null, what: string, report: Report, symbolic?: number): Span {
  const lo = bound(lower);
  const hi = upper === undefined ? lo : bound(upper);
  if (lo === "all") return { count: extent, all: true };
  if (lo === null || hi === null || hi === "all") {
    const count = symbolic !== undefined && symbolic >= 1 && (extent === null || symbolic <= extent) ? symbolic : null;
    return { count, all: count !== null && count === extent };
  }
  if (lo < 1 || hi < lo || (extent !== null && hi > extent)) {
    const shape = extent === null ? "" : ` of ${extent}`;
    report(`index out of range: ${what} ${lo === hi ? lo : `${lo}:${hi}`}${shape}`, "index-out-of-range");
    return { count: null, all: false };
  }
  return { count: hi - lo + 1, all: extent !== null && lo === 1 && hi === extent };
}

function fraction(selected: number | null, total: NodeStats): number | null {
  const n = cells(total);
  if (selected === null || n === null) return null;
  return n === 0 ? 0 : selected / n;
}

export function indexStats(node: DagNode, inputs: NodeStats[], report: Report, spanOf?: SpanOf): NodeStats {
  const x = operand(inputs, 0, "indexing");
  const [, rl, ru, cl, cu] = inputs;
  if (!isMatrix(x)) return { type: node.type, rows: null, cols: null, nnz: null };
  const symbolic = (k: number) => (node.inputs.length === 5 ? spanOf?.(node.inputs[k]!, node.inputs[k + 1]!) : undefined);
  const rows = span(rl, ru, x.rows, "rows", report, symbolic(1));
  const cols = span(cl, cu, x.cols, "columns", report, symbolic(3));
  const selected = rows.count !== null && cols.count !== null ? rows.count * cols.count : null;
  if (rows.all && cols.all) return x;
  const f = fraction(selected, x);
  return matrixStats(rows.count, cols.count, f === null || x.nnz === null ? null : x.nnz * f);
}

export function leftIndexStats(node: DagNode, inputs: NodeStats[], report: Report): NodeStats {
  const x = operand(inputs, 0, "left indexing");
  const y = operand(inputs, 1, "left indexing");
  const [, , rl, ru, cl, cu] = inputs;
  if (!isMatrix(x)) return { type: node.type, rows: null, cols: null, nnz: null };
  const rows = span(rl, ru, x.rows, "rows", report);
  const cols = span(cl, cu, x.cols, "columns", report);
  if (isMatrix(y)) {
    const mismatch =
      (rows.count !== null && y.rows !== null && y.rows !== rows.count) ||
      (cols.count !== null && y.cols !== null && y.cols !== cols.count);
    if (mismatch) {
      report(`the assigned matrix is ${y.rows} x ${y.cols}, but the indexed range is ${rows.count ?? "?"} x ${cols.count ?? "?"}`, "dimension-mismatch");
    }
  }
  const selected = rows.count !== null && cols.count !== null ? rows.count * cols.count : null;
  const f = fraction(selected, x);
  const added = isMatrix(y) ? y.nnz : y.value === undefined ? null : Number(y.value) !== 0 ? selected : 0;
  const nnz = f === null || x.nnz === null || added === null ? null : x.nnz * (1 - f) + added;
  return matrixStats(x.rows, x.cols, nnz);
}
