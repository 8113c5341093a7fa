// `dml run --timings` (cli/block-timings.ts): per block the plan that ran,
// estimated vs measured, and the operation farthest from its estimate; the
// run's observations go beside the machine file DML_LENS_MACHINE names;
// `--json` carries the same per-block reports.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { loadObservedTimes, observedFilePath } from "../../engine/cost";
import { repoRoot } from "../repo-root";

const dir = mkdtempSync(path.join(os.tmpdir(), "dml-lens-timings-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const script = path.join(dir, "product.dml");
writeFileSync(script, "X = matrix(0.5, rows=300, cols=300)\nY = X %*% X\nfor (i in 1:2) {\n  Y = Y / 300\n}\nprint(sum(Y))\n");

function dml(machine: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", script, ...args], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, DML_LENS_MACHINE: machine } });
}

test("--timings: a line per block and its worst operation; the run feeds the calibration", () => {
  const machine = path.join(dir, "timings", "machine.json");
  const r = dml(machine, "--plan", "as-written", "--timings");
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.match(lines[0]!, /product\.dml:1: 1 run, estimated [\d.]+ ms, measured [\d.]+ ms \([\d.]+x\); as-written: 0 rewritten, 0 fused; compiled 1x in [\d.]+ ms$/);
  assert.match(lines[1]!, /^ {2}worst operation: line \d: .+: estimated .+, measured .+ \(.+\)$/);
  assert.ok(lines.some((l) => /product\.dml:4: 2 runs, /.test(l)), r.stderr);
  const observed = loadObservedTimes(observedFilePath(machine));
  assert.ok(observed && observed.ratios["dense matmul"]?.length === 1, JSON.stringify(observed));
});

test("--timings: a compiled plan's line counts the matches its optimization applied", () => {
  const r = dml(path.join(dir, "fused", "machine.json"), "--timings");
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.trim().split("\n");
  // The product is optimized (its run could save more than the smallest saving taken); the print's block is not.
  const matches = /product\.dml:1: .*; fused: \d+ rewritten, \d+ fused; compiled 1x in [\d.]+ ms \((\d+) optimizer matches\)$/.exec(lines[0]!);
  assert.ok(matches && Number(matches[1]) > 0, r.stderr);
  assert.ok(lines.some((l) => /product\.dml:6: .*; compiled 1x in [\d.]+ ms$/.test(l)), r.stderr);
});

test("--json: the per-block reports with their operations; no observations recorded", () => {
  const machine = path.join(dir, "json", "machine.json");
  const r = dml(machine, "--plan", "rewritten", "--json");
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as { plan: string; blocks: { line: number; mode: string; runs: number; operations: { text: string; measuredSeconds: number }[]; worst?: string }[] };
  assert.equal(json.plan, "rewritten");
  assert.deepEqual(json.blocks.map((b) => [b.line, b.mode, b.runs]), [[1, "rewritten", 1], [4, "rewritten", 2], [6, "rewritten", 1]]);
  assert.ok(json.blocks[0]!.operations.some((op) => op.text === "X %*% X"), JSON.stringify(json.blocks[0]));
  assert.equal(loadObservedTimes(observedFilePath(machine)), undefined);
});
