/**
 * Regressions found by the rewrite differential fuzzer (test/fuzz/rewrites.harness.ts):
 * a matrix with 0 rows or columns anywhere in a block (even one a statement
 * does not use) let the relational form bind an attribute of size 0. Such a
 * relation is empty, so its constant is vacuous (every one of its no cells is
 * 0), yet constant folding merged it with the scalar 0; broadcasting then put
 * it in the class of a statement's non-zero value, and the optimizer
 * suggested a zero matrix for `(A + nrow(E))^2`. Empty dimensions now stay
 * out of the relational form (no root bind, no fresh attribute, no
 * polynomial), and the suggestions keep each statement's value.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { extractGreedyDag, extractGreedyTree, ilpExtractor } from "../../engine/extract";
import { AttributeTable, bindRoot, expressionEGraph } from "../../engine/rewrite";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { differentialCheck, prepareScript } from "../fuzz/rewrites-differential";

const SCRIPTS: Record<string, string> = {
  "a 0 x 1 matrix in the block; a 1 x 1 statement": `A = matrix("-3", rows=1, cols=1)
E = matrix(0, rows=0, cols=1)
R1 = (A + nrow(E))^2
`,
  "a sum over 0 rows inside a square": `A = matrix("0 -0.5", rows=2, cols=1)
s = -2
E = matrix(0, rows=1, cols=0)
F = matrix(0, rows=0, cols=2)
R1 = ((((A > 0) + as.matrix(s)) + E %*% rowSums(F)))^2
`,
  "an empty sum added to a column": `A = matrix("1 -0.5", rows=2, cols=1)
F = matrix(0, rows=0, cols=2)
G = matrix(0, rows=0, cols=1)
R1 = (A + sum(G))^2
`,
  "empty matrices in other statements of the block": `A = rand(rows=2, cols=2, sparsity=0.5, min=-2, max=2, seed=66813)
P = matrix(0, rows=2, cols=0)
B = matrix(0, rows=2, cols=1)
Q = matrix(0, rows=1, cols=0)
F = matrix(0, rows=0, cols=2)
R1 = min(t(A), (((A)^2 / 2) / 2))
R2 = ((min(P, (B %*% Q)) / 2) / 2)
R3 = sum(matrix(2, rows=nrow(F), cols=1))
`,
  // Aggregates over no cells: only sums are 0 (min/max are ±Inf, means NaN), so the sizes must not call them all-zero
  // (exp(-Inf) = 0 keeps the results finite, which is what the differential check compares).
  "rowMaxs over 0 columns": `E = matrix(0, rows=1, cols=0)
s = -2
Z = matrix(0, rows=0, cols=0)
R1 = exp(-(sqrt(((rowMaxs(((E / ((E)^2 + 1)))^0) + as.matrix(s)))^2) + sum(t(abs(Z)))))
`,
  "colMins over 0 rows": `E = matrix(0, rows=1, cols=0)
F = matrix(0, rows=0, cols=1)
A = matrix("0", rows=1, cols=1)
R1 = (((E)^0 %*% F - A) + exp(-colMins(F)))
`,
};

for (const [name, script] of Object.entries(SCRIPTS)) {
  test(`empty dimensions: ${name}: every extraction keeps the statements' values`, async () => {
    const targets = [...script.matchAll(/^(R\d+) =/gm)].map((m) => m[1]!);
    const prepared = prepareScript(script, targets);
    assert.ok(!("kind" in prepared), `the script must check and run: ${"kind" in prepared ? prepared.reason : ""}`);
    for (const [strategy, extract] of [["greedy tree", extractGreedyTree], ["greedy DAG", extractGreedyDag], ["ILP", await ilpExtractor()]] as const) {
      const outcome = differentialCheck(prepared, extract);
      assert.notEqual(outcome.kind, "unsound", `${strategy}: ${outcome.kind === "unsound" ? `${outcome.problem}\n${outcome.rewritten}` : ""}`);
    }
  });
}

test("empty dimensions: an empty matrix has no relational form", () => {
  const { egraph, root } = expressionEGraph("E", { E: { rows: 0, cols: 3 } });
  assert.equal(bindRoot(egraph, new AttributeTable(), root), undefined);
  const column = expressionEGraph("u", { u: { rows: 3, cols: 1 } });
  assert.notEqual(bindRoot(column.egraph, new AttributeTable(), column.root), undefined);
});

test("empty dimensions: row and column aggregates over no cells are non-zero except sums", () => {
  const script = `E = matrix(0, rows=2, cols=0)
F = matrix(0, rows=0, cols=3)
a = rowSums(E)
b = rowMaxs(E)
c = rowMeans(E)
d = colSums(F)
e = colMins(F)
f = colProds(F)
`;
  const analysis = analyzeText(script);
  const [info] = analysis.dags.blocks;
  const sizes = analysis.sizes.blocks.get(info!.block)!;
  const nnz = (name: string) => {
    const stats = sizes.nodes[info!.dag.outputs.get(name)!]!;
    return `${stats.rows}x${stats.cols} nnz ${stats.nnz}${stats.nnzExact ? " exact" : ""}`;
  };
  assert.deepEqual(
    ["a", "b", "c", "d", "e", "f"].map(nnz),
    ["2x1 nnz 0 exact", "2x1 nnz 2 exact", "2x1 nnz 2 exact", "1x3 nnz 0 exact", "1x3 nnz 3 exact", "1x3 nnz 3 exact"],
  );
});
