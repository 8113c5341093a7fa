/**
 * A statement's extracted plan costed as it would run with fusion: the plan
 * becomes a stand-alone fusion DAG (its named values and opaque nodes are
 * materialized inputs, its root the one value that leaves it), the fusion
 * planner picks its fused operators, and the cost is the plan's seconds
 * with them. A rewrite is compared with the original this way, both fused,
 * so a rewrite that only wins because the original was costed unfused is
 * not offered. An operation whose size is unknown costs what extraction
 * charges for it (UNKNOWN_COST_SECONDS), on both sides alike.
 */
import { nodeCost } from "../cost";
import { fusionDag, planFusion } from "../fusion";
import type { BlockEGraph } from "../rewrite";
import { UNKNOWN_COST_SECONDS } from "../rewrite";
import { NotADagPlan, PlanDagBuilder, type ExtractedPlan } from "./plan-dag";

const NOWHERE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export interface FusedPlanCost {
  /** Seconds with the planner's fused operators. */
  fused: number;
  /** Seconds with every operation on its own. */
  unfused: number;
}

/** The plan's cost with and without fusion, or undefined when it has an operation the fusion DAG cannot express. */
export function fusedPlanCost(block: BlockEGraph, plan: ExtractedPlan): FusedPlanCost | undefined {
  const builder = new PlanDagBuilder(block);
  let root: number;
  try {
    root = builder.addPlan(plan, (op, stats) => builder.addNode({ kind: "input", name: op }, [], stats, NOWHERE), NOWHERE);
  } catch (error) {
    if (error instanceof NotADagPlan) return undefined;
    throw error;
  }
  const dag = fusionDag(builder.nodes, builder.stats, [root]);
  const unknown = builder.nodes.filter((node) => node.inputs.length > 0 && !nodeCost(node.op, node.inputs.map((i) => builder.stats[i]!), builder.stats[node.id]!).known).length;
  const { cost } = planFusion(dag);
  return { fused: cost.fused + unknown * UNKNOWN_COST_SECONDS, unfused: cost.unfused + unknown * UNKNOWN_COST_SECONDS };
}
