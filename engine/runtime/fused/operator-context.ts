/**
 * What every skeleton evaluation starts from: the DAG, the operator, the
 * values of its materialized inputs (and only those) and the shapes of
 * its nodes.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import type { Value } from "../interpreter";
import type { NodeShape } from "./operator-shapes";

export interface OperatorContext {
  dag: FusionDag;
  op: FusedOperator;
  inputs: ReadonlyMap<number, Value>;
  shapes: ReadonlyMap<number, NodeShape>;
}
