/**
 * The columns a column range `X[, a:b]` inside a fused operator reads, from
 * the values the operator gets: X an input matrix, a and b literals or
 * scalar inputs (truncated to integers, as the runtime's indexing does).
 * Bounds outside X, or a lower bound above the upper one, are not computed
 * in place: the caller leaves the operator to the unfused operations,
 * whose indexing reports the error.
 */
import type { FusionDag } from "../../fusion";
import { ALL_INDICES } from "../../program";
import type { Value } from "../interpreter";

/** 0-based columns [lower, upper) of X, or why the range is not read in place. */
export function columnRangeOf(dag: FusionDag, node: number, inputs: ReadonlyMap<number, Value>): { lower: number; upper: number } | string {
  const n = dag.nodes[node]!;
  if (n.op.kind !== "index" || n.inputs.length !== 5) return "not a right indexing";
  const [x, rl, ru, cl, cu] = n.inputs as [number, number, number, number, number];
  const literal = (id: number) => {
    const op = dag.nodes[id]?.op;
    return op?.kind === "literal" ? op.value : undefined;
  };
  if (literal(rl) !== ALL_INDICES || literal(ru) !== ALL_INDICES) return "only a column range X[, a:b] over all rows is read in place";
  const target = inputs.get(x);
  if (target?.kind !== "matrix") return "the indexed matrix is not an input of the operator";
  const bound = (id: number): number | undefined => {
    const v = literal(id) ?? (inputs.get(id)?.kind === "scalar" ? (inputs.get(id) as Extract<Value, { kind: "scalar" }>).value : undefined);
    return typeof v === "number" ? Math.trunc(v) : typeof v === "boolean" ? Number(v) : undefined;
  };
  const lo = bound(cl);
  const hi = bound(cu);
  if (lo === undefined || hi === undefined) return "the column bounds are not numbers the operator reads";
  if (!(lo >= 1 && lo <= hi && hi <= target.matrix.cols)) return `the columns ${lo}:${hi} are not within the ${target.matrix.cols} columns of the indexed matrix`;
  return { lower: lo - 1, upper: hi };
}
