/**
 * The block's fusion plan is part of its cached optimizer result: a block
 * moved by lines inserted above it is not optimized (nor planned) again,
 * and the ranges of its fusion view (nodes and operators) move with it; an
 * edit that changes a block's sizes replans that block only.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, type FusionView } from "../../engine/suggest";
import { BlockOptimizer } from "../../server/src/block-optimizations";
import type { BlockRunner } from "../../server/src/optimizer-thread";

const script = "X = rand(rows=300, cols=200, seed=1)\nY = rand(rows=300, cols=200, seed=2)\nwhile (FALSE) {}\ns = sum(X * Y * 2)\nprint(s)\n";

function countingRunner(): { runner: BlockRunner; runs: string[] } {
  const runs: string[] = [];
  const runner: BlockRunner = async (input) => {
    runs.push(`${input.block.range.start.line}`);
    return optimizeBlock(input, { verify: false });
  };
  return { runner, runs };
}

const lineOf = (view: FusionView, label: string) => view.nodes.find((n) => n.label === label)?.range?.start.line;

test("a block moved by inserted lines keeps its cached fusion plan, its ranges shifted", async () => {
  const { runner, runs } = countingRunner();
  const optimizer = new BlockOptimizer(() => ({}), runner);
  const first = (await optimizer.optimize("a", script, analyzeText(script), () => true))!;
  assert.deepEqual(runs, ["0", "3"], "both blocks optimized (the empty loop has none)");
  const last = [...first.entries()].find(([info]) => info.block.range.start.line === 3)![1];
  assert.equal(lineOf(last.fusion.asWritten, "sum"), 3);
  assert.equal(last.fusion.asWritten.operators.length, 1, "sum(X * Y * 2) is one fused operator");
  assert.equal(last.fusion.asWritten.operators[0]!.range!.start.line, 3);
  const moved = `# two new\n# comment lines\n${script}`;
  const second = (await optimizer.optimize("a", moved, analyzeText(moved), () => true))!;
  assert.equal(runs.length, 2, "nothing optimized again");
  const shifted = [...second.entries()].find(([info]) => info.block.range.start.line === 5)![1];
  assert.equal(lineOf(shifted.fusion.asWritten, "sum"), 5);
  for (const node of shifted.fusion.asWritten.nodes) {
    const before = last.fusion.asWritten.nodes.find((n) => n.id === node.id)!;
    assert.deepEqual(node.range, { start: { line: before.range!.start.line + 2, character: before.range!.start.character }, end: { line: before.range!.end.line + 2, character: before.range!.end.character } });
  }
  shifted.fusion.asWritten.operators.forEach((op, k) => assert.equal(op.range!.start.line, last.fusion.asWritten.operators[k]!.range!.start.line + 2));
  assert.deepEqual(shifted.fusion.asWritten.cost, last.fusion.asWritten.cost);
});

test("new sizes replan the blocks that read them, only those", async () => {
  const { runner, runs } = countingRunner();
  const optimizer = new BlockOptimizer(() => ({}), runner);
  await optimizer.optimize("a", script, analyzeText(script), () => true);
  const bigger = script.replace("rows=300, cols=200, seed=2", "rows=300, cols=200, seed=7");
  const results = (await optimizer.optimize("a", bigger, analyzeText(bigger), () => true))!;
  assert.deepEqual(runs, ["0", "3", "0"], "only the edited first block was optimized again (the sizes the last one reads did not change)");
  const resized = script.replace(/rows=300, cols=200/g, "rows=600, cols=200");
  const again = (await optimizer.optimize("a", resized, analyzeText(resized), () => true))!;
  assert.deepEqual(runs, ["0", "3", "0", "0", "3"], "the first block (edited) and the last (its inputs' sizes changed)");
  const cost = (r: typeof results) => [...r.entries()].find(([info]) => info.block.range.start.line === 3)![1].fusion.asWritten.cost.unfused;
  assert.ok(cost(again) > 1.9 * cost(results), `${cost(again)} vs ${cost(results)}: twice the rows, about twice the cost`);
});
