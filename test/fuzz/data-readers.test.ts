// CI run of the data-readers harness (test/fuzz/data-readers.harness.ts):
// its CI case count with the fixed seed; no failure, every measure in bounds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { harness } from "./data-readers.harness";
import { ciRunOptions, describeFailures, exceededBounds } from "./harness";

describe("fuzz: data readers", () => {
  it(`${harness.ciCases} generated data files: the right matrix or a located message, from run and check alike`, async () => {
    const result = await harness.run(ciRunOptions(harness));
    assert.deepEqual(result.failures, [], describeFailures(result.failures));
    assert.deepEqual(exceededBounds(result.measures), []);
    assert.ok(result.cases >= harness.ciCases, `ran ${result.cases} cases`);
    // Every kind was drawn (the generator's oneof reaches all 19).
    assert.equal(result.measures.filter((m) => m.name.startsWith("kind ")).length, 19);
  });
});
