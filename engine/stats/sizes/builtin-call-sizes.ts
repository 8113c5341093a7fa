/**
 * Sizes of the element-wise and row-wise builtins that stay `call` nodes:
 * `ifelse(test, yes, no)` has the shape of its matrix arguments,
 * `replace(target, pattern, replacement)` the target's, `rowIndexMax` and
 * `rowIndexMin` one value per row of the target, the cell-wise `min` and
 * `max` of several arguments (n-ary) the shape of their matrices, the
 * results of the decompositions as SystemDS sizes them (`[e, V] = eigen(A)`:
 * n x 1 and n x n; `[U, S, V] = svd(A)`: m x p, p x p and n x p with
 * p = min(m, n); `[H, R] = qr(A)`: both m x n; `[P, L, U] = lu(A)`: n x n),
 * `quantile(X, P)` with a vector P one value per probability. As
 * SystemDS's validator (BuiltinFunctionExpression) sizes them: the
 * cumulative aggregates (`cumsum`, ...) and `rev`, `roll`, `lower.tri`,
 * `upper.tri` keep their input's dims (`cumsumprod` one column), `inv` and
 * `cholesky` too, `solve(A, b)` is ncol(A) x ncol(b), `outer(a, b, op)`
 * nrow(a) x ncol(b), `sample(range, size)` a size x 1 column of values
 * from 1 to range, `order` the target's dims (one column with
 * `index.return=TRUE`).
 * Non-zeros follow the uniform (average-case) estimate; unknown stays
 * unknown.
 */
import { callParameterInput, type DagNode } from "../../program";
import { cells, isMatrix, isScalar, matrixStats, sparsity, type NodeStats } from "./node-stats";

/** Reports a dimension error at the call (the arguments' shapes known to be wrong for it). */
export type CallSizeReport = (message: string, code: string) => void;

export function builtinCallStats(node: DagNode, inputs: readonly NodeStats[], report: CallSizeReport = () => {}): NodeStats | undefined {
  if (node.op.kind !== "call" || node.op.user) return undefined;
  if (node.op.output === 0) checkShapes(node.op.name, inputs, report);
  if (Object.hasOwn(DECOMPOSITION_RESULTS, node.op.name)) return decompositionStats(node.op.name, node.op.output, inputs);
  if (node.op.output !== 0) return undefined;
  switch (node.op.name) {
    case "quantile": {
      const probabilities = inputs[inputs.length - 1];
      return probabilities && isMatrix(probabilities) ? matrixStats(probabilities.rows, 1, null) : undefined;
    }
    case "ifelse":
      return ifelseStats(node, inputs);
    case "replace":
      return replaceStats(node, inputs);
    case "rowIndexMax":
    case "rowIndexMin": {
      const target = argument(node, inputs, "target");
      if (!target || !isMatrix(target)) return undefined;
      // Every row gets a 1-based column index, so every cell is non-zero.
      return matrixStats(target.rows, 1, target.rows, target.rows !== null);
    }
    case "min":
    case "max":
      return naryStats(inputs);
    case "aggregate":
    case "groupedAggregate":
      return groupedAggregateStats(node, inputs);
    case "removeEmpty":
      return removeEmptyStats(node, inputs);
    default:
      return reorganizingStats(node, inputs);
  }
}

/** The builtins of one column vector (their first argument), as SystemDS's runtime requires. */
const COLUMN_STATISTICS: ReadonlySet<string> = new Set(["moment", "centralMoment", "cov", "quantile", "median", "interQuartileMean"]);

/** SystemDS's checks of known shapes: eigen and lu of a square matrix, the statistics of a column vector. */
function checkShapes(name: string, inputs: readonly NodeStats[], report: CallSizeReport): void {
  const a = inputs[0];
  if (!a || !isMatrix(a) || a.rows === null || a.cols === null) return;
  if ((name === "eigen" || name === "lu") && a.rows !== a.cols) report(`${name} needs a square matrix, but this one is ${a.rows} x ${a.cols}`, "dimension-mismatch");
  if (COLUMN_STATISTICS.has(name) && a.cols !== 1) report(`${name} needs a column vector, but this one is ${a.rows} x ${a.cols}`, "dimension-mismatch");
}

