/**
 * The same answer on a slow machine (issue 13, section 4): the optimizer is
 * bounded by work (counts), so `dml explain examples/sum_product.dml` with
 * the default settings prints the same suggestions while two CPU hogs keep
 * both cores busy as on a quiet machine; the wall-clock limit is only a
 * safety net, and where it fires (made tiny here) it says so.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { optimizeBlock, type BlockInput } from "../../engine/suggest";
import { DEFAULT_SATURATION } from "../../engine/rewrite";
import { inProcessRunner, optimizerOptions } from "../../server/src/optimizer-thread";
import { DEFAULT_SETTINGS } from "../../server/src/settings";
import { repoRoot } from "../repo-root";

const EXAMPLE = path.join("examples", "sum_product.dml");

function explain(...flags: string[]): string {
  const run = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "explain", EXAMPLE, ...flags], { cwd: repoRoot, encoding: "utf8", timeout: 50_000 });
  assert.equal(run.status, 0, run.stderr || String(run.error));
  return run.stdout;
}

/** The suggestion lines (new variables, suggestions, what they replace), without the estimates. */
function suggestionLines(output: string): string[] {
  return output.split("\n").filter((line) => /^(new variable before line|suggestion, line|  instead of )/.test(line));
}

test("explain gives the same suggestions under a CPU hog on both cores as on a quiet machine", { timeout: 60_000 }, async () => {
  const quiet = explain();
  const hogs: ChildProcess[] = [];
  try {
    for (let k = 0; k < 2; k++) hogs.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
    // Let the hogs start spinning before the loaded run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const loaded = explain();
    assert.deepEqual(suggestionLines(loaded), suggestionLines(quiet));
    assert.doesNotMatch(loaded, /safety net/);
  } finally {
    for (const hog of hogs) hog.kill("SIGKILL");
  }
  // The README's suggestions: l1 and l2 factorized, sharing temporaries.
  const lines = suggestionLines(quiet);
  assert.ok(lines.some((l) => /^suggestion, line 18: l1 = .*tmp\d.*\(shares temporaries with l2\)$/.test(l)), lines.join("\n"));
  assert.ok(lines.some((l) => /^suggestion, line 21: l2 = .*tmp\d/.test(l)), lines.join("\n"));
  assert.ok(lines.some((l) => /^new variable before line 18: tmp\d = sum\(X\^2\)$/.test(l)), lines.join("\n"));
  assert.doesNotMatch(quiet, /safety net/);
});

test("a tiny time limit with the work bounds unchanged fires the safety net, and explain says so once per block", () => {
  const output = explain("--budget-ms", "1");
  const notes = output.split("\n").filter((line) => line.includes("safety net"));
  assert.deepEqual(notes.map((n) => n.replace(/\d+ ms/, "N ms")), ["optimizer stopped by its time safety net after N ms of CPU time; results may differ from a faster machine"]);
  const json = JSON.parse(explain("--budget-ms", "1", "--json")) as { blocks: { stopReason?: string; safetyNet?: { what: string; limitMs: number; ms: number } }[] };
  const block = json.blocks[0]!;
  assert.equal(block.stopReason, "timeLimit");
  assert.equal(block.safetyNet?.what, "saturation");
  assert.equal(block.safetyNet?.limitMs, 1);
  assert.ok(block.safetyNet!.ms >= 1, JSON.stringify(block.safetyNet));
});

function sumProductBlock(): BlockInput {
  const text = readFileSync(path.join(repoRoot, EXAMPLE), "utf8");
  const analysis = analyzeText(text);
  const info = analysis.dags.blocks[0]!;
  return { block: info.block, dag: info.dag, stats: analysis.sizes.blocks.get(info.block)!.nodes, sourceText: text };
}

test("the optimizer is deterministic by work: the same block twice does the same work and suggests the same", () => {
  const input = sumProductBlock();
  const a = optimizeBlock(input);
  const b = optimizeBlock(input);
  assert.equal(a.safetyNet, undefined);
  assert.notEqual(a.stopReason, "timeLimit");
  assert.deepEqual([a.stopReason, a.nodes, a.classes, a.work], [b.stopReason, b.nodes, b.classes, b.work]);
  assert.deepEqual(a.suggestions.map((s) => [s.target, s.rewritten]), b.suggestions.map((s) => [s.target, s.rewritten]));
  // A smaller work budget is a different, equally repeatable, answer.
  const small = optimizeBlock(input, { saturation: { nodeLimit: 300 } });
  assert.equal(small.stopReason, "nodeLimit");
  assert.ok(small.nodes < a.nodes);
  assert.ok(small.work.applied < a.work.applied);
});

test("the safety net, not the work bounds, stops a run whose clock runs out; the result says so", () => {
  const input = sumProductBlock();
  const result = optimizeBlock(input, { saturation: { timeLimitMs: 0.001 } });
  assert.equal(result.stopReason, "timeLimit");
  assert.equal(result.safetyNet?.what, "saturation");
  assert.equal(result.safetyNet?.limitMs, 0.001);
  // What it found is still valid (anytime): every suggestion it makes was verified like any other.
  for (const s of result.suggestions) assert.ok(s.costAfter < s.costBefore);
});

test("the editor's optimizer (server settings, worker path) uses the same work bounds and finds the same suggestions as explain", async () => {
  const options = optimizerOptions(DEFAULT_SETTINGS);
  assert.deepEqual(options.saturation, { timeLimitMs: DEFAULT_SATURATION.timeLimitMs, nodeLimit: DEFAULT_SATURATION.nodeLimit });
  assert.equal(options.minSaving, 0.2);
  assert.equal(options.minSavingMs, 1);
  const input = sumProductBlock();
  const editor = await inProcessRunner(input, options);
  const cli = optimizeBlock(input);
  assert.equal(editor.safetyNet, undefined);
  assert.deepEqual(editor.suggestions.map((s) => `${s.target} = ${s.rewritten}`), cli.suggestions.map((s) => `${s.target} = ${s.rewritten}`));
  assert.deepEqual(editor.work, cli.work);
});

test("a fake slow clock makes the safety net fire at the same point every time, reported with that clock's time", () => {
  const input = sumProductBlock();
  const slowClock = () => {
    let now = 0;
    return () => (now += 1);
  };
  const a = optimizeBlock(input, { saturation: { timeLimitMs: 60, clock: slowClock() } });
  const b = optimizeBlock(input, { saturation: { timeLimitMs: 60, clock: slowClock() } });
  assert.equal(a.stopReason, "timeLimit");
  assert.equal(a.safetyNet?.what, "saturation");
  assert.equal(a.safetyNet?.limitMs, 60);
  assert.ok(a.safetyNet!.ms > 60 && a.safetyNet!.ms < 120, JSON.stringify(a.safetyNet));
  // The slow clock stops it before the work bounds would: less work than the default run.
  assert.ok(a.work.applied < optimizeBlock(input).work.applied);
  assert.deepEqual([a.nodes, a.work], [b.nodes, b.work]);
});
