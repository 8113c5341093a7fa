/**
 * Seeds saturation with the best order of each multiplication chain of a
 * statement (three or more operands): the chain is ordered by variable
 * elimination (chain-order.ts) with the cost model's sparsity-aware matmul
 * cost, and the ordered product is merged with the chain's class. Sampled
 * associativity alone cannot enumerate the orders of a long chain.
 */
import type { ClassId, EGraphApi, ENode } from "../egraph";
import { DEFAULT_MACHINE_CONSTANTS, nodeCost } from "../cost";
import type { DagOp, DagType } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { operationStats, type OptimizerData } from "./analysis";
import { DEFAULT_CHAIN_PRODUCT_LIMIT, optimalChainOrder, type ChainBudget, type ChainCostModel, type ChainTree } from "./chain-order";

const MATMUL: DagOp = { kind: "matmul" };
const MATRIX_DOUBLE: DagType = { dataType: "matrix", valueType: "double" };

/** Sizes by the stats stage's estimators, seconds by the cost model. */
export const MATMUL_COST: ChainCostModel<NodeStats> = {
  multiply(a, b) {
    const result = operationStats(MATMUL, [a, b], MATRIX_DOUBLE).stats;
    const estimate = nodeCost(MATMUL, [a, b], result, DEFAULT_MACHINE_CONSTANTS);
    return { result, cost: estimate.known ? estimate.cost.seconds : Number.POSITIVE_INFINITY };
  },
};

/**
 * Orders every maximal chain under `roots`; returns how many chains were
 * seeded. The exact orders of all chains together cost at most `budget`
 * products (a count: chains past it keep greedy's order).
 */
export function seedChainOrders(egraph: EGraphApi<OptimizerData>, nodeOf: (cls: ClassId) => ENode | undefined, roots: readonly ClassId[], budget: ChainBudget = { products: DEFAULT_CHAIN_PRODUCT_LIMIT }): number {
  const isProduct = (cls: ClassId) => nodeOf(egraph.find(cls))?.op === "mm";
  // Both walks keep their own stack (a chain or a DAG thousands of nodes deep must not overflow the call stack).
  const operands = (cls: ClassId): ClassId[] => {
    const found: ClassId[] = [];
    const stack = [cls];
    while (stack.length > 0) {
      const top = egraph.find(stack.pop()!);
      if (isProduct(top)) stack.push(...[...nodeOf(top)!.children].reverse());
      else found.push(top);
    }
    return found;
  };
  const seen = new Set<ClassId>();
  let seeded = 0;
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const id = egraph.find(stack.pop()!);
    const node = nodeOf(id);
    if (!node || seen.has(id)) continue;
    seen.add(id);
    if (node.op === "mm") {
      const chain = operands(id);
      if (chain.length >= 3 && seedChain(egraph, id, chain, budget)) seeded++;
      for (let k = chain.length - 1; k >= 0; k--) stack.push(chain[k]!);
      continue;
    }
    for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
  }
  return seeded;
}

function seedChain(egraph: EGraphApi<OptimizerData>, cls: ClassId, chain: readonly ClassId[], budget: ChainBudget): boolean {
  const stats: NodeStats[] = [];
  for (const operand of chain) {
    const data = egraph.data(operand);
    if (data.family !== "la" || data.invalid || data.stats.type.dataType !== "matrix" || data.stats.rows === null || data.stats.cols === null) return false;
    stats.push(data.stats);
  }
  const plan = optimalChainOrder(stats, MATMUL_COST, undefined, budget);
  if (!Number.isFinite(plan.cost)) return false;
  const build = (tree: ChainTree): ClassId => ("leaf" in tree ? chain[tree.leaf]! : egraph.add({ op: "mm", children: [build(tree.left), build(tree.right)] }));
  egraph.union(cls, build(plan.tree), "chain order (variable elimination)");
  return true;
}
