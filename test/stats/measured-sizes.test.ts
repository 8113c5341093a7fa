/** Sizes measured by the runtime replace estimates where a variable is assigned once. */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { analyzeText } from "../../engine/analysis/program-analysis";

const script = ["X = read($X)", "Y = t(X) %*% X", "i = 0", "while (i < 3) {", "  Z = X * 2", "  i = i + 1", "}", "Z = Z + 1"].join("\n");

function statsOf(analysis: ReturnType<typeof analyzeText>, name: string) {
  for (const info of [...analysis.dags.blocks].reverse()) {
    const node = info.dag.outputs.get(name);
    if (node !== undefined) return analysis.sizes.blocks.get(info.block)!.nodes[node]!;
  }
  return undefined;
}

test("a measured read replaces the unknown size and flows into what uses it", () => {
  const before = analyzeText(script);
  assert.equal(statsOf(before, "X")?.rows, null);
  const after = analyzeText(script, { measured: new Map([["X", { rows: 500, cols: 40, nnz: 1200 }]]) });
  const x = statsOf(after, "X")!;
  assert.deepEqual([x.rows, x.cols, x.nnz, x.nnzExact], [500, 40, 1200, true]);
  const y = statsOf(after, "Y")!;
  assert.deepEqual([y.rows, y.cols], [40, 40]);
});

test("a variable assigned more than once keeps its estimates (which value was measured is ambiguous)", () => {
  const after = analyzeText(script, { measured: new Map([["X", { rows: 500, cols: 40, nnz: 1200 }], ["Z", { rows: 1, cols: 1, nnz: 1 }]]) });
  const z = statsOf(after, "Z")!;
  assert.deepEqual([z.rows, z.cols], [500, 40]);
});
