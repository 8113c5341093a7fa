// Property: an index range whose bounds are affine in a value the analysis
// does not know (`X[a*i + b : a*i + c, ]`, `seq(a*i + b, a*i + c)`) gets the
// same dims as when that value is a known constant; bounds whose difference
// depends on the value (`X[i : 2*i, ]`) stay unknown.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";

/** The dims of `R` and `S` after `while (FALSE) {}`. */
function dimsOf(text: string): { R: string; S: string } {
  const a = analyzeText(text);
  const found: Record<string, string> = {};
  for (const block of a.dags.blocks.filter((b) => !b.functionName)) {
    const sizes = a.sizes.blocks.get(block.block)!;
    for (const [name, id] of block.dag.outputs) found[name] = formatStats(sizes.nodes[id]!).replace(/, nnz .*$/, "");
  }
  return { R: found.R!, S: found.S! };
}

describe("index and seq spans from affine bounds", () => {
  it("an unknown i gives the dims a known i gives, when the bounds differ by a constant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 6 }), (a, i, b, extra) => {
        const c = b + extra;
        const rows = a * i + c + 3;
        const body = `while (FALSE) {}\nR = X[(${a} * i + ${b}):(${c} + i * ${a}), ]\nS = seq(${a} * i + ${b}, ${c} + ${a} * i)\n`;
        const known = dimsOf(`X = rand(rows=${rows}, cols=3)\ni = ${i}\n${body}`);
        const unknown = dimsOf(`X = rand(rows=${rows}, cols=3)\ni = as.integer(as.scalar(rand(rows=1, cols=1, min=1, max=${i})))\n${body}`);
        assert.deepEqual(unknown, known);
        assert.deepEqual(known, { R: `${extra + 1} x 3`, S: `${extra + 1} x 1` });
      }),
      { numRuns: 40 },
    );
  });

  it("bounds whose difference depends on the unknown stay unknown", () => {
    const found = dimsOf("X = rand(rows=50, cols=3)\ni = as.integer(as.scalar(rand(rows=1, cols=1, min=1, max=9)))\nwhile (FALSE) {}\nR = X[i:(2 * i), ]\nS = seq(i, i * i)\n");
    assert.deepEqual(found, { R: "? x 3", S: "? x 1" });
  });
});
