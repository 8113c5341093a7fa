/**
 * The order of a long multiplication chain A1 %*% A2 %*% ... %*% An by
 * variable elimination (Galley, section 5.3/5.6): the chain sums over its
 * n-1 inner indices, and eliminating an index multiplies the two operands
 * (or intermediates) that share it. Greedy eliminates the cheapest index
 * first and gives an upper bound; the exact search is Galley's
 * branch-and-bound dynamic programme over sets of eliminated indices, which
 * for a chain decomposes into contiguous runs: the memo is keyed by
 * intervals, and entries that cost more than the bound are pruned.
 * Costs come from the caller (sparsity-aware), so the same code orders the
 * optimizer's chains and the benchmark's.
 */

export type ChainTree = { leaf: number } | { left: ChainTree; right: ChainTree };

export interface ChainCostModel<S> {
  /** The product of two operands: its stats and the cost of computing it. */
  multiply(a: S, b: S): { result: S; cost: number };
}

export interface ChainPlan<S> {
  tree: ChainTree;
  cost: number;
  result: S;
}

interface Entry<S> {
  tree: ChainTree;
  cost: number;
  result: S;
}

/**
 * Eliminates the cheapest inner index first, until one operand is left.
 * Each neighbouring pair's product is costed once and kept: a step costs
 * only the two new pairs next to the one it multiplied (3n products in
 * all, not n^2 / 2).
 */
export function greedyChainOrder<S>(operands: readonly S[], model: ChainCostModel<S>): ChainPlan<S> {
  if (operands.length === 0) throw new Error("an empty multiplication chain");
  const run: Entry<S>[] = operands.map((result, k) => ({ tree: { leaf: k }, cost: 0, result }));
  const pairs: { result: S; cost: number }[] = [];
  for (let k = 0; k + 1 < run.length; k++) pairs.push(model.multiply(run[k]!.result, run[k + 1]!.result));
  while (run.length > 1) {
    let best = 0;
    for (let k = 1; k < pairs.length; k++) if (pairs[k]!.cost < pairs[best]!.cost) best = k;
    const product = pairs[best]!;
    const [a, b] = [run[best]!, run[best + 1]!];
    run.splice(best, 2, { tree: { left: a.tree, right: b.tree }, cost: a.cost + b.cost + product.cost, result: product.result });
    pairs.splice(best, 1);
    if (best > 0) pairs[best - 1] = model.multiply(run[best - 1]!.result, run[best]!.result);
    if (best < pairs.length) pairs[best] = model.multiply(run[best]!.result, run[best + 1]!.result);
  }
  return run[0]!;
}

/**
 * Work bound of the exact search: products costed (calls of `multiply`).
 * The search costs up to n^3 / 6 of them for n operands, so it runs in full
 * for chains up to about 65 operands; a longer chain (or a block's chains
 * past their shared budget) keeps greedy's order.
 */
export const DEFAULT_CHAIN_PRODUCT_LIMIT = 50_000;

/** What the exact search may still spend, shared by the chains of a block: products costed. */
export interface ChainBudget {
  products: number;
}

/**
 * The cheapest order: best[i][j] is the cheapest plan for operands i..j;
 * plans that cost more than the bound (default: greedy's cost) are pruned.
 * An interval's stats are those of its cheapest plan. The search costs at
 * most `budget.products` products (counted, and taken from the budget):
 * when its worst case (n^3 / 6) does not fit, greedy's plan is returned.
 */
export function optimalChainOrder<S>(operands: readonly S[], model: ChainCostModel<S>, bound?: number, budget: ChainBudget = { products: DEFAULT_CHAIN_PRODUCT_LIMIT }): ChainPlan<S> {
  const n = operands.length;
  const greedyProducts = 3 * n;
  budget.products -= Math.min(budget.products, greedyProducts);
  const greedy = greedyChainOrder(operands, model);
  const exactProducts = ((n - 1) * n * (n + 1)) / 6;
  if (exactProducts > budget.products) return greedy;
  budget.products -= exactProducts;
  const limit = bound ?? greedy.cost;
  const best: (Entry<S> | undefined)[][] = Array.from({ length: n }, () => new Array<Entry<S> | undefined>(n));
  for (let i = 0; i < n; i++) best[i]![i] = { tree: { leaf: i }, cost: 0, result: operands[i]! };
  for (let length = 2; length <= n; length++) {
    for (let i = 0; i + length - 1 < n; i++) {
      const j = i + length - 1;
      let chosen: Entry<S> | undefined;
      for (let k = i; k < j; k++) {
        const left = best[i]![k];
        const right = best[k + 1]![j];
        if (left === undefined || right === undefined) continue;
        const partial = left.cost + right.cost;
        if (partial > limit || (chosen !== undefined && partial >= chosen.cost)) continue;
        const product = model.multiply(left.result, right.result);
        const cost = partial + product.cost;
        if (cost > limit) continue;
        if (chosen === undefined || cost < chosen.cost) chosen = { tree: { left: left.tree, right: right.tree }, cost, result: product.result };
      }
      best[i]![j] = chosen;
    }
  }
  const full = best[0]![n - 1];
  // Every interval pruned (a bound below the optimum): greedy's plan is the best known.
  return full !== undefined && full.cost <= greedy.cost ? full : greedy;
}

/** The tree's operands, left to right. */
export function chainLeaves(tree: ChainTree): number[] {
  return "leaf" in tree ? [tree.leaf] : [...chainLeaves(tree.left), ...chainLeaves(tree.right)];
}

/** Parenthesized, e.g. "((A1 A2) A3)", with the operands named by `name`. */
export function printChainTree(tree: ChainTree, name: (leaf: number) => string = (k) => `A${k + 1}`): string {
  return "leaf" in tree ? name(tree.leaf) : `(${printChainTree(tree.left, name)} ${printChainTree(tree.right, name)})`;
}
