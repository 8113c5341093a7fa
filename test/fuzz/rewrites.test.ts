/**
 * CI run of the rewrite differential harness (test/fuzz/rewrites.harness.ts):
 * its CI case count with the fixed CI seed; every optimized script computes
 * what the original computes, and the measures stay within their bounds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ciRunOptions, describeFailures, exceededBounds } from "./harness";
import { harness } from "./rewrites.harness";

test("rewrites: optimized scripts compute the original's values (greedy tree, greedy DAG, ILP)", { timeout: 180_000 }, async () => {
  const result = await harness.run(ciRunOptions(harness));
  assert.equal(result.cases, harness.ciCases);
  assert.deepEqual(result.failures, [], describeFailures(result.failures));
  assert.deepEqual(exceededBounds(result.measures), []);
  // The property must test something: some strategy applied suggestions on a share of the cases.
  const applied = result.measures.find((m) => m.name.startsWith("checks with suggestions applied"))!;
  assert.ok(applied.value >= harness.ciCases * 0.2, `only ${applied.value} checks applied a suggestion`);
});
