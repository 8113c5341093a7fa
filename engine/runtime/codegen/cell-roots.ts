/**
 * What a root of a Cell or MAgg operator computes per cell of its domain
 * and how the cells fold into its value, as the reference skeleton
 * (engine/runtime/fused/cell-skeleton.ts) defines it:
 * - a cell-wise root (Cell, no aggregation): its own cells are the result;
 * - an aggregate (sum, sumSq, min, max, mean, prod; full, row or column)
 *   of its input's cells;
 * - a 1 x 1 product `t(x) %*% y`: the sum of x[k] * y[k] over the cells
 *   of y.
 * Checked when the operator is generated: anything else throws
 * UnsupportedOperator.
 */
import { nodeLabel, type FusionDag, type FusedOperator } from "../../fusion";
import type { AggregateDirection } from "../../program";
import { cellNodeProblem, type CellCode } from "./cell-code";
import { UnsupportedOperator } from "./generated-operator";

/** The aggregations a cell loop folds its cells with. */
type CellAggregate = "sum" | "sumSq" | "min" | "max" | "mean" | "prod";

const CELL_AGGREGATES: ReadonlySet<string> = new Set<CellAggregate>(["sum", "sumSq", "min", "max", "mean", "prod"]);

/** How a root's cells become its value. */
export type CellFold =
  | { readonly kind: "cells" }
  | { readonly kind: "aggregate"; readonly fn: CellAggregate; readonly direction: AggregateDirection }
  | { readonly kind: "dot" };

export interface CellRootPlan {
  readonly node: number;
  readonly fold: CellFold;
  /** The node whose shape is the root's domain (the cells looped over). */
  readonly domainNode: number;
  /** The expression of the root's value at the loop's current cell (statements added to `code`). */
  cellValue(code: CellCode): string;
}

/** The plan of one root; `cellwise` allows a root without aggregation (Cell) and row / column aggregates. */
export function cellRootPlan(dag: FusionDag, op: FusedOperator, root: number, cellwise: boolean): CellRootPlan {
  const node = dag.nodes[root]!;
  const o = node.op;
  const unsupported = (why: string): never => {
    throw new UnsupportedOperator(`${op.template} operator ${op.id}, root ${root} (${nodeLabel(node)}): ${why}`);
  };
  if (o.kind === "aggregate") {
    if (!CELL_AGGREGATES.has(o.fn)) unsupported(`no one-pass kernel aggregates with ${o.fn}`);
    if (!cellwise && o.direction !== "full") unsupported(`a MAgg root must be a full aggregate, not a ${o.direction} aggregate`);
    const input = node.inputs[0]!;
    return { node: root, fold: { kind: "aggregate", fn: o.fn as CellAggregate, direction: o.direction }, domainNode: input, cellValue: (code) => code.value(input) };
  }
  if (o.kind === "matmul") {
    const [a, b] = node.inputs as [number, number];
    return {
      node: root,
      fold: { kind: "dot" },
      domainNode: b,
      // t(x) %*% y over the cells (k, 0) of y: row 0, column k of the left side times row k of the right side
      cellValue: (code) => `(${code.value(a, { row: "0", col: "i" })} * ${code.value(b, { row: "i", col: "0" })})`,
    };
  }
  if (!cellwise) unsupported("a MAgg root must be a full aggregate or a dot product");
  const problem = cellNodeProblem(dag, root);
  if (problem !== undefined) unsupported(problem);
  return { node: root, fold: { kind: "cells" }, domainNode: root, cellValue: (code) => code.value(root) };
}

/** Throws UnsupportedOperator when a covered node below the roots cannot be computed per cell. */
export function checkCoveredNodes(dag: FusionDag, op: FusedOperator): void {
  const roots = new Set(op.roots);
  for (const node of op.covered) {
    if (roots.has(node)) continue;
    const problem = cellNodeProblem(dag, node);
    if (problem !== undefined) throw new UnsupportedOperator(`${op.template} operator ${op.id} at node ${node} (${nodeLabel(dag.nodes[node])}): ${problem}`);
  }
}
