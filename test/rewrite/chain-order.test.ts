/**
 * Multiplication-chain ordering by variable elimination: the exact search
 * matches brute force over all parenthesizations, greedy is an upper bound,
 * and the sparsity-aware cost model prefers multiplying the sparse operand
 * early.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { chainLeaves, greedyChainOrder, MATMUL_COST, optimalChainOrder, printChainTree, type ChainCostModel } from "../../engine/rewrite";
import { matrixStats } from "../../engine/stats/sizes/node-stats";

interface Dims {
  rows: number;
  cols: number;
}

const dense: ChainCostModel<Dims> = { multiply: (a, b) => ({ result: { rows: a.rows, cols: b.cols }, cost: a.rows * a.cols * b.cols }) };

/** The cheapest cost over every parenthesization (Catalan many). */
function bruteForce(dims: readonly Dims[], i = 0, j = dims.length - 1): number {
  if (i === j) return 0;
  let best = Infinity;
  for (let k = i; k < j; k++) best = Math.min(best, bruteForce(dims, i, k) + bruteForce(dims, k + 1, j) + dims[i]!.rows * dims[k]!.cols * dims[j]!.cols);
  return best;
}

const chains = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 8 }).map((sizes) => sizes.slice(1).map((cols, k) => ({ rows: sizes[k]!, cols })));

test("the exact order costs what brute force finds; greedy is never cheaper", () => {
  fc.assert(
    fc.property(chains, (dims) => {
      const optimal = optimalChainOrder(dims, dense);
      const greedy = greedyChainOrder(dims, dense);
      assert.equal(optimal.cost, bruteForce(dims));
      assert.ok(greedy.cost >= optimal.cost);
      assert.deepEqual(chainLeaves(optimal.tree), dims.map((_, k) => k));
      assert.deepEqual(optimal.result, { rows: dims[0]!.rows, cols: dims[dims.length - 1]!.cols });
    }),
    { numRuns: 200, seed: 42 },
  );
});

test("a textbook chain: 10x100, 100x5, 5x50 is ((A1 A2) A3) at 7,500 multiply-adds", () => {
  const plan = optimalChainOrder([{ rows: 10, cols: 100 }, { rows: 100, cols: 5 }, { rows: 5, cols: 50 }], dense);
  assert.equal(plan.cost, 7500);
  assert.equal(printChainTree(plan.tree), "((A1 A2) A3)");
});

test("an 80-matrix chain is ordered exactly in well under a second", () => {
  const dims = Array.from({ length: 80 }, (_, k) => ({ rows: 10 + ((k * 37) % 90), cols: 10 + (((k + 1) * 37) % 90) }));
  const start = performance.now();
  const plan = optimalChainOrder(dims, dense);
  assert.ok(performance.now() - start < 1000);
  assert.ok(plan.cost <= greedyChainOrder(dims, dense).cost);
  assert.equal(chainLeaves(plan.tree).length, 80);
});

test("sparsity-aware: a very sparse 1000x1000 operand is multiplied with its dense neighbour first when that is cheaper", () => {
  const S = matrixStats(1000, 1000, 1000);
  const D = matrixStats(1000, 1000, 1_000_000);
  const v = matrixStats(1000, 1, 1000);
  // S %*% D %*% v: (S D) costs about nnz(S) * 1000; S (D v) costs 1e6 for D v. Either way the model must beat the dense-only order estimate.
  const plan = optimalChainOrder([S, D, v], MATMUL_COST);
  const left = MATMUL_COST.multiply(MATMUL_COST.multiply(S, D).result, v).cost + MATMUL_COST.multiply(S, D).cost;
  const right = MATMUL_COST.multiply(S, MATMUL_COST.multiply(D, v).result).cost + MATMUL_COST.multiply(D, v).cost;
  assert.equal(plan.cost, Math.min(left, right));
  assert.ok(Number.isFinite(plan.cost) && plan.cost > 0);
});
