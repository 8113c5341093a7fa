/**
 * The fusion planner on one DAG: exploration (OFMC) fills the memo table,
 * selection picks the cheapest combination of partial plans, construction
 * turns it into fused operators, full aggregates over shared inputs are
 * grouped into multi-aggregates, and Row operators absorb the operations
 * on the rows of their results (multi-output Row operators). The result
 * carries the DAG's cost with and without fusion from one cost model.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import { constructOperators } from "./construct";
import { exploreFusionPlans, reachableAscending } from "./explore";
import type { FusionDag } from "./fusion-dag";
import { materializedNodes, operatorsByRoot } from "./materialized-nodes";
import { selectFusionPlan, type SelectionOptions, FusedCostModel } from "./select";
import { FUSION_TEMPLATES, groupMultiAggregates, groupRowOutputs } from "./templates";
import type { FusedOperator, FusionPlan } from "./types";

export interface FusionOptions extends SelectionOptions {
  constants?: MachineConstants;
}

export function planFusion(dag: FusionDag, options: FusionOptions = {}): FusionPlan {
  const start = performance.now();
  const constants = options.constants ?? DEFAULT_MACHINE_CONSTANTS;
  const memo = exploreFusionPlans(dag, FUSION_TEMPLATES);
  const { selected, search } = selectFusionPlan(dag, memo, FUSION_TEMPLATES, { ...options, constants });
  const constructed = constructOperators(dag, selected, FUSION_TEMPLATES, constants);
  // An operator of one node without a multi-aggregate is the basic operation itself.
  const operators = groupRowOutputs(dag, groupMultiAggregates(dag, constructed, constants), constants)
    .filter((op) => op.template === "magg" || op.covered.length > 1)
    .map((op, id) => ({ ...op, id }));
  return { operators, cost: dagCosts(dag, operators, constants), search, ms: performance.now() - start };
}

/** The DAG's seconds with the operators (other computed nodes on their own) and with none. */
export function dagCosts(dag: FusionDag, operators: readonly FusedOperator[], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): { fused: number; unfused: number } {
  const model = new FusedCostModel(dag, constants);
  const unfused = reachableAscending(dag).reduce((sum, node) => sum + model.nodeSeconds(node), 0);
  const byRoot = operatorsByRoot(operators);
  const counted = new Set<FusedOperator>();
  let fused = 0;
  for (const node of materializedNodes(dag, byRoot)) {
    const op = byRoot.get(node);
    if (!op) fused += model.nodeSeconds(node);
    else if (!counted.has(op)) {
      counted.add(op);
      fused += op.seconds;
    }
  }
  return { fused, unfused };
}
