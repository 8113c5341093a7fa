// Generated Outer operators (engine/runtime/codegen/outer-*.ts) equal the
// unfused runtime: each variant planned by the fusion planner from a small
// DML block, generated, run through runKernel and compared with the
// unfused values of its roots to 1e-12 relative; CSR and dense drivers,
// empty rows, NaN in the factors, rank 1; and the four Outer operators of
// examples/als_cg.dml.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FusedOperator } from "../../engine/fusion";
import { generateOperator, UnsupportedOperator } from "../../engine/runtime/codegen";
import { valueDifference } from "../../engine/runtime/fused";
import { prepareBlock, type CheckedBlock } from "../fusion/fused-check";

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
function generatedDifference(checked: CheckedBlock, op: FusedOperator): string | undefined {
  const generated = generateOperator(checked.block.dag, op);
  const values = generated.run((node) => checked.unfused.value(node));
  assert.ok(generated.programs.length > 0, "the operator ran a generated kernel");
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
  it("cellwise: W * (U %*% t(V) - D)", () => {
    assertGeneratedEqual(data(), "R = W * (U %*% t(V) - D)\nprint(toString(R[1:3,1:3]))", "cellwise");
  });
  it("right: (W * (U %*% t(V))) %*% V", () => {
    assertGeneratedEqual(data(), "R = (W * (U %*% t(V))) %*% V\nprint(toString(R))", "right");
  });
  it("left: t(W * (U %*% t(V))) %*% U", () => {
    assertGeneratedEqual(data(), "R = t(W * (U %*% t(V))) %*% U\nprint(toString(R))", "left");
  });
});
