// Row kernels unroll the loops over a row's cells up to UNROLLED_MAX_WIDTH
// (row-kernel-text.ts's forCells): kmeans' distance, assignment and
// centroid operators and glm_logit's products over rows of 5 and 10 cells, and the same computations
// one cell wider than the limit (loops), equal the unfused values of their
// roots, over a dense and a CSR main input; the kernels of the narrow rows
// have no loop over the cells (their sources are checked) and the wide
// ones do.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UNROLLED_MAX_WIDTH } from "../../engine/runtime/codegen/row-kernel-text";
import { handOperator, prepareBlock } from "../fusion/fused-check";
import { generatedDifference, runGenerated } from "./row-check";

/** k centroids of d columns, X of 60 rows: dense (negative cells too) or CSR at 30 %. */
function data(d: number, k: number, sparse: boolean): string {
  return `
X = rand(rows=60, cols=${d}, min=-1, max=1, ${sparse ? "sparsity=0.3, " : ""}seed=51)
C = rand(rows=${k}, cols=${d}, min=-1, max=1, seed=52)
c2 = t(rowSums(C^2))
D = rand(rows=60, cols=${k}, min=-2, max=2, seed=53)
m = rowMins(D)
v = rand(rows=${d}, cols=1, min=-1, max=1, seed=54)
w = rand(rows=60, cols=1, min=0.1, max=1, seed=55)
y = rand(rows=60, cols=1, min=0, max=1, seed=56)
`;
}

/** The computations of kmeans' loop body that the planner fuses into Row operators, each over main input `main`. */
const KMEANS_ROWS = [
  { expr: "-2 * (X %*% t(C)) + c2", main: "X" },
  { expr: "(D <= m) / rowSums(D <= m)", main: "D" },
  { expr: "t(D <= m) %*% X", main: "X" },
  { expr: "rowMins(-2 * (X %*% t(C)) + c2) + rowMaxs(X)", main: "X" },
  // glm_logit's: the CG product (a dot product and a column-vector product per row) and the gradient.
  { expr: "t(X) %*% (w * (X %*% v))", main: "X" },
  { expr: "t(X) %*% (1 / (1 + exp(-(X %*% v))) - y)", main: "X" },
];

/** Whether the kernel source loops over the row's cells (forCells' `for (let j` / `for (let c`, the dot and column-vector products' loops by four, the row sum's by two). */
function loopsOverCells(source: string): boolean {
  return /for \(let [jc] = 0; [jc] < n\d+; [jc]\+\+\)|for \(; j \+ 3 < n\d+; j \+= 4\)|for \(; k \+ 1 < n\d+; k \+= 2\)/.test(source);
}

describe("Row kernels with unrolled cell loops", () => {
  const narrow = [
    [10, 5],
    [3, UNROLLED_MAX_WIDTH],
  ] as const;
  const wide = [[UNROLLED_MAX_WIDTH + 1, UNROLLED_MAX_WIDTH + 1]] as const;
  for (const [shapes, unrolled] of [[narrow, true], [wide, false]] as const) {
    for (const [d, k] of shapes) {
      for (const sparse of [false, true]) {
        it(`kmeans' rows with ${d} features and ${k} centroids, ${sparse ? "CSR" : "dense"} X: equal to unfused; ${unrolled ? "unrolled" : "loops"}`, () => {
          for (const { expr, main } of KMEANS_ROWS) {
            const checked = prepareBlock(data(d, k, sparse), `R = ${expr}\nprint(toString(R))`);
            const op = handOperator(checked.block, { template: "row", main, roots: [expr] });
            const run = runGenerated(checked, op);
            assert.equal(generatedDifference(checked, op, run), undefined, expr);
            const source = run.generated.programs[0]?.source ?? "";
            // A CSR row is walked by its non-zeros whatever its width: only the dense kernels are checked.
            if (!sparse || main !== "X") assert.equal(loopsOverCells(source), !unrolled, `${expr}:\n${source}`);
          }
        });
      }
    }
  }
});
