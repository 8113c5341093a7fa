/** CI run of the `lsp` fuzz harness (lsp.harness.ts): a few batches of edit storms against the built server. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { ciRunOptions, describeFailures, exceededBounds } from "./harness";
import { harness } from "./lsp.harness";

test("lsp: the server survives edit storms, answers in bounds, and its diagnostics equal a fresh open's", { timeout: 120_000 }, async () => {
  const result = await harness.run(ciRunOptions(harness));
  assert.equal(result.cases, harness.ciCases);
  assert.deepEqual(result.failures, [], describeFailures(result.failures));
  assert.deepEqual(exceededBounds(result.measures), []);
});
