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

/**
 * Costs already planned, per block e-graph (after saturation, when plans are
 * costed), by the plan's chosen nodes (planChoiceKey): a statement's plan
 * as written and its cheapest one are often the same nodes, and the fusion
 * planner is the costly part of costing them.
 */
const costsByBlock = new WeakMap<BlockEGraph, Map<string, FusedPlanCost | undefined>>();

/** The plan's cost with and without fusion, or undefined when it has an operation the fusion DAG cannot express. */
export function fusedPlanCost(block: BlockEGraph, plan: ExtractedPlan): FusedPlanCost | undefined {
  const key = planChoiceKey(plan);
  if (key === undefined) return planCostOf(block, plan);
  let costs = costsByBlock.get(block);
  if (!costs) costsByBlock.set(block, (costs = new Map()));
  if (costs.has(key)) return costs.get(key);
  const cost = planCostOf(block, plan);
  costs.set(key, cost);
  return cost;
}

/**
 * What the fusion DAG of a plan is built from: each class reached from the
 * root with its chosen node's operator and child classes, in visiting
 * order (PlanDagBuilder.addPlan reads nothing else of the plan; the rest
 * is the block's class stats). Undefined when a class has no choice.
 */
function planChoiceKey(plan: ExtractedPlan): string | undefined {
  const parts: string[] = [];
  const seen = new Set<string>();
  const visit = (cls: string): boolean => {
    if (seen.has(cls)) return true;
    seen.add(cls);
    const chosen = plan.extraction.choices.get(cls);
    const node = chosen === undefined ? undefined : plan.graph.nodes.get(chosen);
    if (!node) return false;
    const children = node.children.map((child) => plan.graph.nodes.get(child)?.eclass);
    parts.push(`${cls}=${node.op}(${children.join(",")})`);
    return children.every((child) => child !== undefined && visit(child));
  };
  const root = plan.graph.roots[0];
  return root !== undefined && visit(root) ? parts.join(";") : undefined;
}

function planCostOf(block: BlockEGraph, plan: ExtractedPlan): FusedPlanCost | undefined {
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
