// Generated Outer operators (engine/runtime/codegen/outer-*.ts) equal the
// unfused runtime: each variant planned by the fusion planner from a small
// DML block, generated, run through runKernel and compared with the
// unfused values of its roots to 1e-12 relative; CSR and dense drivers,
// empty rows, NaN in the factors, rank 1; and the four Outer operators of
// examples/als_cg.dml.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { FusedOperator } from "../../engine/fusion";
import { generateOperator, UnsupportedOperator } from "../../engine/runtime/codegen";
import { canonicalKernelSource } from "../../engine/runtime/codegen/kernel-canonical";
import { UNROLLED_RANK } from "../../engine/runtime/codegen/outer-kernel-inputs";
import { evaluateFusedOperator, UnfusedEvaluator, valueDifference } from "../../engine/runtime/fused";
import { createSession, type Value } from "../../engine/runtime/interpreter";
import { handOperator, prepareBlock, type CheckedBlock } from "../fusion/fused-check";
import { planText, type PlannedBlock } from "../fusion/plan-text";
import { repoRoot } from "../repo-root";

const TOLERANCE = { relative: 1e-12, absolute: 1e-12 };

/** Factors and drivers of a 300 x 270 low-rank problem (the Outer template needs both dimensions above 256). */
function data(options: { sparsity?: number; rank?: number; extra?: string } = {}): string {
  const rank = options.rank ?? 4;
  return [
    `X = rand(rows=300, cols=270, min=1, max=5, sparsity=${options.sparsity ?? 0.03}, seed=7)`,
    "W = (X != 0)",
    `U = rand(rows=300, cols=${rank}, min=0.1, max=1, seed=8)`,
    `V = rand(rows=270, cols=${rank}, min=0.1, max=1, seed=9)`,
    "D = rand(rows=300, cols=270, min=-1, max=1, seed=10)",
    options.extra ?? "",
  ].join("\n");
}

interface Checked {
  checked: CheckedBlock;
  outer: FusedOperator[];
}

function outerOperators(dataText: string, computation: string): Checked {
  const checked = prepareBlock(dataText, computation);
  return { checked, outer: checked.block.plan.operators.filter((op) => op.template === "outer") };
}

/** Generates and runs the operator; undefined when every root equals its unfused value, else the first difference. */
function generatedDifference(checked: { block: PlannedBlock; unfused: UnfusedEvaluator }, op: FusedOperator, sources?: string[]): string | undefined {
  const generated = generateOperator(checked.block.dag, op);
  const values = generated.run((node) => checked.unfused.value(node));
  assert.ok(generated.programs.length > 0, "the operator ran a generated kernel");
  sources?.push(...generated.programs.map((p) => p.source));
  for (const root of op.roots) {
    const value = values.get(root);
    if (value === undefined) return `root ${root} has no value`;
    const diff = valueDifference(value, checked.unfused.value(root), TOLERANCE);
    if (diff !== undefined) return `root ${root} '${checked.block.text(root)}': ${diff}`;
  }
  return undefined;
}

function assertGeneratedEqual(dataText: string, computation: string, variant: string): FusedOperator {
  const { checked, outer } = outerOperators(dataText, computation);
  const ops = outer.filter((op) => op.binding.variant === variant);
  assert.equal(ops.length, 1, `one Outer ${variant} operator planned for ${computation}; got ${outer.map((o) => o.binding.variant).join(", ") || "none"}`);
  assert.equal(generatedDifference(checked, ops[0]!), undefined, computation);
  return ops[0]!;
}

describe("generated Outer operators equal the unfused runtime", () => {
  it("agg: sum(X * log(U %*% t(V) + 1e-15)) over a CSR driver", () => {
    assertGeneratedEqual(data(), "s = sum(X * log(U %*% t(V) + 1e-15))\nprint(s)", "agg");
  });
  it("agg: sum(W * (D - U %*% t(V))^2)", () => {
    assertGeneratedEqual(data(), "s = sum(W * (D - U %*% t(V))^2)\nprint(s)", "agg");
  });
  it("cellwise: W * (U %*% t(V) - D), bit for bit the reference skeleton's cells (dot products summed in the same order)", () => {
    const op = assertGeneratedEqual(data(), "R = W * (U %*% t(V) - D)\nprint(toString(R[1:3,1:3]))", "cellwise");
    const checked = prepareBlock(data(), "R = W * (U %*% t(V) - D)\nprint(toString(R[1:3,1:3]))");
    const valueOf = (node: number) => checked.unfused.value(node);
    const generated = generateOperator(checked.block.dag, op).run(valueOf).get(op.roots[0]!)!;
    const reference = evaluateFusedOperator(checked.block.dag, op, valueOf).get(op.roots[0]!)!;
    assert.equal(valueDifference(generated, reference, { relative: 0, absolute: 0 }), undefined);
  });
  it("right: (W * (U %*% t(V))) %*% V", () => {
    assertGeneratedEqual(data(), "R = (W * (U %*% t(V))) %*% V\nprint(toString(R))", "right");
  });
  it("left: t(W * (U %*% t(V))) %*% U", () => {
    assertGeneratedEqual(data(), "R = t(W * (U %*% t(V))) %*% U\nprint(toString(R))", "left");
  });
});

