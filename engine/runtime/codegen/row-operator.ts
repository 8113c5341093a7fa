/** The Row template's code generator. */
import type { FusionDag } from "../../fusion";
import type { FusedOperator } from "../../fusion/types";
import { UnsupportedOperator, type GeneratedOperator } from "./generated-operator";

export function generateRowOperator(_dag: FusionDag, op: FusedOperator): GeneratedOperator {
  throw new UnsupportedOperator(`no Row kernel is generated yet (operator ${op.id})`);
}
