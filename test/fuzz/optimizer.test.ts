/**
 * CI run of the optimizer adversaries harness (test/fuzz/optimizer.harness.ts):
 * no failures and every measure within its bound.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ciRunOptions, describeFailures, exceededBounds } from "./harness";
import { harness } from "./optimizer.harness";

test("optimizer adversaries: work bounds hold, extractions well-formed, ILP optimal only when proven", async () => {
  const result = await harness.run(ciRunOptions(harness));
  assert.equal(result.cases, harness.ciCases);
  assert.deepEqual(result.failures, [], describeFailures(result.failures));
  assert.deepEqual(exceededBounds(result.measures), []);
});
