// `dml bench estimators`: q-error, MNC's exact cases and the --json row contract.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";
import { mncMustBeExact, qError } from "../../cli/bench-estimators";
import { input, matmul, plus, rowSums, t, times } from "../../engine/stats/estimators";
import { structureFromRows } from "../../engine/stats/structure";

test("q-error is symmetric, 1 when exact (0/0 included), infinite against a lone 0", () => {
  assert.equal(qError(10, 5), 2);
  assert.equal(qError(5, 10), 2);
  assert.equal(qError(0, 0), 1);
  assert.equal(qError(0, 3), Infinity);
  assert.equal(qError(0.5, 0), Infinity);
});

test("MNC must be exact on leaves, their aggregates, broadcasts and products meeting its condition", () => {
  const A = input("A", structureFromRows([[1, 1], [0, 1]]));
  const B = input("B", structureFromRows([[1, 0], [1, 1]]));
  const sel = input("S", structureFromRows([[0, 1], [1, 0]]));
  const v = input("v", structureFromRows([[1], [0]]));
  assert.ok(mncMustBeExact(t(A)));
  assert.ok(mncMustBeExact(rowSums(A)));
  assert.ok(mncMustBeExact(times(A, v)));
  assert.ok(mncMustBeExact(matmul(sel, A)));
  assert.ok(!mncMustBeExact(matmul(A, B)));
  assert.ok(!mncMustBeExact(plus(A, B)));
  assert.ok(!mncMustBeExact(rowSums(matmul(sel, A))));
});

test("dml bench estimators --json: contract rows, three estimators per case, checks pass", () => {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "bench", "estimators", "--json"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
  assert.ok(rows.length >= 3 * 30, `${rows.length} rows`);
  for (const row of rows) {
    assert.equal(row.suite, "estimators");
    assert.equal(typeof row.case, "string");
    assert.ok(typeof row.ours_ms === "number" && row.ours_ms >= 0);
    assert.equal(row.baseline, "exact");
    assert.ok(typeof row.baseline_ms === "number");
    assert.ok(["uniform", "mnc", "chain"].includes(row.estimator as string));
    assert.ok(typeof row.true_nnz === "number" && typeof row.estimate === "number");
    assert.equal(row.failed, false, String(row.problem));
    if (row.estimator === "chain") assert.ok((row.estimate as number) >= (row.true_nnz as number));
  }
  assert.equal(new Set(rows.map((r) => r.case)).size, rows.length, "case names are unique");
  assert.ok(rows.some((r) => String(r.case).startsWith("digits: ")));
  assert.ok(rows.some((r) => String(r.case).startsWith("zipf ")));
});
