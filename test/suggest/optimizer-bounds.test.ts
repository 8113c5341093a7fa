/**
 * The optimizer's work on big blocks is bounded by counts (issue 14, item 2):
 * the exact multiplication-chain order costs at most its product budget
 * (a 200-matrix chain keeps greedy's order, computed with 3n products), a
 * block of thousands of straight-line statements neither overflows the
 * stack nor keeps a copy of every variable per statement, and a long chain
 * under a 10 ms safety net finishes by its counts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, statementRoots } from "../../engine/suggest";
import { DEFAULT_CHAIN_PRODUCT_LIMIT, greedyChainOrder, optimalChainOrder, type ChainCostModel } from "../../engine/rewrite/chain-order";

interface Dims {
  rows: number;
  cols: number;
}

function countingModel(): { model: ChainCostModel<Dims>; calls: () => number } {
  let calls = 0;
  const model: ChainCostModel<Dims> = {
    multiply: (a, b) => {
      calls++;
      return { result: { rows: a.rows, cols: b.cols }, cost: a.rows * a.cols * b.cols };
    },
  };
  return { model, calls: () => calls };
}

const chain = (n: number): Dims[] => Array.from({ length: n }, (_, k) => ({ rows: 10 + ((k * 37) % 90), cols: 10 + (((k + 1) * 37) % 90) }));

test("greedy chain order costs each neighbouring pair once: under 3n products", () => {
  const { model, calls } = countingModel();
  greedyChainOrder(chain(200), model);
  assert.ok(calls() < 3 * 200, `${calls()} products`);
});

test("the exact order runs within its product budget; a 200-matrix chain keeps greedy's order", () => {
  const small = countingModel();
  const exact = optimalChainOrder(chain(60), small.model);
  assert.ok(small.calls() <= 3 * 60 + DEFAULT_CHAIN_PRODUCT_LIMIT, `${small.calls()} products for 60 operands`);
  assert.ok(exact.cost <= greedyChainOrder(chain(60), countingModel().model).cost);
  const long = countingModel();
  const plan = optimalChainOrder(chain(200), long.model);
  assert.ok(long.calls() <= 3 * 200, `${long.calls()} products for 200 operands`);
  assert.equal(plan.cost, greedyChainOrder(chain(200), countingModel().model).cost);
  // A shared budget: a second chain after the first spent it keeps greedy's order too.
  const budget = { products: 40_000 };
  const first = countingModel();
  optimalChainOrder(chain(60), first.model, undefined, budget);
  const second = countingModel();
  optimalChainOrder(chain(60), second.model, undefined, budget);
  assert.ok(second.calls() <= 3 * 60, `${second.calls()} products after the budget was spent`);
});

function optimizeScript(text: string, timeLimitMs?: number) {
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[0]!;
  const sizes = analysis.sizes.blocks.get(info.block)!;
  return { info, result: optimizeBlock({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, { verify: false, saturation: timeLimitMs === undefined ? {} : { timeLimitMs } }) };
}

test("a 200-matrix chain: seeded and extracted within the work bounds", () => {
  const lines = chain(200).map((d, k) => `A${k} = rand(rows=${d.rows}, cols=${d.cols})`);
  lines.push(`R = ${lines.map((_, k) => `A${k}`).join(" %*% ")}`, "print(sum(R))");
  const start = performance.now();
  const { result } = optimizeScript(lines.join("\n"));
  const ms = performance.now() - start;
  assert.equal(result.safetyNet, undefined, JSON.stringify(result.safetyNet));
  assert.ok(["saturated", "nodeLimit", "iterationLimit", "applyLimit"].includes(result.stopReason), result.stopReason);
  assert.ok(result.nodes <= 4_000 + 1_000, `${result.nodes} e-nodes`);
  assert.ok(ms < 30_000, `${Math.round(ms)} ms`);
});

test("3,000 straight-line statements: no stack overflow, statement scopes shared (not a copy per statement)", () => {
  const lines = ["x0 = rand(rows=50, cols=50)"];
  for (let i = 1; i < 3000; i++) lines.push(`x${i} = x${i - 1} * 2 + x${i - 1}`);
  lines.push("print(sum(x2999))");
  const text = lines.join("\n");
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[0]!;
  const roots = statementRoots(info.block, info.dag);
  assert.equal(roots.length, 3000);
  // One scope object per statement, over one shared list: statement k sees x(k-1), not x(k).
  assert.equal(roots[10]!.scope.nameOf(roots[9]!.node), "x9");
  assert.equal(roots[10]!.scope.nameOf(roots[10]!.node), undefined);
  assert.equal(roots[10]!.scope.nodeOf("x9"), roots[9]!.node);
  assert.equal(roots[10]!.scope.isStale("x10"), false);
  assert.equal(roots[11]!.scope.isStale("x10"), true);
  const before = process.memoryUsage().heapUsed;
  const { result } = optimizeScript(text, 10);
  const grown = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  assert.ok(result.stopReason.length > 0);
  assert.ok(grown < 400, `heap grew ${Math.round(grown)} MB`);
});
