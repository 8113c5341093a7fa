// Generated Row operators (engine/runtime/codegen/row-operator.ts) equal
// the unfused values of their roots to 1e-12 relative: per variant of the
// Row template, a block planned by the fusion planner (the variant
// asserted), run on a dense and on a CSR main input with empty rows;
// hand-built operators for the rest of the skeleton (row vectors, 1 x 1,
// scalars, cbind, rowIndexMax, column min/max, a transposed row, a whole
// matrix with the main input's rows as columns); sparse-safe skipping
// exactly as the reference; UnsupportedOperator where no kernel applies.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UnsupportedOperator } from "../../engine/runtime/codegen";
import { generateRowOperator } from "../../engine/runtime/codegen/row-operator";
import { isSparse } from "../../engine/runtime/matrix";
import type { FusedOperator } from "../../engine/fusion";
import { handOperator, operatorDifference, prepareBlock, type CheckedBlock, type HandOperator } from "../fusion/fused-check";
import { generatedDifference, referenceDifference, runGenerated } from "./row-check";

const SIDE = `
D = rand(rows=50, cols=40, min=-1, max=1, seed=12)
Y = rand(rows=50, cols=40, min=0.5, max=2, seed=13)
v = rand(rows=40, cols=1, min=0.1, max=1, seed=17)
w = rand(rows=50, cols=1, min=0.1, max=1, seed=18)
y = rand(rows=50, cols=1, min=0.1, max=1, seed=19)
r = rand(rows=1, cols=40, min=-1, max=1, seed=20)
U = rand(rows=50, cols=3, min=0.1, max=1, seed=21)
B = rand(rows=40, cols=3, min=0.1, max=1, seed=22)
C = rand(rows=4, cols=50, min=-1, max=1, seed=23)
o = rand(rows=1, cols=1, min=1, max=2, seed=24)
lambda = 0.25
`;
/** X dense (every row non-zero), or CSR at 3 % (about a third of its rows empty). */
const DENSE = `X = rand(rows=50, cols=40, min=0.1, max=1, seed=11)${SIDE}`;
const SPARSE = `X = rand(rows=50, cols=40, min=0.1, max=1, sparsity=0.03, seed=11)${SIDE}`;

/**
 * Per Row variant (engine/fusion/templates/row.ts): a computation whose plan
 * has a Row operator of that variant over X (`denseOnly`: over a CSR X the
 * planner picks another template).
 */
/** A narrower dense X (12 columns) with a skinny B: the planner binds B as the Row operator's B1 there. */
const NARROW = `
X = rand(rows=50, cols=12, min=0.1, max=1, seed=31)
B = rand(rows=12, cols=3, min=0.1, max=1, seed=32)
U = rand(rows=50, cols=3, min=0.1, max=1, seed=33)
`;

const VARIANTS: { variant: string; expr: string; denseOnly?: boolean }[] = [
  { variant: "col-agg-t", expr: "t(X) %*% (w * (X %*% v))" },
  { variant: "no-agg", expr: "exp(X - rowMaxs(X)) / rowSums(exp(X - rowMaxs(X)))" },
  { variant: "no-agg-b1", expr: "X %*% B * U", denseOnly: true },
  { variant: "row-agg", expr: "rowSums(X * Y) * (X %*% v)" },
  { variant: "full-agg", expr: "sum(X %*% v * y)" },
  { variant: "col-agg", expr: "colMeans(X * (X %*% v))" },
  { variant: "col-agg-b1-t", expr: "t(X) %*% ((X %*% B) * U)" },
  { variant: "col-agg-b1r", expr: "colSums(X %*% B * U)", denseOnly: true },
  { variant: "no-agg-const", expr: "exp(X %*% B) * rowSums(X)" },
  { variant: "col-agg-const", expr: "colSums((X %*% B) * (X %*% v))" },
  { variant: "no-agg-const", expr: "cbind(X %*% v, rowSums(X))" },
];

