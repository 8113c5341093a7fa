/**
 * What every skeleton evaluation starts from: the DAG, the operator, the
 * values of its materialized inputs (and only those) and the shapes of
 * its nodes.
 */
import type { FusionDag } from "../../fusion/fusion-dag";
import type { FusedOperator } from "../../fusion/types";
import type { Value } from "../interpreter/values";
import type { NodeShape } from "./operator-shapes";

export interface OperatorContext {
  dag: FusionDag;
  op: FusedOperator;
  inputs: ReadonlyMap<number, Value>;
  shapes: ReadonlyMap<number, NodeShape>;
}
