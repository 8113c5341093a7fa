/** Sizes of constructors: `rand`, `matrix`, `seq`, `diag`, `table`. */
import type { DagNode } from "../../program";
import { cells, isMatrix, matrixStats, type NodeStats, type ScalarValue } from "./node-stats";

type Report = (message: string, code: string) => void;

/** Positional parameter order of each constructor, as SystemDS's DataExpression reads them. */
const positions: Record<string, string[]> = {
  rand: ["rows", "cols", "min", "max", "sparsity", "seed", "pdf", "lambda"],
  matrix: ["data", "rows", "cols", "byrow"],
  seq: ["from", "to", "incr"],
};

/** The input position of a constructor's argument `name` (named, or by its position among the unnamed ones). */
function argumentIndex(node: DagNode, count: number, kind: string, name: string): number | undefined {
  const names = node.argNames ?? [];
  const named = names.indexOf(name);
  if (named >= 0) return named;
  const position = positions[kind]?.indexOf(name) ?? -1;
  if (position < 0) return undefined;
  let seen = 0;
  for (let i = 0; i < count; i++) {
    if (names[i] !== undefined) continue;
    if (seen === position) return i;
    seen++;
  }
  return undefined;
}

function argument(node: DagNode, inputs: NodeStats[], kind: string, name: string): NodeStats | undefined {
  const k = argumentIndex(node, inputs.length, kind, name);
  return k === undefined ? undefined : inputs[k];
}

