/**
 * Facts about a DAG the Row template's conditions ask, computed once per
 * DAG in one ascending pass: whether a node's value is computed from a
 * row-wise aggregation the Row template keeps open (a row aggregate,
 * rowIndexMax, `X %*% v`, `X %*% B` with B skinny) through cell-wise
 * operations only. A Row operator is worth having where such an inner
 * aggregation exists, or where the Cell template cannot compute the node;
 * elsewhere Cell covers the same cells (SystemDS prunes those Row plans
 * after exploration: "row templates without aggregation").
 */
import type { FusionDag } from "../fusion-dag";
import { isFullMatrix, shapeOf } from "./node-shapes";
import { aggregateOf, isCellAggregate, isCellwise, isDotProduct, isRowIndexAggregate, isRowProduct, ROW_AGGREGATES } from "./operation-classes";

const innerAggregationByDag = new WeakMap<FusionDag, Uint8Array>();

/** A row-wise aggregation of a matrix (more than one row and column) whose result a Row operator can keep using (it does not close the operator). */
function isOpenRowAggregation(dag: FusionDag, node: number): boolean {
  const agg = aggregateOf(dag, node);
  const ofMatrix = isFullMatrix(shapeOf(dag, dag.nodes[node]!.inputs[0] ?? -1));
  if (agg) return agg.direction === "row" && ROW_AGGREGATES.has(agg.fn) && ofMatrix;
  return (isRowIndexAggregate(dag, node) && ofMatrix) || isRowProduct(dag, node);
}

/** Some input is an open row aggregation, or a cell-wise operation computed from one. */
function hasInnerRowAggregation(dag: FusionDag, node: number): boolean {
  let facts = innerAggregationByDag.get(dag);
  if (!facts) {
    facts = computeInnerAggregation(dag);
    innerAggregationByDag.set(dag, facts);
  }
  return facts[node] === 1;
}

function computeInnerAggregation(dag: FusionDag): Uint8Array {
  const inner = new Uint8Array(dag.nodes.length);
  for (const node of dag.nodes) {
    inner[node.id] = node.inputs.some((i) => isOpenRowAggregation(dag, i) || (inner[i] === 1 && isCellwise(dag, i))) ? 1 : 0;
  }
  return inner;
}

/** The Cell template can compute the node as an operator's root. */
function cellCanRoot(dag: FusionDag, node: number): boolean {
  return isCellwise(dag, node) || isCellAggregate(dag, node) || isDotProduct(dag, node);
}

/** A Row operator rooted here is valid: it has an inner row aggregation, or Cell cannot compute the node. */
export function rowOperatorWorthwhile(dag: FusionDag, node: number): boolean {
  return hasInnerRowAggregation(dag, node) || !cellCanRoot(dag, node);
}

/**
 * Whether a Row operator does row-level work. One over a column vector
 * whose covered nodes are all cell-wise (or a full aggregation of such
 * cells) does not: its row aggregation was left out (materialized: glm's
 * `eta = X %*% beta` is a live variable, so `1 / (1 + exp(-eta))` reads
 * it), and it would make one call per cell (a million for a 1e6-row
 * vector), where a Cell operator computes the same cells in one flat loop.
 * Over wider rows a Row operator's per-row calls are amortized and it stays
 * (SystemDS's plans).
 */
export function rowWorkCovered(dag: FusionDag, covered: readonly number[], mainInput: number | null): boolean {
  if (mainInput === null || shapeOf(dag, mainInput)?.cols !== 1) return true;
  return covered.some((node) => !isCellwise(dag, node) && !(isCellAggregate(dag, node) && aggregateOf(dag, node)?.direction === "full"));
}
