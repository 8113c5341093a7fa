/** What the server keeps per document is bounded and dropped on close: measured sizes, the optimizer's cache; the watchdog's runner stops a wedged worker. */
import { strict as assert } from "node:assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { BlockOptimizer, budgetSpentDiagnostics, STOPPED, stoppedBlockDiagnostics } from "../../server/src/block-optimizations";
import { boundedMeasuredSizes } from "../../server/src/measured-sizes";
import { OptimizerStoppedError, workerRunner, type BlockRunner } from "../../server/src/optimizer-thread";
import { emptyFusionView, type BlockOptimization } from "../../engine/suggest";

test("measured sizes: at most N documents (oldest out) and M variables each; invalid entries ignored", () => {
  const sizes = boundedMeasuredSizes(2, 3);
  sizes.add("a", [{ name: "X", rows: 1, cols: 2, nnz: 2 }, { name: "Y", rows: -1, cols: 2, nnz: 0 }, null, { name: "Z", rows: 1.5, cols: 1, nnz: 1 }]);
  assert.deepEqual([...sizes.get("a")!.keys()], ["X"]);
  sizes.add("a", ["A", "B", "C", "D"].map((name) => ({ name, rows: 1, cols: 1, nnz: 1 })));
  assert.deepEqual([...sizes.get("a")!.keys()], ["X", "A", "B"]);
  sizes.add("b", []);
  sizes.add("c", []);
  assert.equal(sizes.documents, 2);
  assert.equal(sizes.get("a"), undefined, "the document measured longest ago went first");
  sizes.delete("b");
  assert.equal(sizes.documents, 1);
});

const empty = (): BlockOptimization => ({ suggestions: [], fusion: { asWritten: emptyFusionView() }, dropped: [], stopReason: "saturated", work: { iterations: 0, applied: 0 }, nodes: 0, classes: 0, ms: 0 });

test("the optimizer cache is bounded by estimated bytes and drops a closed document's blocks", async () => {
  const runs: number[] = [];
  const runner: BlockRunner = async () => (runs.push(1), empty());
  const optimizer = new BlockOptimizer(() => ({}), runner, 2_000);
  const text = (k: number) => Array.from({ length: 5 }, (_, i) => `X${i} = rand(rows=${k + 2}, cols=${i + 2})\nprint(sum(X${i}))`).join("\n# block\nif (TRUE) { print(1) }\n");
  const analysis = analyzeText(text(1));
  await optimizer.optimize("a", text(1), analysis, () => true);
  assert.ok(optimizer.cachedBytes <= 2_000, `${optimizer.cachedBytes} bytes`);
  assert.ok(optimizer.cachedBlocks > 0);
  const big = new BlockOptimizer(() => ({}), runner);
  for (let k = 0; k < 3; k++) await big.optimize(`doc${k}`, text(k), analyzeText(text(k)), () => true);
  const before = big.cachedBlocks;
  big.forget("doc0");
  assert.ok(big.cachedBlocks < before, "closing doc0 dropped its blocks");
  big.forget("doc1");
  big.forget("doc2");
  assert.equal(big.cachedBlocks, 0);
  assert.equal(big.cachedBytes, 0);
});

test("a block whose runner fails gets a 'stopped' result and a warning on its first line; the other blocks go on", async () => {
  let calls = 0;
  const runner: BlockRunner = async () => {
    calls++;
    if (calls === 1) throw new OptimizerStoppedError(1234);
    return empty();
  };
  const optimizer = new BlockOptimizer(() => ({}), runner);
  const text = "X = rand(rows=3, cols=3)\nprint(sum(X))\nif (TRUE) { print(2) }\nY = X %*% X\nprint(sum(Y))\n";
  const results = (await optimizer.optimize("a", text, analyzeText(text), () => true))!;
  const reasons = [...results.values()].map((r) => r.stopReason);
  assert.equal(reasons.filter((r) => r === STOPPED).length, 1);
  assert.ok(reasons.length > 1);
  const [warning] = stoppedBlockDiagnostics(results);
  assert.equal(warning!.code, "optimizer-stopped");
  assert.equal(warning!.range.start.line, 0);
  assert.match(warning!.message, /^no rewrites for this block: the optimizer did not answer within 1234 ms \(safety net\): it was stopped and restarted\. The other blocks and documents are still optimized/);
});

