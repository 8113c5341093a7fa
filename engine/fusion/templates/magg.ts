/**
 * The multi-aggregate (MAgg) template: formed after selection from the
 * chosen operators (not opened during exploration).
 * TODO(helper templates): group full aggregates that share inputs into one operator.
 */
import type { MachineConstants } from "../../cost";
import type { FusionDag } from "../fusion-dag";
import type { FusedOperator } from "../types";

export function groupMultiAggregates(_dag: FusionDag, operators: FusedOperator[], _constants?: MachineConstants): FusedOperator[] {
  return operators;
}
