/**
 * The optimizer's per-document work budget (counts): a script of many
 * blocks saturates its blocks in order until the budget's matches or
 * e-nodes are spent; later blocks are not saturated and say so
 * ("documentBudget"), and the matches applied in all blocks never exceed
 * the budget. The shipped examples fit well inside the default budget.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { DEFAULT_DOCUMENT_BUDGET, optimizeProgram } from "../../engine/suggest";
import { repoRoot } from "../repo-root";

function manyBlocks(count: number): string {
  const lines = ["X = rand(rows=100, cols=100)", "Y = rand(rows=100, cols=100)"];
  for (let i = 0; i < count; i++) lines.push(`Z${i} = (X %*% Y) %*% X + t(X) * ${i + 2}`, `if (sum(Z${i}) > 0) { print(${i}) }`);
  return lines.join("\n");
}

test("blocks past the document budget are not saturated; the matches applied stay within it", () => {
  const text = manyBlocks(12);
  const budget = { nodes: 6_000, applied: 30_000 };
  const optimized = [...optimizeProgram(analyzeText(text), text, { verify: false }, budget).values()].filter((r) => r.stopReason !== "nothing to optimize");
  assert.equal(optimized.length, 12);
  const applied = optimized.reduce((sum, r) => sum + r.work.applied, 0);
  assert.ok(applied <= budget.applied, `${applied} matches applied, budget ${budget.applied}`);
  const skipped = optimized.filter((r) => r.stopReason === "documentBudget");
  assert.ok(skipped.length >= 6, `only ${skipped.length} of 12 blocks skipped`);
  assert.ok(optimized[0]!.stopReason !== "documentBudget");
  // Once skipped, every later block is skipped too (the budget is spent in block order).
  const first = optimized.findIndex((r) => r.stopReason === "documentBudget");
  assert.ok(optimized.slice(first).every((r) => r.stopReason === "documentBudget" && r.work.applied === 0));
});

test("every shipped example fits in the default document budget", () => {
  const dir = path.join(repoRoot, "examples");
  for (const name of ["sum_product.dml", "l2svm.dml", "linreg_gd.dml"]) {
    const text = readFileSync(path.join(dir, name), "utf8");
    const results = [...optimizeProgram(analyzeText(text), text, { verify: false }).values()];
    assert.ok(results.every((r) => r.stopReason !== "documentBudget"), name);
    const applied = results.reduce((sum, r) => sum + r.work.applied, 0);
    assert.ok(applied * 4 < DEFAULT_DOCUMENT_BUDGET.applied, `${name}: ${applied} matches`);
  }
});