/** An Outer operator built by hand over the whole computation (root down to the variables), driven by `main`. */
function assertHandBuiltEqual(dataText: string, computation: string, root: string, main: string, format: "dense" | "sparse"): void {
  const checked = prepareBlock(dataText, computation);
  const op = handOperator(checked.block, { template: "outer", roots: [root], main, sparseSafe: true });
  const driver = checked.unfused.value(op.binding.mainInput!);
  assert.ok(driver.kind === "matrix" && driver.matrix.format === format, `the driver ${main} is ${format}`);
  assert.equal(generatedDifference(checked, op), undefined, `${computation} (driver ${main})`);
}

describe("generated Outer operators over special drivers and factors (operators built by hand)", () => {
  const computations: [string, string, string][] = [
    ["s = sum(X * log(U %*% t(V) + 1e-15))\nprint(s)", "sum(X * log(U %*% t(V) + 1e-15))", "X"],
    ["R = W * (U %*% t(V) - D)\nprint(toString(R[1:3,1:3]))", "W * (U %*% t(V) - D)", "W"],
    ["R = (W * (U %*% t(V))) %*% V\nprint(toString(R))", "(W * (U %*% t(V))) %*% V", "W"],
    ["R = t(W * (U %*% t(V))) %*% U\nprint(toString(R))", "t(W * (U %*% t(V))) %*% U", "W"],
    ["R = t(U) %*% (W * (U %*% t(V)))\nprint(toString(R))", "t(U) %*% (W * (U %*% t(V)))", "W"],
    ["R = t(t(U) %*% (W * (U %*% t(V))))\nprint(toString(R))", "t(t(U) %*% (W * (U %*% t(V))))", "W"],
    ["R = t(V) %*% t(W * (U %*% t(V)))\nprint(toString(R))", "t(V) %*% t(W * (U %*% t(V)))", "W"],
  ];
  const cases: [string, string, "dense" | "sparse"][] = [
    ["a CSR driver", data(), "sparse"],
    ["a dense driver (sparsity 0.5: X and W are dense)", data({ sparsity: 0.5 }), "dense"],
    ["empty rows and columns of the driver", data({ extra: "X = X * (rand(rows=300, cols=1, seed=11) > 0.5) * (rand(rows=1, cols=270, seed=12) > 0.3)\nW = (X != 0)" }), "sparse"],
    ["NaN in the factors (a row of U read by the driver, a row of V)", data({ extra: "U[5,1] = 0/0\nV[7,2] = 0/0" }), "sparse"],
    ["NaN in a row of U whose driver row is empty", data({ extra: "X[1,] = matrix(0, rows=1, cols=270)\nW = (X != 0)\nU[1,2] = 0/0" }), "sparse"],
    ["rank 1", data({ rank: 1 }), "sparse"],
    ["rank 7 (not a multiple of the four accumulators)", data({ rank: 7 }), "sparse"],
    ["rank 16 (the largest unrolled rank)", data({ rank: UNROLLED_RANK }), "sparse"],
    ["rank 20 (above the unrolled ranks: each row's dot products in a scratch array)", data({ rank: UNROLLED_RANK + 4 }), "sparse"],
    ["rank 20 over a dense driver", data({ rank: UNROLLED_RANK + 4, sparsity: 0.5 }), "dense"],
  ];
  it("a product read through a transpose over a square driver (one dot product per cell)", () => {
    const square = `${data()}\nQ = rand(rows=300, cols=300, min=-1, max=1, sparsity=0.05, seed=13)\nP = rand(rows=300, cols=5, seed=14)\nT = rand(rows=300, cols=5, seed=15)`;
    assertHandBuiltEqual(square, "R = Q * t(P %*% t(T))\nprint(toString(R[1:3,1:3]))", "Q * t(P %*% t(T))", "Q", "sparse");
    assertHandBuiltEqual(square, "s = sum(Q * (P %*% t(T)) * t(P %*% t(T)))\nprint(s)", "sum(Q * (P %*% t(T)) * t(P %*% t(T)))", "Q", "sparse");
  });
  for (const [what, dataText, format] of cases) {
    it(what, () => {
      for (const [computation, root, main] of computations) assertHandBuiltEqual(dataText, computation, root, main, format);
    });
  }
});

