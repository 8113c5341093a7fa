// Column ranges X[, a:b] inside fused operators (SystemDS's column-range
// indexing in its Cell and Row templates): the planner covers them
// (templates/cell.ts opens at them, X read materialized), the Cell kernels
// read X in place at the column offset (dense data or a CSR row buffer) and
// the Row kernels read X's row at the offset; every result equals the
// unfused one. Bounds that the input values put outside X leave the
// operator to the unfused operations, whose indexing reports the error.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fallbackOperator } from "../../engine/execution/fallback-operator";
import type { FusedOperator } from "../../engine/fusion";
import { generateOperator, UnsupportedOperator } from "../../engine/runtime/codegen";
import { double } from "../../engine/runtime/interpreter";
import { handOperator, nodeOf, prepareBlock, type CheckedBlock } from "../fusion/fused-check";
import { repoRoot } from "../repo-root";
import { runGenerated } from "./generated-check";

const DATA = `
D = rand(rows=120, cols=8, min=-1, max=1, seed=41)
Y = rand(rows=120, cols=8, min=0, max=2, seed=42)
X = rand(rows=120, cols=10, min=-1, max=1, seed=43)
Q = rand(rows=10, cols=2, min=-1, max=1, seed=44)
H = rand(rows=120, cols=40, min=-1, max=1, sparsity=0.05, seed=46)
b = 5
`;

function indexNodes(checked: CheckedBlock, op: FusedOperator): number[] {
  return op.covered.filter((n) => checked.block.dag.nodes[n]!.op.kind === "index");
}

/** The planned operators of `computation` that cover a column range, each run generated and compared with the unfused values. */
function plannedRangeOperators(computation: string, data = DATA): { checked: CheckedBlock; ops: FusedOperator[]; sources: string } {
  const checked = prepareBlock(data, computation);
  const ops = checked.block.plan.operators.filter((op) => indexNodes(checked, op).length > 0);
  let sources = "";
  for (const op of ops) {
    const run = runGenerated(checked, op);
    assert.equal(run.difference, undefined, `${computation}: operator ${op.id}`);
    sources += run.generated.programs.map((p) => p.source).join("\n");
  }
  return { checked, ops, sources };
}

describe("column ranges in fused operators", () => {
  it("a Cell operator reads a dense and a CSR matrix at their column offsets, without slicing them", () => {
    const expr = "D[, 2:b] - H[, 3:6] * 2";
    const checked = prepareBlock(DATA, `R = ${expr}\nprint(toString(R))`);
    const op = handOperator(checked.block, { template: "cell", roots: [expr], main: null });
    assert.equal(indexNodes(checked, op).length, 2);
    const run = runGenerated(checked, op);
    assert.equal(run.difference, undefined);
    const sources = run.generated.programs.map((p) => p.source).join("\n");
    // X's data at the row offset plus the column plus the range's offset; the CSR one-hot H from its row buffer.
    assert.match(sources, /const c\d+ = Math\.trunc\((l\d+|\d+)\) - 1;/);
    assert.match(sources, /d\d+\[o\d+ \+ j \+ c\d+\]/);
    assert.match(sources, /rb\d+\[j \+ c\d+\]/);
    // The planner covers them too.
    assert.ok(plannedRangeOperators(`R = ${expr}\nprint(toString(R))`).ops.some((o) => o.template === "cell"));
  });

  it("ranges at other offsets, a single column broadcast over the others, summed by row", () => {
    const { ops } = plannedRangeOperators("R = rowSums(D[, 2:5] * Y[, 3:6] + D[, 7:7])\nprint(toString(R))");
    assert.ok(ops.length >= 1);
    assert.ok(ops.some((op) => op.template === "cell"));
  });

  it("a Row operator reads a column range of a row-aligned input in place (mlogreg's Hessian-vector product)", () => {
    const { checked, ops, sources } = plannedRangeOperators("Pk = D[, 1:2]\nXQ = X %*% Q\nR = t(X) %*% (Pk * XQ - Pk * rowSums(Pk * XQ))\nprint(toString(R))");
    const row = ops.find((op) => op.template === "row");
    assert.ok(row, `a Row operator covers D[, 1:2]: ${ops.map((op) => op.template).join(", ")}`);
    assert.equal(indexNodes(checked, row).length, 1);
    assert.doesNotMatch(sources, /slice|subarray/);
  });

  it("a Row operator slices a whole (not row-aligned) input once, before its rows: X %*% W[, 1:2]", () => {
    const expr = "rowSums(X %*% W[, 1:2] * D[, 1:2])";
    const checked = prepareBlock(`${DATA}\nW = rand(rows=10, cols=3, min=-1, max=1, seed=47)`, `R = ${expr}\nprint(toString(R))`);
    const op = handOperator(checked.block, { template: "row", roots: [expr], main: "X" });
    assert.equal(indexNodes(checked, op).length, 2);
    assert.equal(runGenerated(checked, op).difference, undefined);
  });

  it("bounds outside the input at run time leave the operator to the unfused indexing, which reports them", () => {
    const checked = prepareBlock(DATA, "R = D[, 2:b] * 2\nprint(toString(R))");
    const op = handOperator(checked.block, { template: "cell", roots: ["D[, 2:b] * 2"], main: null });
    const bound = nodeOf(checked.block, "b");
    const valueOf = (node: number) => (node === bound ? double(11) : checked.unfused.value(node));
    const generated = generateOperator(checked.block.dag, op);
    assert.throws(() => generated.run(valueOf), (e: unknown) => e instanceof UnsupportedOperator && /columns 2:11 are not within the 8 columns/.test(e.message));
    assert.throws(() => fallbackOperator(checked.block.dag, op, generated).run(valueOf), /index out of range \(valid columns are 1\.\.8/);
    // Within the columns, the same operator runs its kernel.
    assert.equal(runGenerated(checked, op).difference, undefined);
  });

  it("the fusion-pattern fixtures of column ranges plan operators that cover them", () => {
    for (const name of ["cell-column-range-difference", "cell-column-range-offsets", "row-column-range-hessian-product"]) {
      const text = readFileSync(path.join(repoRoot, "test", "fixtures", "fusion-patterns", `${name}.dml`), "utf8");
      const [data, computation] = text.split("while (FALSE) {}\n") as [string, string];
      const { ops } = plannedRangeOperators(computation.replace(/write\(R, "R\.csv"\)/, "print(toString(R))"), data);
      assert.ok(ops.length > 0, `${name}: an operator covers a column range`);
    }
  });
});
