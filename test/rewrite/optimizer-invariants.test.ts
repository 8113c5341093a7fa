// The e-graph's invariants (engine/egraph/invariants.ts: canonical and
// distinct nodes, congruence, parents, hash-cons, analysis data settled,
// explanations) hold after every rebuild of the optimizer's own e-graphs:
// example blocks seeded and saturated with all the rules, as optimizeBlock
// does, with the check on.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { scriptBlocks } from "../../cli/script-blocks";
import { buildBlockEGraph, saturate } from "../../engine/rewrite";
import { statementRoots } from "../../engine/suggest";
import { seedBlock } from "../../engine/suggest/optimize-block";
import { repoRoot } from "../repo-root";

/** Blocks of the examples that exercise the relational core, the cell-wise and aggregate rules, and a type change on merge (scalars of unknown and known value). */
const BLOCKS: { file: string; line?: number }[] = [
  { file: "sum_product.dml", line: 6 },
  { file: "l2svm.dml", line: 30 },
  { file: "simplifications/aggregates-cellwise.dml" },
  { file: "simplifications/reorg-zeros.dml" },
];

for (const { file, line } of BLOCKS) {
  test(`invariants hold after every rebuild: examples/${file}${line === undefined ? "" : `:${line}`}`, () => {
    const full = path.join(repoRoot, "examples", file);
    const text = readFileSync(full, "utf8");
    const block = scriptBlocks(full, text, repoRoot).find((b) => line === undefined || b.line === line);
    assert.ok(block, `examples/${file} has a block at line ${String(line)}`);
    const egraph = buildBlockEGraph(block.dag, block.stats, { explanations: true, checkInvariants: true });
    const roots = statementRoots(block.block, block.dag).map((r) => egraph.classOfNode[r.node]);
    seedBlock(egraph, roots.filter((r): r is number => r !== undefined));
    const report = saturate(egraph.egraph, egraph.attributes, { applyLimit: 3_000 });
    assert.ok(report.applied > 0 && report.iterations.length > 1, JSON.stringify({ applied: report.applied, iterations: report.iterations.length }));
    assert.notEqual(report.stopReason, "timeLimit");
    egraph.egraph.checkInvariants();
  });
}