describe("the Outer operators of examples/als_cg.dml", () => {
  it("are all generated and equal the unfused runtime (X 300 x 270 at 5 %, rank 10)", () => {
    const x = "X = rand(rows=300, cols=270, min=1, max=5, sparsity=0.05, seed=3)";
    const source = readFileSync(path.join(repoRoot, "examples", "als_cg.dml"), "utf8").replace("X = read($X)", x);
    const load = source.slice(0, source.indexOf("# %% initial loss"));
    const session = createSession({ print: () => {} });
    assert.ok(session.runCell(load).ok, "the load cell runs");
    const roots = new Set<string>();
    const kernels = new Map<string, string[]>();
    for (const block of planText(source)) {
      for (const op of block.plan.operators.filter((o) => o.template === "outer")) {
        // The CG direction S has U's shape in the U update and V's in the V update: from the planned sizes.
        const variables = new Map<string, Value>(session.env);
        for (const node of block.dag.nodes) {
          if (node.op.kind !== "input" || node.op.name !== "S") continue;
          const stats = block.dag.stats[node.id]!;
          const made = createSession({ print: () => {} });
          assert.ok(made.runCell(`S = rand(rows=${stats.rows}, cols=${stats.cols}, min=-1, max=1, seed=${stats.rows})`).ok);
          variables.set("S", made.env.get("S")!);
        }
        const unfused = new UnfusedEvaluator(block.dag, { variables, sourceText: source });
        const sources: string[] = [];
        assert.equal(generatedDifference({ block, unfused }, op, sources), undefined, op.roots.map((r) => block.text(r)).join("; "));
        for (const root of op.roots) roots.add(block.text(root).trim());
        for (const root of op.roots) kernels.set(block.text(root).trim(), sources.map(canonicalKernelSource));
      }
    }
    for (const expected of ["(W * (S %*% t(V))) %*% V", "t(W * (U %*% t(S))) %*% U", "(W * (U %*% t(V) - X)) %*% V", "sum(W * (X - U %*% t(V))^2)"]) {
      assert.ok(roots.has(expected), `an Outer operator computes ${expected}; generated: ${[...roots].join(" | ")}`);
    }
    // The U and V updates' products (the second read through the walked transpose of W) are one kernel, compiled and warmed once.
    for (const [left, right] of [
      ["t(W * (U %*% t(S))) %*% U", "(W * (S %*% t(V))) %*% V"],
      ["t(W * (U %*% t(V) - X)) %*% U", "(W * (U %*% t(V) - X)) %*% V"],
    ] as const) {
      const [a, b] = [kernels.get(left), kernels.get(right)];
      assert.ok(a !== undefined && a.length === 1 && b !== undefined, `kernels of ${left} and ${right}`);
      assert.deepEqual(a, b, `${left} and ${right} run one kernel`);
    }
  });
});

describe("what the Outer generator has no kernel for is an UnsupportedOperator, never a wrong answer", () => {
  const cases: [string, string, RegExp][] = [
    ["R = rowSums(X * (U %*% t(V)))\nprint(toString(R))", "rowSums(X * (U %*% t(V)))", /no kernel for the aggregate sum \(row\)/],
    ["s = max(X * (U %*% t(V)))\nprint(s)", "max(X * (U %*% t(V)))", /no kernel for the aggregate max \(full\)/],
    ["R = t(X * (U %*% t(V)))\nprint(toString(R))", "t(X * (U %*% t(V)))", /is neither its cell expression over the driver \(300 x 270\)/],
    ["R = X * (U %*% t(V)) + sum(U)\nprint(toString(R))", "X * (U %*% t(V)) + sum(U)", /no per-cell code for node \d+: a sum:full node cannot be computed per cell/],
  ];
  for (const [computation, root, message] of cases) {
    it(root, () => {
      const checked = prepareBlock(data(), computation);
      const op = handOperator(checked.block, { template: "outer", roots: [root], main: "X", sparseSafe: true });
      assert.throws(() => generateOperator(checked.block.dag, op), (e: unknown) => e instanceof UnsupportedOperator && message.test(e.message));
    });
  }
});
