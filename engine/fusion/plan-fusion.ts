/**
 * The fusion planner on one DAG: exploration (OFMC) fills the memo table,
 * selection picks the cheapest combination of partial plans, construction
 * turns it into fused operators, and full aggregates over shared inputs
 * are grouped into multi-aggregates. The result carries the DAG's cost
 * with and without fusion from one cost model.
 */
import { DEFAULT_MACHINE_CONSTANTS, type MachineConstants } from "../cost";
import { constructOperators } from "./construct";
import { exploreFusionPlans, reachableAscending } from "./explore";
import type { FusionDag } from "./fusion-dag";
import { selectFusionPlan, type SelectionOptions } from "./select";
import { nodeSeconds } from "./select/operator-cost";
import { FUSION_TEMPLATES } from "./templates";
import { groupMultiAggregates } from "./templates/magg";
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
  const operators = groupMultiAggregates(dag, constructed, constants)
    .filter((op) => op.template === "magg" || op.covered.length > 1)
    .map((op, id) => ({ ...op, id }));
  return { operators, cost: dagCosts(dag, operators, constants), search, ms: performance.now() - start };
}

/** The DAG's seconds with the operators (other computed nodes on their own) and with none. */
export function dagCosts(dag: FusionDag, operators: readonly FusedOperator[], constants: MachineConstants = DEFAULT_MACHINE_CONSTANTS): { fused: number; unfused: number } {
  const unfused = reachableAscending(dag).reduce((sum, node) => sum + nodeSeconds(dag, node, constants), 0);
  const byRoot = new Map<number, FusedOperator>();
  for (const op of operators) for (const root of op.roots) byRoot.set(root, op);
  let fused = 0;
  const counted = new Set<FusedOperator>();
  const visited = new Set<number>();
  const stack = [...dag.roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visited.has(node)) continue;
    visited.add(node);
    const op = byRoot.get(node);
    if (op) {
      if (!counted.has(op)) fused += op.seconds;
      counted.add(op);
      stack.push(...op.inputs);
    } else {
      fused += nodeSeconds(dag, node, constants);
      stack.push(...dag.nodes[node]!.inputs);
    }
  }
  return { fused, unfused };
}