function rowOperatorOf(checked: CheckedBlock, variant: string): FusedOperator {
  const ops = checked.block.plan.operators.filter((o) => o.template === "row");
  const op = ops.find((o) => o.binding.variant === variant);
  assert.ok(op, `no Row operator of variant ${variant}; the plan has ${checked.block.plan.operators.map((o) => `${o.template} ${o.binding.variant}`).join(", ")}`);
  return op;
}

/** Whether the main input is CSR, and then with empty rows. */
function mainIsSparse(checked: CheckedBlock, op: FusedOperator): boolean {
  const main = checked.unfused.value(op.binding.mainInput!);
  if (main.kind !== "matrix" || !isSparse(main.matrix)) return false;
  const m = main.matrix;
  let empty = 0;
  for (let i = 0; i < m.rows; i++) if (m.rowPtr[i] === m.rowPtr[i + 1]) empty++;
  assert.ok(empty >= 3 && empty < m.rows, `${empty} empty rows`);
  return true;
}

describe("generated Row operators: every variant planned over a dense and a CSR main input", () => {
  for (const { variant, expr, denseOnly } of VARIANTS) {
    it(`${variant}: ${expr}`, () => {
      const sources: string[] = [];
      const inputs = denseOnly ? ([[NARROW, false]] as const) : ([[DENSE, false], [SPARSE, true]] as const);
      for (const [data, sparse] of inputs) {
        const checked = prepareBlock(data, `R = ${expr}\nprint(toString(R))`);
        const op = rowOperatorOf(checked, variant);
        assert.equal(checked.block.dag.nodes[op.binding.mainInput!]!.op.kind === "input" ? checked.block.text(op.binding.mainInput!) : "", "X");
        assert.equal(mainIsSparse(checked, op), sparse, "the main input's format");
        const run = runGenerated(checked, op);
        assert.equal(generatedDifference(checked, op, run), undefined);
        assert.equal(run.generated.programs.length, 1);
        sources.push(run.generated.programs[0]!.source);
      }
      if (denseOnly) return;
      assert.notEqual(sources[0], sources[1], "dense and CSR main inputs have separate kernels");
      assert.match(sources[1]!, /\[i \+ 1\]/, "the CSR kernel reads the row's range of non-zeros");
    });
  }
});

function handCheck(data: string, computation: string, spec: HandOperator): { checked: CheckedBlock; op: FusedOperator } {
  const checked = prepareBlock(data, computation);
  return { checked, op: handOperator(checked.block, spec) };
}

function assertGeneratedAgrees(expr: string, spec: Omit<HandOperator, "roots">, data = DENSE): void {
  const { checked, op } = handCheck(data, `R = ${expr}\nprint(toString(R))`, { ...spec, roots: [expr] });
  assert.equal(generatedDifference(checked, op), undefined, expr);
}

