// Generated Cell operators (engine/runtime/codegen/cell-operator.ts) equal
// the unfused values of their roots to 1e-12 relative: operators planned
// by the fusion planner and operators built by hand for each variant:
// dense and CSR main inputs, sparse-safe or not, CSR side inputs, row and
// column vectors, 1 x 1 matrices and scalars broadcast, transposed reads,
// every aggregation function and direction, empty rows and columns,
// NaN and infinite cells, matrices without rows. A wrong sparse-safety
// claim and what the generator cannot compute are caught.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateOperator, UnsupportedOperator } from "../../engine/runtime/codegen";
import { valueDifference } from "../../engine/runtime/fused";
import { handOperator, prepareBlock, type CheckedBlock, type HandOperator } from "../fusion/fused-check";
import { DATA, withAggregate } from "./cell-fixtures";
import { GENERATED_TOLERANCE, runGenerated, type GeneratedRun } from "./generated-check";


/** Runs the hand-built operator's generated code; fails the test on a difference. */
function assertGenerated(computation: string, spec: HandOperator): GeneratedRun {
  const checked = prepareBlock(DATA, computation);
  const run = runGenerated(checked, handOperator(checked.block, spec));
  assert.equal(run.difference, undefined, computation);
  assert.ok(run.generated.programs.length > 0, "a kernel ran");
  return run;
}

function source(run: GeneratedRun): string {
  return run.generated.programs.map((p) => p.source).join("\n");
}

function cell(root: string, main: string | null, sparseSafe = false, materialized: string[] = []): HandOperator {
  return { template: "cell", roots: [root], main, sparseSafe, materialized };
}


