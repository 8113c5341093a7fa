/**
 * Where the optimizer's time safety net fired for a block, a hover in that
 * block says its suggestions may differ from a faster machine's; where it
 * did not, hovers say nothing of it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, type SuggestOptions } from "../../engine/suggest";
import { hoverText } from "../../server/src/optimizer-views";
import type { DocumentOptimizations } from "../../server/src/block-optimizations";
import { repoRoot } from "../repo-root";

const text = readFileSync(path.join(repoRoot, "examples", "sum_product.dml"), "utf8");
const analysis = analyzeText(text);

function hoverOnX(options: SuggestOptions): string | undefined {
  const optimizations: DocumentOptimizations = new Map();
  for (const info of analysis.dags.blocks) {
    optimizations.set(info, optimizeBlock({ block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: text }, options));
  }
  // `X` in `l1 = sum((X - U %*% t(V))^2)` (line 18).
  const line = text.split("\n").findIndex((l) => l.startsWith("l1 = "));
  return hoverText(text, analysis, optimizations, { line, character: text.split("\n")[line]!.indexOf("X") });
}

test("a hover in a block the time safety net stopped carries a note; otherwise none", () => {
  const stopped = hoverOnX({ saturation: { timeLimitMs: 0.001 } });
  assert.match(stopped ?? "", /optimizer stopped by its time safety net after \d+ ms of CPU time; results may differ from a faster machine/);
  const normal = hoverOnX({});
  assert.ok(normal);
  assert.doesNotMatch(normal, /safety net/);
});