type Dim = number | null;

/** Each result's rows and cols from the input's (m x n). */
const DECOMPOSITION_RESULTS: Readonly<Record<string, readonly ((m: Dim, n: Dim) => [Dim, Dim])[]>> = {
  eigen: [(m) => [m, 1], (m) => [m, m]],
  svd: [(m, n) => [m, smaller(m, n)], (m, n) => [smaller(m, n), smaller(m, n)], (m, n) => [n, smaller(m, n)]],
  qr: [(m, n) => [m, n], (m, n) => [m, n]],
  lu: [(m) => [m, m], (m) => [m, m], (m) => [m, m]],
};

function smaller(m: Dim, n: Dim): Dim {
  return m === null || n === null ? null : Math.min(m, n);
}

function decompositionStats(name: string, output: number, inputs: readonly NodeStats[]): NodeStats | undefined {
  const a = inputs[0];
  const dims = DECOMPOSITION_RESULTS[name]![output];
  if (!a || !isMatrix(a) || !dims) return undefined;
  const [rows, cols] = dims(a.rows, a.cols);
  // lu's P is a permutation (one 1 a row); svd's S is diagonal (at most p non-zeros).
  if (name === "lu" && output === 0) return matrixStats(rows, cols, rows, rows !== null);
  const stats = matrixStats(rows, cols, null);
  if (name === "svd" && output === 1 && rows !== null) stats.nnzUpperBound = rows;
  return stats;
}

const SAME_DIMS: ReadonlySet<string> = new Set(["cumsum", "cumprod", "cummin", "cummax", "rowcumsum", "inv", "inverse", "cholesky", "lower.tri", "upper.tri"]);

/** The builtins whose result dims follow from their inputs' dims alone (see the header). */
function reorganizingStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  if (node.op.kind !== "call") return undefined;
  const name = node.op.name;
  const first = inputs[0];
  if (SAME_DIMS.has(name) && inputs.length >= 1 && first && isMatrix(first)) return matrixStats(first.rows, first.cols, null);
  if ((name === "rev" || name === "roll") && first && isMatrix(first)) return matrixStats(first.rows, first.cols, first.nnz, first.nnzExact);
  if (name === "cumsumprod" && first && isMatrix(first)) return matrixStats(first.rows, 1, null);
  if (name === "solve" && inputs.length === 2 && isMatrix(inputs[0]!) && isMatrix(inputs[1]!)) return matrixStats(inputs[0]!.cols, inputs[1]!.cols, null);
  if (name === "outer" && inputs.length === 3 && isMatrix(inputs[0]!) && isMatrix(inputs[1]!)) return matrixStats(inputs[0]!.rows, inputs[1]!.cols, null);
  if (name === "sample" && inputs.length >= 2 && inputs.length <= 4 && !(node.argNames ?? []).some((n) => n !== undefined)) {
    const size = constant(inputs[1]);
    if (size === undefined || !Number.isInteger(size) || size < 0) return matrixStats(null, 1, null);
    // Sampled values are 1..range: every cell is non-zero.
    return matrixStats(size, 1, size, true);
  }
  if (name === "order") {
    const names = node.argNames ?? [];
    const at = (parameter: string, position: number) => {
      const named = names.indexOf(parameter);
      return named >= 0 ? inputs[named] : names[position] === undefined ? inputs[position] : undefined;
    };
    const target = at("target", 0);
    if (!target || !isMatrix(target)) return undefined;
    const indexReturn = at("index.return", 3);
    if (indexReturn?.value === true) return matrixStats(target.rows, 1, target.rows, target.rows !== null);
    if (indexReturn && indexReturn.value === undefined) return matrixStats(target.rows, null, null);
    return matrixStats(target.rows, target.cols, target.nnz, target.nnzExact);
  }
  return undefined;
}

