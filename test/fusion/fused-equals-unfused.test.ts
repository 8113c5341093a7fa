// Fused results equal unfused results: random DML programs (random.dags.ts:
// dense, sparse, empty-row, empty-column and table-built inputs, vectors,
// 1 x 1, scalars) are planned by the fusion planner, and every fused
// operator of the plan is evaluated by its reference evaluation (its
// template's skeleton over the runtime's kernels, from its materialized
// inputs only) and compared with the unfused values of its roots. An
// operator the reference evaluation cannot interpret fails the property
// too. The counts of operators checked per template are printed and must
// reach a floor, so the property cannot pass on plans without operators.
// Every operator is also run through its generated code (generateOperator):
// a generated result that differs from the unfused one (beyond 1e-12
// relative) fails the property;
// an operator the generator has no kernel for (UnsupportedOperator) is
// counted per template and printed, and the generated Cell and MAgg
// operators must reach a floor too.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { FusedOperator, TemplateType } from "../../engine/fusion";
import { UnsupportedOperator } from "../../engine/runtime/codegen";
import { runGenerated } from "../codegen/generated-check";
import { operatorDifference, prepareBlock, type CheckedBlock } from "./fused-check";
import { computationBlock, dataBlock, randomProgram, type RandomProgram } from "./random-dags";

const RUNS = 300;
/** Operators each template must have had checked over the runs. */
const FLOOR: Record<TemplateType, number> = { cell: 100, row: 40, magg: 15, outer: 20 };
/** Operators each template must have had run through generated code (the templates whose generators exist). */
const GENERATED_FLOOR: Partial<Record<TemplateType, number>> = { cell: 80, magg: 12, row: 70 };
GENERATED_FLOOR.outer = 30; // generated Outer operators (39 over these runs, every variant)

function describeOperator(checked: CheckedBlock, op: FusedOperator): string {
  const text = (n: number) => `${n} '${checked.block.text(n)}'`;
  const b = op.binding;
  return [
    `operator #${op.id} ${op.template} (${b.variant}${b.sparseSafe ? ", sparse-safe" : ""})`,
    `  roots: ${op.roots.map(text).join("; ")}`,
    `  covered: ${op.covered.map(text).join("; ")}`,
    `  main: ${b.mainInput === null ? "none" : text(b.mainInput)}; side: ${b.sideInputs.map(text).join("; ")}; scalars: ${b.scalarInputs.map(text).join("; ")}`,
  ].join("\n");
}

