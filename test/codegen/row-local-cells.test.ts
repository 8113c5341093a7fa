// Row kernels keep the cells of their scratch row vectors and of their
// products' local sums in local numbers when the code reads and writes them
// only at literal indexes (unrolled cells; row-kernel-text.ts `program`),
// and read an input's cells at literal indexes once (X's row per row, a
// whole operand's cells before the loop):
// mlogreg's Hessian-vector product over rows of X (10 cells) and Pk (2),
// kmeans' distances, glm_logit's CG product, mlogreg's softmax with its
// cbind and row maximum, rowIndexMax, row minima. Each kernel equals the unfused
// values of its roots; the narrow ones have no scratch array left (their
// sources are checked), and rows past LOCAL_CELLS_MAX keep their arrays.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LOCAL_CELLS_MAX, UNROLLED_MAX_WIDTH } from "../../engine/runtime/codegen/row-kernel-text";
import { handOperator, prepareBlock } from "../fusion/fused-check";
import { generatedDifference, runGenerated } from "./row-check";

function data(d: number, k: number, sparse: boolean): string {
  return `
X = rand(rows=60, cols=${d}, min=-1, max=1, ${sparse ? "sparsity=0.3, " : ""}seed=61)
Q = rand(rows=${d}, cols=${k}, min=-1, max=1, seed=62)
Pk = rand(rows=60, cols=${k}, min=0, max=1, seed=63)
C = rand(rows=${k}, cols=${d}, min=-1, max=1, seed=64)
c2 = t(rowSums(C^2))
v = rand(rows=${d}, cols=1, min=-1, max=1, seed=65)
w = rand(rows=60, cols=1, min=0.1, max=1, seed=66)
z = matrix(0, rows=60, cols=1)
`;
}

/**
 * `scratch`: whether the kernel has scratch row vectors (glm's product has
 * none: a dot product into one number); `sums`: whether its products' d x k
 * local sums are one array indexed by literals (glm's column-vector product
 * deals rows to four arrays by a selector: they stay arrays).
 */
const ROWS = [
  { expr: "t(X) %*% (Pk * (X %*% Q) - Pk * rowSums(Pk * (X %*% Q)))", main: "X", scratch: true, sums: true },
  { expr: "-2 * (X %*% t(C)) + c2", main: "X", scratch: true, sums: false },
  { expr: "t(X) %*% (w * (X %*% v))", main: "X", scratch: false, sums: false },
  // Row-wise folds, index maxima and cbind over unrolled cells (mlogreg's softmax and prediction, kmeans' nearest centroid).
  { expr: "rowIndexMax(cbind(X %*% Q, z))", main: "X", scratch: true, sums: false },
  { expr: "exp(cbind(X %*% Q, z) - rowMaxs(cbind(X %*% Q, z)))", main: "X", scratch: true, sums: false },
  { expr: "rowMins(-2 * (X %*% t(C)) + c2) + rowMaxs(X %*% Q) * rowSums(abs(X %*% Q))", main: "X", scratch: true, sums: false },
];

/** Scratch row vectors (`t`) or local sums (`g`) left as typed arrays. */
function arraysLeft(source: string, prefix: "t" | "g"): string[] {
  return [...source.matchAll(new RegExp(`const (${prefix}\\d+) = new Float64Array`, "g"))].map((m) => m[1]!);
}

