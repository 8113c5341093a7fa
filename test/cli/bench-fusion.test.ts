// `dml bench fusion` on a small subset (two example scripts, the first
// fixtures of the SystemDS patterns): the rows, their fields and the sanity
// of their numbers.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { benchSuites } from "../../cli/bench";
import { NO_PRUNING_MAX_POINTS, runFusionBench } from "../../cli/bench-fusion";
import type { BenchRow } from "../../cli/bench-report";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { repoRoot } from "../repo-root";

const FILES = ["kmeans.dml", "l2svm.dml"];
const PATTERNS = 8;

function blockCount(file: string): number {
  const full = path.join(repoRoot, "examples", file);
  const analysis = analyzeText(readFileSync(full, "utf8"), { scriptPath: full, workspaceRoot: repoRoot });
  return analysis.dags.blocks.filter((info) => analysis.sizes.blocks.has(info.block)).length;
}

const rows = runFusionBench({ exampleFiles: FILES, patternLimit: PATTERNS });
const byCase = (prefix: string, suffix = ""): BenchRow => {
  const row = rows.find((r) => r.case.startsWith(prefix) && r.case.endsWith(suffix));
  assert.ok(row, `no row '${prefix}...' in ${rows.map((r) => r.case).join(" | ")}`);
  return row;
};

test("fusion is a suite of dml bench", () => {
  assert.ok("fusion" in benchSuites);
});

test("rows of the bench contract", () => {
  assert.equal(rows.length, 4);
  for (const row of rows) {
    assert.equal(row.suite, "fusion");
    assert.equal(typeof row.case, "string");
    assert.ok(typeof row.ours_ms === "number" && row.ours_ms >= 0 && Number.isFinite(row.ours_ms));
    assert.equal(typeof row.baseline, "string");
    assert.notEqual(row.failed, true, JSON.stringify(row));
  }
});

test("planning time per block: every block of the chosen scripts, median <= max, operators per template add up", () => {
  const row = byCase("planning per block");
  const blocks = FILES.reduce((n, f) => n + blockCount(f), 0);
  assert.equal(row.case, `planning per block, ${blocks} blocks of examples/*.dml`);
  assert.ok((row.median_ms as number) <= (row.max_ms as number));
  assert.equal(row.ours_ms, row.median_ms);
  assert.equal(row.runs_per_block, 3);
  assert.equal(row.target, "median <= 20 ms, max <= 200 ms");
  assert.equal(row.target_met, (row.median_ms as number) <= 20 && (row.max_ms as number) <= 200);
  const perTemplate = ["cell", "row", "magg", "outer"].reduce((n, t) => n + (row[`${t}_operators`] as number), 0);
  assert.equal(perTemplate, row.operators);
  assert.ok((row.blocks_with_operators as number) <= blocks);
  assert.ok((row.approximated_partitions as number) <= (row.partitions as number));
  assert.ok((row.max_interesting_points as number) >= 0);
});

for (const where of ["examples/*.dml", "test/fixtures/fusion-patterns"]) {
  test(`plans with pruning never exceed plans without, and both choose plans of equal cost (${where})`, () => {
    const row = byCase(`plans evaluated with vs without pruning`, where);
    const withPruning = row.plans_with_pruning as number;
    const without = row.plans_without_pruning as number;
    assert.ok(Number.isInteger(withPruning) && Number.isInteger(without));
    assert.ok(withPruning <= without, `${withPruning} with pruning, ${without} without`);
    // Without pruning, every plan of every compared partition is costed: 2^|interesting points| each.
    assert.equal(without, row.plans_without_pruning_expected);
    assert.ok((row.max_interesting_points as number) <= NO_PRUNING_MAX_POINTS);
    assert.equal(row.same_cost, true);
    assert.equal(row.baseline, "no pruning (same run)");
    assert.match(row.case, /^plans evaluated with vs without pruning, \d+ plan partitions of /);
    if ((row.skipped_partitions as number) === 0) assert.equal(row.skipped, "none");
    else assert.match(String(row.skipped), /interesting points, not enumerated without pruning$/);
  });
}

test("SystemDS pattern coverage over the chosen fixtures", () => {
  const row = byCase("SystemDS fusion patterns");
  assert.equal(row.total, PATTERNS);
  const matched = row.matched as number;
  assert.ok(Number.isInteger(matched) && matched >= 0 && matched <= PATTERNS);
  assert.match(String(row.coverage), new RegExp(`^${matched} of ${PATTERNS} patterns get the operator SystemDS generates \\(cell \\d+/\\d+, row \\d+/\\d+, magg \\d+/\\d+, outer \\d+/\\d+\\)$`));
  assert.ok(typeof row.slowest_block_ms === "number" && row.slowest_block_ms >= 0);
  const missing = String(row.missing);
  assert.equal(missing === "none" ? 0 : missing.split(", ").length, PATTERNS - matched);
});
