// `dml bench parse`: the generated script and the --json row contract.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";
import { generateParseBenchScript, renameVariables } from "../../cli/bench-parse";
import { parse } from "../../engine/syntax";

const root = repoRoot;

test("renameVariables suffixes assigned names, not $params, calls or comments", () => {
  const text = "X = read($X)\nfor (i in 1:n) {\n  X[i, 1] = sum(X) # X here\n}\n[Q, R] = qr(X)\n";
  assert.equal(
    renameVariables(text, "_2"),
    "X_2 = read($X)\nfor (i_2 in 1:n) {\n  X_2[i_2, 1] = sum(X_2) # X here\n}\n[Q_2, R_2] = qr(X_2)\n",
  );
});

test("the benchmark script has about 1,000 lines and parses without errors", () => {
  const script = generateParseBenchScript(path.join(root, "examples"));
  const lines = script.split("\n").length - 1;
  assert.ok(lines >= 1000 && lines < 1200, `${lines} lines`);
  const errors = parse(script).diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(errors, []);
});

test("dml bench parse --json prints rows of the bench contract", () => {
  const result = spawnSync(process.execPath, [path.join(root, "bin", "dml.js"), "bench", "parse", "--json"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
  assert.equal(rows.length, 1);
  const row = rows[0]!;
  assert.equal(row.suite, "parse");
  assert.equal(typeof row.case, "string");
  assert.ok(typeof row.ours_ms === "number" && row.ours_ms > 0);
  assert.equal(row.baseline, "none");
  assert.equal(row.baseline_ms, null);
  assert.equal(row.ratio, null);
  assert.ok((row.runs as number) >= 30);
});

test("dml bench with an unknown suite is a usage error", () => {
  const result = spawnSync(process.execPath, [path.join(root, "bin", "dml.js"), "bench", "nope"], { cwd: root, encoding: "utf8" });
  assert.equal(result.status, 2);
});
