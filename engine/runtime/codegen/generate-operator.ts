/**
 * Code generation for the fusion planner's operators: the template's
 * generator turns a fused operator (CPlan) into a GeneratedOperator, or
 * throws UnsupportedOperator when it has no kernel for it.
 */
import type { FusionDag, FusedOperator } from "../../fusion";
import { generateCellOperator } from "./cell-operator";
import type { GeneratedOperator } from "./generated-operator";
import { generateMultiAggregate } from "./magg-operator";
import { generateOuterOperator } from "./outer-operator";
import { generateRowOperator } from "./row-operator";

export function generateOperator(dag: FusionDag, op: FusedOperator): GeneratedOperator {
  switch (op.template) {
    case "cell":
      return generateCellOperator(dag, op);
    case "magg":
      return generateMultiAggregate(dag, op);
    case "row":
      return generateRowOperator(dag, op);
    case "outer":
      return generateOuterOperator(dag, op);
  }
}
