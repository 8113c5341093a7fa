/**
 * A missing optimizer worker bundle is an error that says so, on every
 * block (a warning diagnostic through the server's stopped-block path),
 * never a silent switch to optimizing on the language server's thread.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { BlockOptimizer, STOPPED, stoppedBlockDiagnostics } from "../../server/src/block-optimizations";
import { MissingOptimizerWorkerError, workerRunner, type BlockRunner } from "../../server/src/optimizer-thread";

test("workerRunner: a missing bundle fails each block with MissingOptimizerWorkerError, naming the file", async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-lens-worker-")), "optimizer-worker.js");
  const errors: unknown[] = [];
  const missing = workerRunner(file);
  const run: BlockRunner = (input, options) => missing(input, options).catch((error: unknown) => (errors.push(error), Promise.reject(error)));
  const text = "X = rand(rows=10, cols=10)\nY = t(t(X))\nprint(sum(Y))\n";
  const analysis = analyzeText(text);
  const optimizer = new BlockOptimizer(() => ({}), run);
  const optimizations = await optimizer.optimize("file:///a.dml", text, analysis, () => true);
  const results = [...optimizations!.values()];
  assert.ok(results.length > 0);
  assert.equal(errors.length, results.length, "every block asked the runner and failed");
  for (const error of errors) {
    assert.ok(error instanceof MissingOptimizerWorkerError);
    assert.equal(error.file, file);
    assert.match(error.message, /optimizer's worker bundle .*optimizer-worker\.js is missing \(run `npm run build`\)/);
  }
  for (const result of results) {
    assert.equal(result.stopReason, STOPPED);
    assert.equal(result.suggestions.length, 0);
  }
  const warnings = stoppedBlockDiagnostics(optimizations!);
  assert.equal(warnings.length, results.length);
  assert.ok(warnings.every((warning) => warning.message.includes("is missing (run `npm run build`)")), warnings.map((w) => w.message).join("\n"));
});
