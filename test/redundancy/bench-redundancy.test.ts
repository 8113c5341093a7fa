// `dml bench redundancy --quick`: every plan of both size settings runs and
// gives the original's loss; the search-time row covers every example.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { benchSuites } from "../../cli/bench";
import { runRedundancyBench } from "../../cli/bench-redundancy";
import { repoRoot } from "../repo-root";

it("bench redundancy --quick: plans run with equal results; search time per example script", () => {
  assert.ok("redundancy" in benchSuites);
  const rows = runRedundancyBench({ quick: true });
  assert.equal(rows.length, 5);
  for (const row of rows.slice(0, 4)) {
    assert.equal(row.failed, undefined, `${row.case}: ${JSON.stringify(row.problems)}`);
    assert.ok((row.options_found as number) > 0);
    assert.ok(row.ours_ms > 0 && (row.baseline_ms ?? 0) > 0);
    // Each comparison is a paired one, or the row says the two plans are the same.
    assert.ok(typeof row.paired_vs_original === "string" || row.same_plan_as_original === true, row.case);
    assert.ok(typeof row.paired_vs_aggressive === "string" || row.same_plan_as_aggressive === true, row.case);
    assert.match(String(row.paired_vs_original ?? "1.000 (faster in 1 of 1 rounds): faster"), /^\d+\.\d{3} \(faster in [01] of 1 rounds\): (faster|equal within resolution|not faster|slower beyond resolution)$/);
  }
  const search = rows[4]!;
  const examples = readdirSync(path.join(repoRoot, "examples")).filter((f) => f.endsWith(".dml"));
  assert.deepEqual(Object.keys(search.per_script_ms as object).sort(), examples.sort());
});