test("the worker runner stops a worker that does not answer within its limit, and the next block gets a fresh worker", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-worker-"));
  const file = path.join(dir, "worker.js");
  writeFileSync(file, `const { parentPort } = require("node:worker_threads");
parentPort.on("message", (m) => { if (m.input === "hang") for (;;); parentPort.postMessage({ id: m.id, result: { answered: m.input } }); });`);
  // The limit comes from each block's options: short for the hanging block, generous for the others (a worker starts slowly on a loaded machine).
  const run = workerRunner(file, (options) => options.saturation?.timeLimitMs ?? 0);
  const hanging = run("hang" as never, { saturation: { timeLimitMs: 500 } });
  const after = run("fine" as never, { saturation: { timeLimitMs: 30_000 } });
  await assert.rejects(hanging, (e: unknown) => e instanceof OptimizerStoppedError && e.limitMs === 500);
  assert.deepEqual(await after, { answered: "fine" });
  assert.deepEqual(await run("again" as never, { saturation: { timeLimitMs: 30_000 } }), { answered: "again" });
});

test("a document's blocks share one work budget in block order, cached or not: the same text gets the same bounds", async () => {
  const seen: Array<{ nodes: number; applied: number } | undefined> = [];
  // Each block reports 15,000 e-nodes and 100 matches: the 40,000-node budget lasts for three blocks.
  const runner: BlockRunner = async (_input, options) => {
    seen.push(options.documentBudget ? { ...options.documentBudget } : undefined);
    return { ...empty(), nodes: 15_000, work: { iterations: 1, applied: 100 } };
  };
  const optimizer = new BlockOptimizer(() => ({}), runner);
  const text = Array.from({ length: 5 }, (_, i) => `X${i} = rand(rows=3, cols=${i + 2})\nprint(sum(X${i}))`).join("\nif (TRUE) { print(1) }\n");
  const analysis = analyzeText(text);
  const results = (await optimizer.optimize("a", text, analysis, () => true))!;
  assert.deepEqual(seen.slice(0, 4), [
    { nodes: 40_000, applied: 800_000 },
    { nodes: 25_000, applied: 799_900 },
    { nodes: 10_000, applied: 799_800 },
    { nodes: -5_000, applied: 799_700 },
  ]);
  assert.ok(seen.slice(3).every((b) => b!.nodes <= 0), "after the budget is spent every block is asked with nothing left");
  assert.ok(seen.length < results.size, "equal blocks with the same bound share a cache entry");
  // From the cache, the same blocks get the same results; a second document with the same text runs nothing.
  const known = optimizer.known(text, analysis);
  assert.equal(known.size, results.size);
  seen.length = 0;
  await optimizer.optimize("b", text, analyzeText(text), () => true);
  assert.deepEqual(seen, []);
  // A block whose earlier blocks spend differently is a different cache entry: its bound differs.
  const shorter = text.split("\n").slice(3).join("\n");
  await optimizer.optimize("c", shorter, analyzeText(shorter), () => true);
  assert.ok(seen.length > 0, "the blocks that moved up the budget order are optimized with their new bound");
});

test("the first block the document budget did not reach gets one note saying how many blocks were not searched", () => {
  const text = "X = rand(rows=3, cols=3)\nprint(sum(X))\nif (TRUE) { print(2) }\nY = X %*% X\nprint(sum(Y))\nif (TRUE) { print(3) }\nZ = Y %*% X\nprint(sum(Z))\n";
  const analysis = analyzeText(text);
  const results = new Map(analysis.dags.blocks.map((info, i) => [info, { ...empty(), stopReason: i >= 2 ? "documentBudget" : "saturated" }]));
  const notes = budgetSpentDiagnostics(results);
  assert.equal(notes.length, 1);
  assert.equal(notes[0]!.range.start.line, analysis.dags.blocks[2]!.block.range.start.line);
  assert.match(notes[0]!.message, new RegExp(`^the optimizer's work budget for this document \\(40,000 e-nodes, 800,000 rewrites applied\\) is spent: this block and ${results.size - 3} later ones? (is|are) not searched`));
  assert.deepEqual(budgetSpentDiagnostics(new Map(analysis.dags.blocks.map((info) => [info, empty()]))), []);
});
