/**
 * Sizes of the element-wise and row-wise builtins that stay `call` nodes:
 * `ifelse(test, yes, no)` has the shape of its matrix arguments,
 * `replace(target, pattern, replacement)` the target's, `rowIndexMax` and
 * `rowIndexMin` one value per row of the target, the cell-wise `min` and
 * `max` of several arguments (n-ary) the shape of their matrices.
 * Non-zeros follow the uniform (average-case) estimate; unknown stays
 * unknown.
 */
import { callParameterInput } from "../../program/builtin-call-parameters";
import type { DagNode } from "../../program/dag-types";
import { cells, isMatrix, isScalar, matrixStats, sparsity, type NodeStats } from "./node-stats";

export function builtinCallStats(node: DagNode, inputs: readonly NodeStats[]): NodeStats | undefined {
  if (node.op.kind !== "call" || node.op.user || node.op.output !== 0) return undefined;
  switch (node.op.name) {
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
    default:
      return undefined;
  }
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
  const [test, yes, no] = args.map(density);
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