/** min/max of several matrices (of one shape) and scalars: that shape; the non-zeros depend on the values, unknown. */
function naryStats(inputs: readonly NodeStats[]): NodeStats | undefined {
  if (inputs.length < 2 || !inputs.every((i) => isMatrix(i) || isScalar(i))) return undefined;
  const matrices = inputs.filter(isMatrix);
  const first = matrices[0];
  if (!first || !matrices.every((m) => m.rows === first.rows && m.cols === first.cols)) return undefined;
  return matrixStats(first.rows, first.cols, null);
}

function argument(node: DagNode, inputs: readonly NodeStats[], parameter: string): NodeStats | undefined {
  const k = callParameterInput(node, parameter);
  return k === undefined ? undefined : inputs[k];
}

/** The value of a constant scalar argument as a number. */
function constant(s: NodeStats | undefined): number | undefined {
  if (!s || !isScalar(s) || s.value === undefined || typeof s.value === "string") return undefined;
  return typeof s.value === "boolean" ? (s.value ? 1 : 0) : s.value;
}

/** Fraction of non-zero cells of a matrix, or 0/1 for a constant scalar; null when unknown. */
function density(s: NodeStats | undefined): number | null {
  if (!s) return null;
  if (isMatrix(s)) return sparsity(s);
  const c = constant(s);
  return c === undefined ? null : c !== 0 ? 1 : 0;
}

function ifelseStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  const args = [argument(node, inputs, "test"), argument(node, inputs, "yes"), argument(node, inputs, "no")];
  const matrices = args.filter((a): a is NodeStats => !!a && isMatrix(a));
  if (matrices.length === 0 || args.some((a) => !a)) return undefined;
  const rows = matrices.find((m) => m.rows !== null)?.rows ?? null;
  const cols = matrices.find((m) => m.cols !== null)?.cols ?? null;
  const out = matrixStats(rows, cols, null);
  const [test = null, yes = null, no = null] = args.map(density);
  const n = cells(out);
  if (test !== null && yes !== null && no !== null && n !== null) out.nnz = Math.round(n * (test * yes + (1 - test) * no));
  return out;
}

function replaceStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  const target = argument(node, inputs, "target");
  if (!target || !isMatrix(target)) return undefined;
  const pattern = constant(argument(node, inputs, "pattern"));
  const replacement = constant(argument(node, inputs, "replacement"));
  if (pattern === 0 && replacement !== undefined && replacement !== 0) {
    // Every zero becomes the non-zero replacement: all cells are non-zero.
    const n = cells(target);
    return matrixStats(target.rows, target.cols, n, n !== null);
  }
  // Replacing by 0 (or a non-zero pattern) keeps the target's non-zeros as the estimate.
  if (pattern !== undefined && replacement !== undefined) return matrixStats(target.rows, target.cols, target.nnz);
  return matrixStats(target.rows, target.cols, null);
}

/** `removeEmpty(target=X, margin="rows")` keeps X's columns (`"cols"`: its rows); the other dim depends on the values. */
function removeEmptyStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  const names = node.argNames ?? [];
  const at = (parameter: string, position: number) => {
    const k = names.indexOf(parameter);
    return k >= 0 ? inputs[k] : names[position] === undefined ? inputs[position] : undefined;
  };
  const target = at("target", 0);
  const margin = at("margin", 1)?.value;
  if (!target || !isMatrix(target) || (margin !== "rows" && margin !== "cols")) return undefined;
  return margin === "rows" ? matrixStats(null, target.cols, null) : matrixStats(target.rows, null, null);
}

/**
 * `aggregate(target=X, groups=g, ngroups=k, ...)` with a constant k: k rows,
 * one column per column of X (one for a row vector X), as SystemDS's validator.
 */
function groupedAggregateStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  const named = (parameter: string) => {
    const k = (node.argNames ?? []).indexOf(parameter);
    return k >= 0 ? inputs[k] : undefined;
  };
  const target = named("target");
  const ngroups = named("ngroups");
  const groups = ngroups ? constant(ngroups) : undefined;
  const rows = groups !== undefined && Number.isInteger(groups) && groups >= 0 ? groups : null;
  const cols = target && isMatrix(target) && target.rows !== 1 ? target.cols : target && isMatrix(target) ? 1 : null;
  return matrixStats(rows, cols, null);
}
