// `dml run`: the output of a script, --cell N with state carried, $params,
// runtime errors as file:line:col with exit code 1, --json variables.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";

function dml(...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", ...args], { cwd: repoRoot, encoding: "utf8" });
}

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-run-"));
const script = path.join(dir, "cells.dml");
writeFileSync(script, '# %% one\nx = ifdef($x, 2)\nprint("x " + x)\n# %% two\ny = x * 3\nprint(y)\n# %% three\nstop("three " + y)\n');

test("dml run --cell N runs cells 1..N with state carried", () => {
  const r = dml(script, "--cell", "2", "x=5");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "x 5\n15\n");
});

test("dml run reports a runtime error at its position with exit code 1", () => {
  const r = dml(script);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "x 2\n6\n");
  assert.equal(r.stderr.trim(), `${script}:8:1: error: three 6`);
});

test("dml run --json lists the assigned variables with measured sizes", () => {
  const r = dml("examples/iris_tour.dml", "--cell", "1", "--json");
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(r.stdout) as { ok: boolean; output: string[]; variables: { name: string; rows?: number; cols?: number; nnz?: number }[] };
  assert.deepEqual(result.output, ["rows 150, cols 4"]);
  assert.deepEqual(result.variables.find((v) => v.name === "X"), { name: "X", kind: "matrix", rows: 150, cols: 4, nnz: 600 });
});

test("dml run: bad usage exits 2", () => {
  assert.equal(dml().status, 2);
  assert.equal(dml(script, "--cell", "0").status, 2);
});