describe("generated Cell operators: cell-wise results", () => {
  it("a dense expression with a row vector, a column vector, a 1 x 1 matrix and scalars broadcast", () => {
    const run = assertGenerated("R = abs(D - r) * 2 + c / (o + lambda)\nprint(toString(R))", cell("abs(D - r) * 2 + c / (o + lambda)", "D"));
    // the scalar part is hoisted before the loop, the column-vector part computed once per row
    assert.match(source(run), /const t\d+ = \(l\d+ \+ l\d+\);\n {2}for \(let i/);
  });
  it("a sparse-safe expression over a CSR main input walks its non-zeros into a CSR result", () => {
    const run = assertGenerated("R = X * Y + X * r\nprint(toString(R))", cell("X * Y + X * r", "X", true));
    assert.match(source(run), /for \(let p = mrp\[i\]/);
  });
  it("a CSR main input that is not sparse-safe is read through a row buffer, as is a CSR side input", () => {
    const run = assertGenerated("R = X + S * 2 + 1\nprint(toString(R))", cell("X + S * 2 + 1", "X"));
    assert.match(source(run), /rb\d+\[j\]/);
    assert.doesNotMatch(source(run), /mrp/);
  });
  it("a sparse-safe expression over a dense main input computes only where the main input is not 0", () => {
    const run = assertGenerated("R = E * D * 3\nprint(toString(R))", cell("E * D * 3", "D", true));
    assert.match(source(run), /if \(.* !== 0\)/);
  });
  it("transposed reads: a column vector as a row, a square matrix against its transpose", () => {
    assertGenerated("R = Q * t(v) + t(Q)\nprint(toString(R))", cell("Q * t(v) + t(Q)", "Q"));
    const run = assertGenerated("R = P * t(P) + P\nprint(toString(R))", cell("P * t(P) + P", "P", true));
    assert.match(source(run), /mva\[p\]/);
    assert.match(source(run), /d\d+\[j \* w\d+ \+ i\]/);
  });
  it("comparisons, min / max of several arguments, %%, %/%, ifelse, replace", () => {
    const expr = "ifelse(D > 0, min(D, Y, 0.5) %% 0.3, max(Y, 1) %/% 0.7) + replace(target=(S != 0), pattern=0, replacement=5)";
    assertGenerated(`R = ${expr}\nprint(toString(R))`, cell(expr, "D"));
  });
  it("NaN and infinite cells, and an input without rows", () => {
    assertGenerated("R = N * 2 + is.nan(N) + is.infinite(N)\nprint(toString(R))", cell("N * 2 + is.nan(N) + is.infinite(N)", "N"));
    assertGenerated("R = Z0 * 2 + r\nprint(toString(R))", cell("Z0 * 2 + r", "Z0", true));
  });
  it("a vector main input transposed to the cells' shape, sparse-safe", () => {
    const run = assertGenerated("R = t(v) * r * 2\nprint(toString(R))", cell("t(v) * r * 2", "v", true));
    assert.match(source(run), /if \(d\d+\[j\] !== 0\)/);
    assertGenerated("s = sum(t(v) * r)\nprint(s)", cell("sum(t(v) * r)", "v", true));
  });
  it("a cell-wise root over vectors only (no main input)", () => {
    assertGenerated("R = c + r * lambda\nprint(toString(R))", cell("c + r * lambda", null));
  });
  it("one-column domains (loops over vectors) have no column loop: cell-wise, sparse-safe over a dense main, sums", () => {
    const cells = assertGenerated("R = 1 - x * (y + lambda)\nprint(toString(R))", cell("1 - x * (y + lambda)", "x"));
    assert.match(source(cells), /const j = 0;/);
    assert.doesNotMatch(source(cells), /for \(let j = 0; j < n; j\+\+\)/);
    const safe = assertGenerated("R = (x > 0) * y * 2\nprint(toString(R))", cell("(x > 0) * y * 2", "x", true));
    assert.match(source(safe), /const j = 0;\n\s*if \(/);
    assertGenerated("s = sum(x * y * c)\nprint(s)", cell("sum(x * y * c)", "x", true));
    assertGenerated("R = rowSums(x * y)\nprint(toString(R))", cell("rowSums(x * y)", "x"));
  });
  it("a matrix domain whose matrix inputs all have its shape runs as one loop over its cells; a broadcast, a transposed read or a row aggregate keeps the column loop", () => {
    const columnLoop = /for \(let j = 0; j < n; j\+\+\)/;
    for (const [computation, root] of [
      ["R = D * Y + 2 * lambda\nprint(toString(R))", "D * Y + 2 * lambda"],
      ["s = sum(D * Y - 1)\nprint(s)", "sum(D * Y - 1)"],
      ["R = ifelse(D > 0, D, Y)\nprint(toString(R))", "ifelse(D > 0, D, Y)"],
    ] as const) {
      const run = assertGenerated(computation, cell(root, "D"));
      assert.doesNotMatch(source(run), columnLoop, root);
      assert.match(source(run), /const j = 0;/, root);
    }
    for (const [computation, root] of [
      ["R = D * Y - r\nprint(toString(R))", "D * Y - r"],
      ["R = D * Y - c\nprint(toString(R))", "D * Y - c"],
      ["R = Q * t(Q)\nprint(toString(R))", "Q * t(Q)"],
      ["R = rowSums(D * Y)\nprint(toString(R))", "rowSums(D * Y)"],
    ] as const) assert.match(source(assertGenerated(computation, cell(root, root.startsWith("Q") ? "Q" : "D"))), columnLoop, root);
  });
});

const FUNCTIONS: Record<"full" | "row" | "col", Record<string, string>> = {
  full: { sum: "sum", mean: "mean", min: "min", max: "max", prod: "prod" },
  row: { sum: "rowSums", mean: "rowMeans", min: "rowMins", max: "rowMaxs", prod: "rowProds" },
  col: { sum: "colSums", mean: "colMeans", min: "colMins", max: "colMaxs", prod: "colProds" },
};

/** Inputs and expressions each aggregate is checked over: main, whether sparse-safe, expression. */
const AGGREGATED: [string, boolean, string][] = [
  ["D", false, "D * Y + r"],
  ["D", true, "D * Y"],
  ["X", true, "X * Y"],
  ["X", false, "X + 1"],
  ["E", true, "E * 2"],
  ["E", false, "E - c"],
  ["N", false, "N + 1"],
  ["Z0", false, "Z0 + 1"],
  ["Z0", true, "Z0 * r"],
  ["Y", false, "(Y - 1) * 0.9"],
];

describe("generated Cell operators: aggregates", () => {
  for (const direction of ["full", "row", "col"] as const) {
    for (const [fn, builtin] of Object.entries(FUNCTIONS[direction])) {
      it(`${builtin} over dense, CSR, empty-row and -column, NaN / Inf and row-less inputs`, () => {
        for (const [main, sparseSafe, expr] of AGGREGATED) {
          const root = `${builtin}(${expr})`;
          const computation = direction === "full" ? `s = ${root}\nprint(s)` : `R = ${root}\nprint(toString(R))`;
          const checked = prepareBlock(DATA, computation);
          const run = runGenerated(checked, handOperator(checked.block, cell(root, main, sparseSafe)));
          assert.equal(run.difference, undefined, `${root} (main ${main}${sparseSafe ? ", sparse-safe" : ""}, ${fn})`);
        }
      });
    }
  }
  it("sumSq in every direction (an aggregate DML has no builtin for)", () => {
    for (const [builtin, direction] of [["sum", "full"], ["rowSums", "row"], ["colSums", "col"]] as const) {
      for (const [main, sparseSafe, expr] of AGGREGATED) {
        const root = `${builtin}(${expr})`;
        const checked = withAggregate(prepareBlock(DATA, direction === "full" ? `s = ${root}\nprint(s)` : `R = ${root}\nprint(toString(R))`), root, "sumSq");
        const run = runGenerated(checked, handOperator(checked.block, cell(root, main, sparseSafe)));
        assert.equal(run.difference, undefined, `sumSq ${direction} of ${expr}`);
        assert.match(run.generated.programs[0]!.source, /const y = t\d+ \* t\d+ -|acc\[j\] \+= t\d+ \* t\d+|- acc\[n \+ j\]/);
      }
    }
  });
  it("the dot product t(x) %*% y, dense and over a sparse-safe main", () => {
    const run = assertGenerated("R = t(x) %*% (y * 2)\nprint(toString(R))", cell("t(x) %*% (y * 2)", "y"));
    assert.match(source(run), /acc\[0\] \+= t/);
    assertGenerated("R = t(x) %*% (y * 2)\nprint(toString(R))", cell("t(x) %*% (y * 2)", "x", true));
  });
  it("infinite sums fall back to the plain sum as the runtime's (a compensated sum would give NaN)", () => {
    const run = assertGenerated("R = rowSums(I * 2)\nprint(toString(R))", cell("rowSums(I * 2)", "I"));
    assert.equal(run.generated.programs.length, 2, "the compensated and the plain kernel ran");
    const full = assertGenerated("s = sum(I + 1)\nprint(s)", cell("sum(I + 1)", "I"));
    assert.equal(full.generated.programs.length, 2);
    assert.equal(assertGenerated("s = sum(D + 1)\nprint(s)", cell("sum(D + 1)", "D")).generated.programs.length, 1, "a finite sum runs one kernel");
  });
  it("sums are compensated: small cells between large cancelling ones are not lost (a plain sum gives 0)", () => {
    const data = "K = cbind(matrix(1e16, rows=40, cols=1), matrix(1, rows=40, cols=30), matrix(-1e16, rows=40, cols=1))\nL = t(K)";
    for (const [root, expected] of [["sum(K * 1)", 1200], ["rowSums(K * 1)", 30], ["colSums(L * 1)", 30], ["mean(K * 1)", 1200 / (40 * 32)]] as const) {
      const checked = prepareBlock(data, root.startsWith("sum") || root.startsWith("mean") ? `s = ${root}\nprint(s)` : `R = ${root}\nprint(toString(R))`);
      const run = runGenerated(checked, handOperator(checked.block, cell(root, root.includes("L") ? "L" : "K")));
      assert.equal(run.difference, undefined, root);
      const value = run.generated.run((n) => checked.unfused.value(n)).values().next().value!;
      const first = value.kind === "scalar" ? Number(value.value) : value.kind === "matrix" ? value.matrix.get(0, 0) : NaN;
      // the runtime's two interleaved compensated sums keep most of it (within a few ulps of the large cells); a plain sum keeps none
      assert.ok(Math.abs(first - expected) < 0.1 * expected, `${root}: ${first}, expected about ${expected}`);
    }
  });
  it("sums the same cells in the same order bit for bit as the runtime (one range: full, row and column sums, dense and walked CSR)", () => {
    const exact = { relative: 0, absolute: 0 };
    for (const [computation, root, main, sparseSafe] of [
      ["s = sum(D * Y + 1)\nprint(s)", "sum(D * Y + 1)", "D", false],
      ["s = mean(D * Y)\nprint(s)", "mean(D * Y)", "D", false],
      ["R = rowSums(D * Y - r)\nprint(toString(R))", "rowSums(D * Y - r)", "D", false],
      ["R = colSums(D * Y - c)\nprint(toString(R))", "colSums(D * Y - c)", "D", false],
      ["R = rowSums(X * Y)\nprint(toString(R))", "rowSums(X * Y)", "X", true],
      ["s = sum(X * Y)\nprint(s)", "sum(X * Y)", "X", true],
    ] as const) {
      const checked = prepareBlock(DATA, computation);
      const run = runGenerated(checked, handOperator(checked.block, cell(root, main, sparseSafe)), exact);
      assert.equal(run.difference, undefined, root);
    }
  });
  it("one-column loops take two rows per turn and still sum bit for bit as the runtime, for odd and even counts", () => {
    const exact = { relative: 0, absolute: 0 };
    const data = "a = rand(rows=61, cols=1, min=-1, max=1, seed=31)\nb = rand(rows=61, cols=1, min=1e6, max=2e6, seed=32)\nM = rand(rows=7, cols=3, min=-1, max=1, seed=33)\nK = rand(rows=8, cols=3, min=-1, max=1, seed=34)\ne = rand(rows=60, cols=1, min=-1, max=1, seed=37)";
    for (const [root, main] of [["sum(a * b + 0.1)", "a"], ["sum(e * e - 0.5)", "e"], ["mean(M * 3 - 1)", "M"], ["sum(K * K + 1)", "K"]] as const) {
      const checked = prepareBlock(data, `s = ${root}\nprint(s)`);
      const run = runGenerated(checked, handOperator(checked.block, cell(root, main)), exact);
      assert.equal(run.difference, undefined, root);
      assert.match(source(run), /for \(let pair = r0; pair < r1; pair \+= 2\)/, root);
    }
    // a domain of several columns, not flattened (a row vector broadcast): one row per turn
    const checked = prepareBlock(DATA, "s = sum(D - r)\nprint(s)");
    assert.match(source(runGenerated(checked, handOperator(checked.block, cell("sum(D - r)", "D")), exact)), /for \(let i = r0; i < r1; i\+\+\)/);
  });
  it("a one-column loop that skips a sparse-safe main input's zeros agrees with the runtime to 1e-12", () => {
    const data = "z = rand(rows=101, cols=1, min=-1, max=1, sparsity=0.4, seed=35)\nw = rand(rows=101, cols=1, min=1e3, max=2e3, seed=36)";
    const checked = prepareBlock(data, "s = sum(z * w)\nprint(s)");
    const run = runGenerated(checked, handOperator(checked.block, cell("sum(z * w)", "z", true)));
    assert.equal(run.difference, undefined);
    assert.match(source(run), /pair \+= 2[\s\S]*!== 0/);
  });
  it("full sums of many cells agree with the runtime's compensated sums to 1e-12", () => {
    const data = "B = rand(rows=3000, cols=300, min=-1, max=1, seed=5)\nC = rand(rows=3000, cols=300, min=1e6, max=2e6, seed=6)";
    const checked = prepareBlock(data, "s = sum(B * C + 0.1)\nprint(s)");
    const run = runGenerated(checked, handOperator(checked.block, cell("sum(B * C + 0.1)", "B")));
    assert.equal(run.difference, undefined);
  });
});

describe("generated Cell operators: what they must not do", () => {
  it("a wrong sparse-safety claim gives a different result (the comparison can fail)", () => {
    const checked = prepareBlock(DATA, "R = X + 1\nprint(toString(R))");
    const run = runGenerated(checked, handOperator(checked.block, cell("X + 1", "X", true)));
    assert.match(run.difference ?? "", /differ|vs|cell/);
  });
  it("aggregates without a one-pass kernel and matrix products inside the cells are unsupported, naming what", () => {
    const checked = prepareBlock(DATA, "s = var(D * 2)\nprint(s)");
    assert.throws(() => runGenerated(checked, handOperator(checked.block, cell("var(D * 2)", "D"))), (e: unknown) => e instanceof UnsupportedOperator && /var/.test(e.message));
    const product = prepareBlock(DATA, "R = (D %*% Q) * 2\nprint(toString(R))");
    assert.throws(() => runGenerated(product, handOperator(product.block, cell("(D %*% Q) * 2", "D"))), (e: unknown) => e instanceof UnsupportedOperator && /matmul|%\*%|cannot be computed/.test(e.message));
  });
  it("a main input of another shape than the cells is unsupported at run time", () => {
    const checked = prepareBlock(DATA, "R = c + r\nprint(toString(R))");
    assert.throws(() => runGenerated(checked, handOperator(checked.block, cell("c + r", "c"))), (e: unknown) => e instanceof UnsupportedOperator && /main input is 60 x 1/.test(e.message));
  });
});

describe("generated Cell operators of planned blocks", () => {
  const BLOCKS = [
    "s = sum(D * Y * S)\nprint(s)",
    "R = rowSums((X - Y * r)^2)\nprint(toString(R))",
    "R = colMeans(abs(D) * c + lambda)\nprint(toString(R))",
    "R = exp(D * 2) / (1 + exp(D * 2)) - Y\nprint(toString(R))",
    "s = max(abs(N - 1))\nprint(s)",
    "R = X * log(Y + 1)\nprint(toString(R))",
  ];
  it("every Cell operator the planner chooses for these blocks agrees with the unfused values", () => {
    let generated = 0;
    for (const computation of BLOCKS) {
      const checked = prepareBlock(DATA, computation);
      for (const op of checked.block.plan.operators.filter((o) => o.template === "cell")) {
        const run = runGenerated(checked, op);
        assert.equal(run.difference, undefined, `${computation}: operator ${op.id}`);
        generated++;
      }
    }
    assert.ok(generated >= 5, `only ${generated} Cell operators planned`);
  });
});

describe("generated Cell operators across runs", () => {
  it("reuse their kernel for inputs of the same formats (other sizes and values) and build one per new format", () => {
    const computation = "R = rowSums(X * D + X * r) + c\nprint(toString(R))";
    const data = (rows: number, cols: number, sparsity: number, seed: number) =>
      `X = rand(rows=${rows}, cols=${cols}, min=-1, max=1, sparsity=${sparsity}, seed=${seed})\nD = rand(rows=${rows}, cols=${cols}, seed=${seed + 1})\nr = rand(rows=1, cols=${cols}, seed=${seed + 2})\nc = rand(rows=${rows}, cols=1, seed=${seed + 3})`;
    const first = prepareBlock(data(60, 40, 0.05, 1), computation);
    const op = handOperator(first.block, cell("rowSums(X * D + X * r)", "X", true));
    const generated = generateOperator(first.block.dag, op);
    const check = (checked: CheckedBlock, kernels: number) => {
      const root = op.roots[0]!;
      const value = generated.run((node) => checked.unfused.value(node)).get(root)!;
      assert.equal(valueDifference(value, checked.unfused.value(root), GENERATED_TOLERANCE), undefined);
      assert.equal(generated.programs.length, kernels);
    };
    check(first, 1);
    check(prepareBlock(data(90, 70, 0.03, 7), computation), 1);
    check(prepareBlock(data(50, 30, 1, 9), computation), 2);
    check(prepareBlock(data(80, 20, 0.04, 3), computation), 2);
  });
});
