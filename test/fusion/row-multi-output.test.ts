// Multi-output Row operators (engine/fusion/templates/row-multi-output.ts):
// kmeans' loop body becomes one Row operator over X with the roots
// rowMins(D), t(P) %*% X and colSums(P) (D and P, which nothing after it
// reads, are computed in the row and not written), which runs as one generated
// kernel and gives the values of the as-written plan; an MMChain consumer
// and a consumer of a column aggregation stay apart.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { executionSession, type PlanMode } from "../../engine/execution";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import type { Value } from "../../engine/runtime/interpreter";
import { lastPlan, planText } from "./plan-text";

const KMEANS_BODY = `
  D = -2 * (X %*% t(C)) + t(rowSums(C^2))
  minD = rowMins(D)
  P = (D <= minD)
  P = P / rowSums(P)
  obj = sum(minD)
  C = (t(P) %*% X) / t(colSums(P) + 1e-15)
`;

function kmeansScript(rows: number): string {
  return `X = rand(rows=${rows}, cols=10, min=-1, max=1, seed=7)\nC = X[1:5, ]\nfor (it in 1:3) {${KMEANS_BODY}}\nprint(obj)`;
}

function run(mode: PlanMode, text: string): { printed: string[]; env: Map<string, Value> } {
  const printed: string[] = [];
  const { session } = executionSession({ plan: mode, scriptPath: "/tmp/kmeans-body.dml", params: {}, print: (line) => printed.push(line) });
  const result = session.runScript(text);
  assert.deepEqual(result.errors, []);
  return { printed, env: session.env };
}

function matrixData(v: Value | undefined): number[] {
  assert.ok(v?.kind === "matrix", "a matrix");
  const m = v.matrix;
  const out: number[] = [];
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) out.push(m.get(i, j));
  return out;
}

describe("multi-output Row operators", () => {
  it("plan kmeans' loop body as one Row operator over X with three roots (D and P, which nothing after it reads, are computed in the row, not written)", () => {
    const body = planText(kmeansScript(100_000)).find((b) => b.plan.operators.some((op) => op.template === "row"));
    assert.ok(body, "a block with a Row operator");
    const rowOps = body.plan.operators.filter((op) => op.template === "row");
    assert.equal(rowOps.length, 1, `row operators: ${rowOps.map((op) => op.roots.map((r) => body.text(r)).join(" | ")).join(" ; ")}`);
    const op = rowOps[0]!;
    const roots = op.roots.map((r) => body.text(r).trim());
    for (const expected of ["rowMins(D)", "t(P) %*% X", "colSums(P)"]) {
      assert.ok(roots.some((r) => r.includes(expected)), `root ${expected} in ${roots.join(" | ")}`);
    }
    assert.equal(roots.length, 3, `roots ${roots.join(" | ")}`);
    for (const inner of ["-2 * (X %*% t(C)) + t(rowSums(C^2))", "P / rowSums(P)"]) assert.ok(op.covered.some((n) => body.text(n).trim() === inner), `${inner} is covered`);
    assert.equal(op.binding.variant, "multi-output");
    assert.equal(body.text(op.binding.mainInput!), "X");
  });

  it("runs fused as one kernel per iteration with the as-written values", () => {
    const text = kmeansScript(20_000);
    const before = rowOperatorRuns();
    const fused = run("fused", text);
    const after = rowOperatorRuns();
    assert.equal(after.unsupported - before.unsupported, 0, "no Row operator refused at run time");
    assert.equal(after.kernels - before.kernels, 3, "one Row kernel per iteration");
    const written = run("as-written", text);
    assert.deepEqual(fused.printed.map(Number).map((x) => x.toPrecision(12)), written.printed.map(Number).map((x) => x.toPrecision(12)));
    for (const name of ["D", "minD", "P", "C"]) {
      const a = matrixData(fused.env.get(name));
      const b = matrixData(written.env.get(name));
      assert.equal(a.length, b.length, name);
      const worst = a.reduce((w, x, k) => Math.max(w, Math.abs(x - b[k]!) / Math.max(1, Math.abs(b[k]!))), 0);
      assert.ok(worst <= 1e-9, `${name}: largest relative difference ${worst}`);
    }
  });

  it("leaves an MMChain consumer t(X) %*% (w * (X %*% v)) alone", () => {
    // E's operator (a producer over X) would absorb the product, which reads its row-wise root only through w.
    const block = lastPlan(`X = rand(rows=100000, cols=10, seed=1)\nB = rand(rows=10, cols=4, seed=2)\nv = rand(rows=10, cols=1, seed=2)\nE = exp(X %*% B)\nw = rowSums(E)\ng = t(X) %*% (w * (X %*% v))\nprint(sum(g) + sum(E))`);
    const texts = block.plan.operators.map((op) => op.roots.map((r) => block.text(r)));
    assert.ok(texts.some((roots) => roots.length === 1 && roots[0] === "t(X) %*% (w * (X %*% v))"), `operators: ${texts.map((r) => r.join(" | ")).join(" ; ")}`);
    assert.ok(texts.some((roots) => roots.length > 1 && roots.includes("exp(X %*% B)")), "E's operator still absorbs sum(E)");
  });

  it("does not absorb a consumer of a column aggregation", () => {
    const block = lastPlan(`X = rand(rows=100000, cols=10, seed=1)\nB = rand(rows=10, cols=4, seed=2)\nE = exp(X %*% B)\nS = colSums(E)\nZ = E / S\nprint(sum(Z))`);
    for (const op of block.plan.operators) {
      const texts = op.roots.map((r) => block.text(r));
      assert.ok(!(texts.includes("colSums(E)") && texts.some((t) => t.includes("E / S"))), `one operator computes S and reads it: ${texts.join(" | ")}`);
    }
  });
});
