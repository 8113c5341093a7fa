// `dml check` reports type and dimension errors of the analysis at the right places.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

const dir = mkdtempSync(path.join(tmpdir(), "dml-check-analysis-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("dimension, as.scalar and type errors with exact positions; exit 1", () => {
  const file = path.join(dir, "dims.dml");
  writeFileSync(
    file,
    [
      "X = rand(rows=100, cols=10, seed=1)",
      "w = rand(rows=5, cols=1, seed=2)",
      "y = X %*% w",
      "Z = X * rand(rows=100, cols=3, seed=3)",
      "s = as.scalar(X[1, ])",
      'q = "a" %*% X',
      "B = X[1:200, ]",
      "print(sum(y) + sum(Z) + s + sum(B))",
      "",
    ].join("\n"),
  );
  const r = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "check", file, "--json"], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(r.status, 1, r.stderr);
  const report = at(JSON.parse(r.stdout) as { diagnostics: { severity: string; code: string; range: { start: { line: number; character: number } } }[] }[], 0);
  assert.deepEqual(
    report.diagnostics.map((d) => `${d.severity} ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`),
    [
      "error 3:5 dimension-mismatch",
      "error 4:5 dimension-mismatch",
      "error 5:5 as-scalar-dims",
      "error 6:5 type-matmul-operand",
      "error 7:5 index-out-of-range",
    ],
  );
});
