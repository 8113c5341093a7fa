/**
 * The shapes the templates reason about: a node is a scalar, or a matrix of
 * known rows x cols. Like SystemDS's codegen, a template only covers nodes
 * whose sizes are known (`dimsKnown`).
 */
import { callParameterInput } from "../../program";
import type { FusionDag } from "../fusion-dag";

export interface Shape {
  readonly rows: number;
  readonly cols: number;
}

/** The node's shape when it is a matrix of known size (undefined for scalars and unknown sizes). */
export function shapeOf(dag: FusionDag, node: number): Shape | undefined {
  const s = dag.stats[node];
  if (!s || s.type.dataType !== "matrix" || s.rows === null || s.cols === null) return undefined;
  return { rows: s.rows, cols: s.cols };
}

export function isScalar(dag: FusionDag, node: number): boolean {
  return dag.stats[node]?.type.dataType === "scalar";
}

/** rows x cols of a known matrix; 0 for a scalar; undefined when unknown. */
export function cellCount(dag: FusionDag, node: number): number | undefined {
  if (isScalar(dag, node)) return 0;
  const s = shapeOf(dag, node);
  return s ? s.rows * s.cols : undefined;
}

/** A row or column vector (one dimension 1, the other not), as SystemDS's isVector. */
export function isVector(s: Shape | undefined): boolean {
  return !!s && (s.rows === 1) !== (s.cols === 1);
}

export function isColumnVector(s: Shape | undefined): boolean {
  return !!s && s.cols === 1 && s.rows !== 1;
}

export function isRowVector(s: Shape | undefined): boolean {
  return !!s && s.rows === 1 && s.cols !== 1;
}

/** A matrix with more than one row and more than one column. */
export function isFullMatrix(s: Shape | undefined): boolean {
  return !!s && s.rows > 1 && s.cols > 1;
}

export function sameShape(a: Shape | undefined, b: Shape | undefined): boolean {
  return !!a && !!b && a.rows === b.rows && a.cols === b.cols;
}

/** Non-zeros of a matrix node (its cells when unknown). */
export function nonZeros(dag: FusionDag, node: number): number {
  const s = shapeOf(dag, node);
  const nnz = dag.stats[node]?.nnz;
  if (nnz !== null && nnz !== undefined) return nnz;
  return s ? s.rows * s.cols : 0;
}

/** The input node bound to `parameter` of a builtin call (engine/program's builtin-call-parameters.ts), or undefined. */
export function callArgument(dag: FusionDag, node: number, parameter: string): number | undefined {
  const n = dag.nodes[node]!;
  const k = callParameterInput(n, parameter);
  return k === undefined ? undefined : n.inputs[k];
}
