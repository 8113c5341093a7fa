import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { harness } from "./cli.harness";
import { ciRunOptions, describeFailures, exceededBounds } from "./harness";

describe("fuzz: command line", () => {
  it(`${harness.ciCases} hostile dml check/explain/run runs: exit 0/1/2, located errors, no internal error, bounded time and memory`, { timeout: 300_000 }, async () => {
    const result = await harness.run(ciRunOptions(harness));
    assert.equal(result.cases, harness.ciCases);
    assert.deepEqual(result.failures, [], describeFailures(result.failures));
    assert.deepEqual(exceededBounds(result.measures), []);
  });
});