describe("Row kernels keep unrolled cells in locals", () => {
  for (const [d, k, local] of [
    [10, 2, true],
    [10, 3, true],
    [UNROLLED_MAX_WIDTH + 1, UNROLLED_MAX_WIDTH + 1, false],
  ] as const) {
    for (const sparse of [false, true]) {
      it(`rows of ${d} features, ${k} columns, ${sparse ? "CSR" : "dense"} X: equal to unfused; ${local ? "no scratch array" : "arrays kept"}`, () => {
        for (const { expr, main, scratch, sums } of ROWS) {
          const checked = prepareBlock(data(d, k, sparse), `R = ${expr}\nprint(toString(R))`);
          const op = handOperator(checked.block, { template: "row", main, roots: [expr] });
          const run = runGenerated(checked, op);
          assert.equal(generatedDifference(checked, op, run), undefined, expr);
          const source = run.generated.programs[0]?.source ?? "";
          if (sparse) continue; // a CSR row is walked by its non-zeros: its products index by column
          if (d <= UNROLLED_MAX_WIDTH) assert.match(source, /const (a\d+)_c0 = \1\[0\]/, `${expr}: the whole operand's cells are read before the loop`);
          if (d <= UNROLLED_MAX_WIDTH) {
            // X's row cells are read from X once per row (they feed the product and the accumulation), into locals.
            const rows = [...source.matchAll(/const (a\d+)_r0 = \1\[(o\d+) \+ 0\]/g)];
            const x = rows.find((m) => source.includes(`${m[1]}_r${d - 1} = `));
            assert.ok(x, `${expr}: X's row is read into locals:\n${source}`);
            const reads = source.match(new RegExp(`\\b${x[1]}\\[${x[2]} \\+ \\d+\\]`, "g")) ?? [];
            assert.equal(reads.length, d, `${expr}: each cell of X's row is read once:\n${source}`);
          }
          if (!scratch) continue;
          if (local) {
            assert.deepEqual(arraysLeft(source, "t"), [], `${expr}:\n${source}`);
            if (sums) assert.deepEqual(arraysLeft(source, "g"), [], `${expr}:\n${source}`);
            assert.match(source, /let [tg]\d+_0 = 0/, expr);
          } else assert.ok(arraysLeft(source, "t").length > 0, `${expr}:\n${source}`);
        }
      });
    }
  }

  it("a sum array wider than LOCAL_CELLS_MAX stays an array", () => {
    const d = 11;
    const k = Math.ceil((LOCAL_CELLS_MAX + 1) / d);
    const expr = "t(X) %*% (Pk * (X %*% Q))";
    const checked = prepareBlock(data(d, k, false), `R = ${expr}\nprint(toString(R))`);
    const op = handOperator(checked.block, { template: "row", main: "X", roots: [expr] });
    const run = runGenerated(checked, op);
    assert.equal(generatedDifference(checked, op, run), undefined, expr);
    assert.ok(arraysLeft(run.generated.programs[0]?.source ?? "", "g").length > 0, "the d x k sums are an array");
  });

  it("a full sum of the row's cells is accumulated in local numbers, written to the accumulators once after the range (ALS-CG's R - alpha * HS with sum(R^2))", () => {
    for (const [d, sparse] of [[10, false], [10, true], [UNROLLED_MAX_WIDTH + 1, false]] as const) {
      const checked = prepareBlock(data(d, 2, sparse), "R = X - 0.5 * (X * X)\ns = sum(R^2)\nprint(toString(R))\nprint(s)");
      const op = handOperator(checked.block, { template: "row", main: "X", roots: ["X - 0.5 * (X * X)", "sum(R^2)"] });
      const run = runGenerated(checked, op);
      assert.equal(generatedDifference(checked, op, run), undefined, `d ${d}, ${sparse ? "CSR" : "dense"}`);
      const source = run.generated.programs[0]?.source ?? "";
      const loop = source.slice(source.indexOf("for (let i = r0"), source.lastIndexOf("}\n  acc["));
      assert.doesNotMatch(loop, /acc\[/, `no accumulator access in the row loop:\n${source}`);
      assert.equal((source.match(/acc\[n\d+ \+ \d\] = f\d+;/g) ?? []).length, 5, `two sums, two compensations, one plain sum stored once:\n${source}`);
      if (!sparse && d <= UNROLLED_MAX_WIDTH) assert.deepEqual(arraysLeft(source, "t"), [], `the squared row's cells are locals:\n${source}`);
    }
  });
});
