/** The common bench table (cli/bench-report.ts): notes print every value readably. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { formatBenchTable } from "../../cli/bench-report";

test("a note that is an object or array prints as JSON with rounded numbers, not [object Object]", () => {
  const text = formatBenchTable([
    {
      suite: "redundancy",
      case: "linreg_dfp",
      ours_ms: 64.861,
      baseline: "original script",
      baseline_ms: 9009.616,
      ratio: 138.91,
      cpu_ms_range: { chosen: [60.12345, 70.5], original: [9000, 9100.25] },
      runs: 5,
      share: 0.123456,
    },
  ]);
  assert.doesNotMatch(text, /\[object Object\]/);
  assert.match(text, /cpu_ms_range=\{"chosen":\[60\.123,70\.5\],"original":\[9000,9100\.25\]\}/);
  assert.match(text, /runs=5 share=0\.123/);
});