describe("generated Row operators: hand-built operators over the rest of the skeleton", () => {
  it("scalars, a 1 x 1 matrix, a row vector and a column vector broadcast over the row", () => {
    for (const data of [DENSE, SPARSE]) assertGeneratedAgrees("rowSums(abs(X - r) * lambda + w / (o + 2)) * (X %*% v)", { template: "row", main: "X" }, data);
  });
  it("row and column min, max, mean; rowIndexMax", () => {
    for (const data of [DENSE, SPARSE]) {
      assertGeneratedAgrees("rowMins(X - 0.5) + rowMaxs(D) - rowMeans(X * Y)", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("colMaxs(X * (X %*% v))", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("colMins(D - X * (X %*% v))", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("rowIndexMax(X + r)", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("rowIndexMax(X)", { template: "row", main: "X" }, data);
    }
  });
  it("element-wise calls ifelse, replace, min and max per cell of the row", () => {
    assertGeneratedAgrees("rowSums(ifelse(D > 0, min(D, Y, 0.5), max(Y, 1) %% 0.7) + replace(target=(D > 0.5), pattern=0, replacement=3)) * (D %*% v)", { template: "row", main: "D" });
  });
  it("cbind of dense and CSR rows and columns", () => {
    for (const data of [DENSE, SPARSE]) {
      assertGeneratedAgrees("colSums(cbind(X, y) * cbind(Y, w))", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("rowSums(cbind(X * 2, w, X %*% B) + 1)", { template: "row", main: "X" }, data);
    }
  });
  it("products: X_i B, t(A) %*% B of rows, and C %*% B with C a whole matrix over the rows", () => {
    for (const data of [DENSE, SPARSE]) {
      assertGeneratedAgrees("t(X * 2) %*% (X %*% B + U)", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("t(U) %*% (X * (X %*% v))", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("C %*% (X * (X %*% v))", { template: "row", main: "X" }, data);
      assertGeneratedAgrees("t(X) %*% X", { template: "row", main: "X" }, data);
    }
  });
  it("t(U) %*% X with X's rows in CSR adds over X's stored cells only (never scattered into its full width)", () => {
    for (const expr of ["t(U) %*% X", "t(U * 2) %*% X"]) {
      const { checked, op } = handCheck(SPARSE, `R = ${expr}\nprint(toString(R))`, { template: "row", roots: [expr], main: "X" });
      assert.equal(mainIsSparse(checked, op), true);
      assert.equal(generatedDifference(checked, op), undefined, expr);
      const generated = generateRowOperator(checked.block.dag, op);
      generated.run((node) => checked.unfused.value(node));
      const source = generated.programs.map((p) => p.source).join("\n");
      assert.doesNotMatch(source, /\.fill\(0\)/, `${expr}: no scattered row`);
    }
  });
  it("a transposed row as the root: the rows become columns", () => {
    assertGeneratedAgrees("t(D * (D %*% v))", { template: "row", main: "D" });
  });
  it("nodes that do not depend on the row are computed once: t(v) * lambda as a row vector, sum(r) as a scalar", () => {
    assertGeneratedAgrees("rowSums(D * (t(v) * lambda) + sum(r))", { template: "row", main: "D" });
  });
  it("several roots: a row-wise result and a column aggregate from one pass", () => {
    const { checked, op } = handCheck(DENSE, "A = X %*% B * U\nc = colSums(X * (X %*% v))\nprint(toString(A))\nprint(toString(c))", {
      template: "row",
      roots: ["X %*% B * U", "colSums(X * (X %*% v))"],
      main: "X",
    });
    assert.equal(generatedDifference(checked, op), undefined);
  });
});

describe("generated Row operators: the runtime's arithmetic where it can be matched", () => {
  it("t(X) %*% (w * (X %*% v)) on a dense X in one range is bit-identical to the unfused GEMVs (dot products and column sums in the same order)", () => {
    for (const data of [DENSE, `${DENSE}\nX = rand(rows=51, cols=43, min=-1, max=1, seed=3)\nw = rand(rows=51, cols=1, min=-1, max=1, seed=4)\nv = rand(rows=43, cols=1, min=-1, max=1, seed=5)`]) {
      const expr = "t(X) %*% (w * (X %*% v))";
      const checked = prepareBlock(data, `R = ${expr}\nprint(toString(R))`);
      const op = rowOperatorOf(checked, "col-agg-t");
      const generated = runGenerated(checked, op).values.get(op.roots[0]!)!;
      const unfused = checked.unfused.value(op.roots[0]!);
      assert.ok(generated.kind === "matrix" && unfused.kind === "matrix");
      for (let j = 0; j < unfused.matrix.rows; j++) assert.equal(generated.matrix.get(j, 0), unfused.matrix.get(j, 0), `row ${j + 1}`);
    }
  });
});

describe("generated Row operators: calls large enough to be split into row ranges", () => {
  it("row-wise results, column aggregates and accumulated products over 8,000 rows (dense and CSR) equal the unfused values", () => {
    const data = `
X = rand(rows=8000, cols=60, min=0.1, max=1, seed=41)
S = rand(rows=8000, cols=60, min=0.1, max=1, sparsity=0.3, seed=42)
v = rand(rows=60, cols=1, min=0.1, max=1, seed=43)
w = rand(rows=8000, cols=1, min=0.1, max=1, seed=44)
B = rand(rows=60, cols=4, min=0.1, max=1, seed=45)
`;
    for (const main of ["X", "S"]) {
      for (const expr of [`t(${main}) %*% (w * (${main} %*% v))`, `${main} * (${main} %*% v) + w`, `colSums(${main} * w)`, `colMaxs(${main} * w)`, `t(${main}) %*% (${main} %*% B)`]) {
        const { checked, op } = handCheck(data, `R = ${expr}\nprint(toString(R))`, { template: "row", roots: [expr], main });
        const run = runGenerated(checked, op);
        assert.equal(generatedDifference(checked, op, run), undefined, expr);
      }
    }
  });
});

describe("generated Row operators: sparse-safe skipping", () => {
  it("a sparse-safe binding skips X's empty rows and still equals the unfused values (rows of 0, nothing added)", () => {
    for (const expr of ["t(X) %*% (X %*% v)", "colSums(X * 2)", "X * (X %*% v)", "rowSums(X * Y)"]) {
      const { checked, op } = handCheck(SPARSE, `R = ${expr}\nprint(toString(R))`, { template: "row", roots: [expr], main: "X", sparseSafe: true });
      assert.equal(generatedDifference(checked, op), undefined, expr);
    }
  });
  it("skipping is exactly the reference's: a wrong claim gives the reference's (wrong) values, on CSR and dense mains", () => {
    for (const data of [SPARSE, `${DENSE}\nX = X * (w > 0.5)`]) {
      for (const expr of ["rowSums(X + 1)", "colMaxs(X - 1)", "sum(X + 1)"]) {
        const { checked, op } = handCheck(data, `R = ${expr}\nprint(toString(R))`, { template: "row", roots: [expr], main: "X", sparseSafe: true });
        assert.notEqual(operatorDifference(checked, op), undefined, `${expr}: the claim is wrong, the reference differs from the unfused values`);
        assert.notEqual(generatedDifference(checked, op), undefined, expr);
        assert.equal(referenceDifference(checked, op), undefined, expr);
      }
    }
  });
});

describe("generated Row operators: no kernel, never a wrong answer", () => {
  it("a column aggregate read inside the operator is refused when it runs", () => {
    const { checked, op } = handCheck(DENSE, "R = D / colSums(D)\nprint(toString(R))", { template: "row", roots: ["D / colSums(D)"], main: "D" });
    assert.throws(() => runGenerated(checked, op), (e: unknown) => e instanceof UnsupportedOperator && /before all rows are seen/.test(e.message));
  });
  it("a variance is refused when the operator is generated", () => {
    const { checked, op } = handCheck(DENSE, "R = rowVars(D * 2)\nprint(toString(R))", { template: "row", roots: ["rowVars(D * 2)"], main: "D" });
    assert.throws(() => generateRowOperator(checked.block.dag, op), (e: unknown) => e instanceof UnsupportedOperator && /var aggregate/.test(e.message));
  });
  it("a whole matrix of other rows in an element-wise operation is refused", () => {
    const { checked, op } = handCheck(DENSE, "R = rowSums(D %*% B) + sum(B * B)\nprint(toString(R))", { template: "row", roots: ["rowSums(D %*% B) + sum(B * B)"], main: "D" });
    assert.equal(generatedDifference(checked, op), undefined);
    const { checked: c2, op: op2 } = handCheck(DENSE, "R = (D %*% B) + t(B)\nprint(toString(R))", { template: "row", roots: ["(D %*% B) + t(B)"], main: "D" });
    assert.throws(() => runGenerated(c2, op2), (e: unknown) => e instanceof UnsupportedOperator && /not a row/.test(e.message));
  });
});