function numberOf(s: NodeStats | undefined): number | null {
  if (!s || isMatrix(s) || s.value === undefined) return null;
  const v: ScalarValue = s.value;
  const n = typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * A `rows` or `cols` argument: its constant value when it is a non-negative
 * integer; null when it is not known, or (reported, located at the call) when
 * it is not a non-negative integer (`rows=-5`, `cols=1e-308`, `rows=NaN`):
 * SystemDS rejects such dims, and the rest of the analysis must not size with them.
 */
function dimension(node: DagNode, s: NodeStats | undefined, name: string, report: Report): number | null {
  if (!s || isMatrix(s) || s.value === undefined || typeof s.value === "string") return null;
  const n = typeof s.value === "boolean" ? (s.value ? 1 : 0) : Number(s.value);
  if (Number.isInteger(n) && n >= 0) return n;
  report(`${node.op.kind}(...): ${name} must be a non-negative integer, found ${String(s.value)}`, "bad-dimension");
  return null;
}

/** `upper - lower + 1` of two scalar nodes of the block that differ by a constant (affine-bounds.ts). */
type SpanOf = (lower: number, upper: number) => number | undefined;

export function constructorStats(node: DagNode, inputs: NodeStats[], report: Report, spanOf?: SpanOf): NodeStats | undefined {
  const get = (name: string) => argument(node, inputs, node.op.kind, name);
  switch (node.op.kind) {
    case "rand": {
      const rows = dimension(node, get("rows"), "rows", report);
      const cols = dimension(node, get("cols"), "cols", report);
      const min = get("min") ? numberOf(get("min")) : 0;
      const max = get("max") ? numberOf(get("max")) : 1;
      const density = get("sparsity") ? numberOf(get("sparsity")) : 1;
      const n = rows !== null && cols !== null ? rows * cols : null;
      if (min === 0 && max === 0) return matrixStats(rows, cols, 0, true);
      return matrixStats(rows, cols, n === null || density === null ? null : Math.round(n * density));
    }
    case "matrix": {
      const data = get("data");
      const rows = dimension(node, get("rows"), "rows", report);
      const cols = dimension(node, get("cols"), "cols", report);
      const n = rows !== null && cols !== null ? rows * cols : null;
      if (data && isMatrix(data)) {
        const dataCells = cells(data);
        if (n !== null && dataCells !== null && n !== dataCells) {
          report(`matrix(...) cannot reshape ${data.rows} x ${data.cols} (${dataCells} cells) into ${rows} x ${cols}`, "dimension-mismatch");
        }
        return matrixStats(rows, cols, data.nnz, data.nnzExact);
      }
      if (typeof data?.value === "string") {
        const values = data.value.trim().split(/[\s,]+/).filter((t) => t.length > 0).map(Number);
        return matrixStats(rows, cols, values.filter((v) => v !== 0).length, true);
      }
      const v = numberOf(data);
      if (v === null) return matrixStats(rows, cols, n);
      return matrixStats(rows, cols, v === 0 ? 0 : n, n !== null || v === 0);
    }
    case "seq": {
      const from = numberOf(get("from"));
      const to = numberOf(get("to"));
      const explicit = get("incr");
      const incr = explicit ? numberOf(explicit) : from !== null && to !== null ? (from <= to ? 1 : -1) : null;
      if ((from === null || to === null) && (explicit === undefined || (incr !== null && incr !== 0))) {
        // `seq(i, k*(r-1) + i, k)`, `seq(i, i + 9)`: the bounds differ by a constant, the count is known
        // (without an increment it is 1 or -1, toward `to`).
        const fromAt = argumentIndex(node, inputs.length, "seq", "from");
        const toAt = argumentIndex(node, inputs.length, "seq", "to");
        const span = fromAt !== undefined && toAt !== undefined ? spanOf?.(node.inputs[fromAt]!, node.inputs[toAt]!) : undefined;
        const step = incr ?? (span !== undefined && span < 1 ? -1 : 1);
        const count = span === undefined ? undefined : Math.floor((span - 1) / step + 1e-10) + 1;
        return matrixStats(count !== undefined && count >= 1 ? count : null, 1, null);
      }
      if (from === null || to === null || incr === null || incr === 0) return matrixStats(null, 1, null);
      const count = Math.floor((to - from) / incr + 1e-10) + 1;
      if (count < 1) {
        report(`seq(${from}, ${to}, ${incr}) is empty: the increment goes the wrong way`, "empty-seq");
        return matrixStats(null, 1, null);
      }
      const hitsZero = (0 - from) / incr >= 0 && Number.isInteger(Math.round(((0 - from) / incr) * 1e9) / 1e9) && (0 - from) / incr < count;
      return matrixStats(count, 1, count - (hitsZero ? 1 : 0), true);
    }
    case "diag": {
      const [x] = inputs;
      if (!x || !isMatrix(x)) return undefined;
      if (x.cols === 1) return matrixStats(x.rows, x.rows, x.nnz, x.nnzExact);
      // Unknown columns: a vector (n x n result) or a square matrix (n x 1) — which one is not known.
      if (x.cols === null) return matrixStats(x.rows, null, null);
      if (x.rows !== null && x.cols !== null && x.rows !== x.cols) {
        report(`diag needs a square matrix or a column vector, but this one is ${x.rows} x ${x.cols}`, "dimension-mismatch");
        return matrixStats(null, 1, null);
      }
      const n = x.rows;
      return matrixStats(n, 1, n === null || x.nnz === null || n === 0 ? null : Math.min(n, x.nnz / n));
    }
    case "table":
      return tableStats(node, inputs, report);
    default:
      return undefined;
  }
}

/**
 * `table(A, B)`, `table(A, B, W)`: the dims are the largest values in the
 * data, unknown without it. `table(A, B, odim1, odim2)` and
 * `table(A, B, W, odim1, odim2[, ignore])` fix them (SystemDS's validator
 * takes constant output dims); at most one non-zero per row of A.
 */
function tableStats(node: DagNode, inputs: NodeStats[], report: Report): NodeStats {
  const dims = inputs.length === 4 ? [inputs[2], inputs[3]] : inputs.length === 5 || inputs.length === 6 ? [inputs[3], inputs[4]] : undefined;
  if (!dims || (node.argNames ?? []).some((n) => n !== undefined)) return matrixStats(null, null, null);
  const rows = dimension(node, dims[0], "odim1", report);
  const cols = dimension(node, dims[1], "odim2", report);
  const a = inputs[0];
  const entries = a && isMatrix(a) && a.rows !== null && a.cols !== null ? a.rows * a.cols : null;
  const n = rows !== null && cols !== null ? rows * cols : null;
  return matrixStats(rows, cols, entries !== null && n !== null ? Math.min(entries, n) : null);
}