describe("fused operators equal the unfused DAG", () => {
  it(`every operator of the plans of ${RUNS} random programs`, () => {
    const counts: Record<TemplateType, number> = { cell: 0, row: 0, magg: 0, outer: 0 };
    const generated: Record<TemplateType, number> = { cell: 0, row: 0, magg: 0, outer: 0 };
    const unsupported: Record<TemplateType, number> = { cell: 0, row: 0, magg: 0, outer: 0 };
    const reasons = new Map<string, number>();
    /** Generated kernels by how they read: walking a CSR main input's non-zeros, CSR rows through a buffer, dense only. */
    const kernelForms = { "csr-walk": 0, "csr-row-buffer": 0, dense: 0 };
    const variants = new Map<string, number>();
    let programs = 0;
    const checkProgram = (program: RandomProgram) => {
      const data = dataBlock(program);
      const computation = computationBlock(program);
      const checked = prepareBlock(data, computation);
      for (const op of checked.block.plan.operators) {
        let difference: string | undefined;
        try {
          difference = operatorDifference(checked, op);
        } catch (error) {
          difference = error instanceof Error ? error.message : String(error);
        }
        if (difference !== undefined) {
          throw new Error(`${describeOperator(checked, op)}\n  ${difference}\n--- DML ---\n${data}\nwhile (FALSE) {}\n${computation}`);
        }
        counts[op.template]++;
        let generatedDifference: string | undefined;
        try {
          const run = runGenerated(checked, op);
          generatedDifference = run.difference;
          generated[op.template]++;
          for (const program of run.generated.programs) {
            kernelForms[program.source.includes("mrp[i]") ? "csr-walk" : program.source.includes("rb") ? "csr-row-buffer" : "dense"]++;
          }
        } catch (error) {
          if (!(error instanceof UnsupportedOperator)) throw error;
          unsupported[op.template]++;
          const reason = `${op.template}: ${error.message.replace(/\d+/g, "#")}`;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
        if (generatedDifference !== undefined) {
          throw new Error(`generated code of ${describeOperator(checked, op)}\n  ${generatedDifference}\n--- DML ---\n${data}\nwhile (FALSE) {}\n${computation}`);
        }
        const variant = `${op.template} ${op.binding.variant}${op.binding.sparseSafe ? " sparse-safe" : ""}`;
        variants.set(variant, (variants.get(variant) ?? 0) + 1);
      }
      programs++;
    };
    try {
      fc.assert(fc.property(randomProgram(), checkProgram), { seed: 15, numRuns: RUNS });
    } finally {
      // Printed also when the property fails (the counts then include the shrinking runs).
      console.log(`fused operators checked over ${programs} programs: cell ${counts.cell}, row ${counts.row}, magg ${counts.magg}, outer ${counts.outer}`);
      console.log(`by variant: ${[...variants].sort().map(([v, k]) => `${v}: ${k}`).join(", ")}`);
      const per = (c: Record<TemplateType, number>) => `cell ${c.cell}, row ${c.row}, magg ${c.magg}, outer ${c.outer}`;
      console.log(`generated code run: ${per(generated)}; unsupported: ${per(unsupported)}`);
      console.log(`generated kernels: ${Object.entries(kernelForms).map(([form, k]) => `${form} ${k}`).join(", ")}`);
      for (const [reason, k] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  unsupported ${k}x ${reason}`);
    }
    for (const [template, floor] of Object.entries(GENERATED_FLOOR) as [TemplateType, number][]) {
      assert.ok(generated[template] >= floor, `only ${generated[template]} ${template} operators run through generated code (at least ${floor} expected)`);
    }
    assert.ok(kernelForms["csr-walk"] >= 10, `only ${kernelForms["csr-walk"]} generated kernels walked a CSR main input`);
    for (const template of Object.keys(FLOOR) as TemplateType[]) {
      assert.ok(counts[template] >= FLOOR[template], `only ${counts[template]} ${template} operators checked (at least ${FLOOR[template]} expected)`);
    }
  });
});

describe("the comparison catches a wrong sparse-safety claim", () => {
  it("Cell operators of random plans that read zeros of their main input, claimed sparse-safe, differ from the unfused values", () => {
    let claimed = 0;
    let caught = 0;
    fc.assert(
      fc.property(randomProgram(), (program) => {
        const checked = prepareBlock(dataBlock(program), computationBlock(program));
        for (const op of checked.block.plan.operators) {
          if (op.template !== "cell" || op.binding.sparseSafe || op.binding.mainInput === null) continue;
          const main = checked.unfused.value(op.binding.mainInput);
          if (main.kind !== "matrix" || main.matrix.nnz() === main.matrix.rows * main.matrix.cols) continue;
          claimed++;
          if (operatorDifference(checked, { ...op, binding: { ...op.binding, sparseSafe: true } }) !== undefined) caught++;
        }
      }),
      { seed: 16, numRuns: 100 },
    );
    console.log(`wrong sparse-safety claims: ${caught} of ${claimed} caught`);
    assert.ok(claimed >= 20, `only ${claimed} operators to claim sparse-safe`);
    assert.ok(caught >= claimed / 2, `only ${caught} of ${claimed} wrong claims caught`);
  });
});

/** Shrunk programs on which the property found planner bugs, checked on every run. */
const FOUND: { bug: string; data: string; computation: string }[] = [
  {
    bug: "Row sparse safety stopped following a row at a matrix product: abs(W %*% v) + s was claimed sparse-safe in W",
    data: "W = rand(rows=2, cols=2, min=0, max=1, sparsity=0.01, seed=31)\nv = rand(rows=2, cols=1, min=-1, max=1, seed=44)\nlambda = 0.25",
    computation: "R1 = (abs((W %*% v)) + lambda)\nprint(toString(R1))",
  },
  {
    bug: "Row sparse safety ignored another row-aligned input: t(X) %*% (X %*% v - Z %*% w) was claimed sparse-safe in Z",
    data: "X = rand(rows=20, cols=6, min=-1, max=1, seed=3)\nZ = matrix(0, rows=20, cols=6)\nv = rand(rows=6, cols=1, min=-1, max=1, seed=4)\nlambda = 0.25",
    computation: "R1 = t(X) %*% (X %*% v - (Z %*% (lambda * v)))\nprint(toString(R1))",
  },
  {
    bug: "Row sparse safety took an input whose estimated non-zeros round to 0 (rand with sparsity 0.01 on 16 cells) as all zeros",
    data: "Y0 = matrix(0, rows=4, cols=4)\nY = Y0[1:4, 1:4]\nW = rand(rows=4, cols=4, min=0, max=1, sparsity=0.01, seed=9351)",
    computation: "R1 = rowSums(cbind((-Y), rowMaxs(W)) * 2)\nprint(toString(R1))",
  },
];

describe("programs on which the property found planner bugs", () => {
  for (const found of FOUND) {
    it(found.bug, () => {
      const checked = prepareBlock(found.data, found.computation);
      assert.ok(checked.block.plan.operators.length > 0, "the program is planned with fused operators");
      for (const op of checked.block.plan.operators) assert.equal(operatorDifference(checked, op), undefined, describeOperator(checked, op));
    });
  }
});
