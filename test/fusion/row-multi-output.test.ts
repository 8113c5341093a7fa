// Multi-output Row operators (engine/fusion/templates/row-multi-output.ts):
// kmeans' loop body becomes one Row operator over X with the roots
// rowMins(D), t(P) %*% X and colSums(P) (D and P, which nothing after it
// reads, are computed in the row and not written), which runs as one generated
// kernel and gives the values of the as-written plan; an MMChain consumer
// and a consumer of a column aggregation stay apart. l2svm's outer step
// becomes one Row operator too: the Cell operators that compute Xw and out
// (producers of what the Row operator reads) and sum(out * out) (a
// consumer) join it; a Cell operator that reads a transposed value stays
// apart.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { executionSession, type PlanMode } from "../../engine/execution";
import { rowOperatorRuns } from "../../engine/runtime/codegen/row-operator";
import type { Value } from "../../engine/runtime/interpreter";
import { fusedOperatorSeconds } from "../../engine/fusion/select";
import { groupRowOutputs } from "../../engine/fusion/templates";
import { handOperator, prepareBlock } from "./fused-check";
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

  const L2SVM_STEP = `
X = rand(rows=50000, cols=10, min=-1, max=1, seed=11)
Y = 2 * (rand(rows=50000, cols=1, seed=12) > 0.5) - 1
Xw = rand(rows=50000, cols=1, min=-1, max=1, seed=13)
Xd = rand(rows=50000, cols=1, min=-1, max=1, seed=14)
w = rand(rows=10, cols=1, seed=15)
step_sz = 0.3
lambda = 1
for (it in 1:2) {
  Xw = Xw + step_sz * Xd
  out = 1 - Y * Xw
  sv = (out > 0)
  out = sv * out
  obj = 0.5 * sum(out * out) + lambda / 2 * sum(w * w)
  g_new = t(X) %*% (out * Y) - lambda * w
  step_sz = step_sz / 2
}
print(obj)
print(sum(Xw))
print(toString(g_new))
`;

  it("takes in the Cell operators that compute what it reads and their folds: l2svm's outer step is one pass over X", () => {
    const body = planText(L2SVM_STEP).find((b) => b.plan.operators.some((op) => op.template === "row"));
    assert.ok(body, "a block with a Row operator");
    const large = body.plan.operators.filter((op) => op.template !== "magg" && op.roots.every((r) => body.text(r) !== "w * w" && !body.text(r).includes("sum(w * w)") && !body.text(r).includes("- lambda * w")));
    const rowOps = body.plan.operators.filter((op) => op.template === "row");
    assert.equal(rowOps.length, 1, `operators: ${body.plan.operators.map((op) => `${op.template}: ${op.roots.map((r) => body.text(r)).join(" | ")}`).join(" ; ")}`);
    const op = rowOps[0]!;
    const roots = op.roots.map((r) => body.text(r).trim());
    for (const expected of ["Xw + step_sz * Xd", "t(X) %*% (out * Y)", "sum(out * out)"]) assert.ok(roots.includes(expected), `root ${expected} in ${roots.join(" | ")}`);
    assert.ok(!roots.includes("sv * out"), "out, read only inside the operator, is not written");
    assert.equal(body.text(op.binding.mainInput!), "X");
    assert.equal(op.binding.variant, "multi-output");
    assert.ok(large.every((o) => o === op || o.template !== "cell" || o.roots.every((r) => !body.text(r).includes("out"))), "no Cell operator over out is left");
  });

  it("runs l2svm's outer step fused with the as-written values", () => {
    const before = rowOperatorRuns();
    const fused = run("fused", L2SVM_STEP);
    const after = rowOperatorRuns();
    assert.equal(after.unsupported - before.unsupported, 0, "no Row operator refused at run time");
    const written = run("as-written", L2SVM_STEP);
    assert.equal(fused.printed.length, written.printed.length);
    fused.printed.forEach((line, k) => {
      const a = line.split(/\s+/).filter(Boolean).map(Number);
      const b = written.printed[k]!.split(/\s+/).filter(Boolean).map(Number);
      a.forEach((x, j) => assert.ok(Math.abs(x - b[j]!) <= 1e-9 * Math.max(1, Math.abs(b[j]!)), `line ${k}: ${line} vs ${written.printed[k]}`));
    });
    for (const name of ["Xw", "g_new"]) {
      const a = matrixData(fused.env.get(name));
      const b = matrixData(written.env.get(name));
      assert.ok(a.every((x, k) => Math.abs(x - b[k]!) <= 1e-9 * Math.max(1, Math.abs(b[k]!))), name);
    }
  });

  const glmStep = (rows: number) => `
X = rand(rows=${rows}, cols=10, min=-1, max=1, seed=31)
y = rand(rows=${rows}, cols=1, seed=32) > 0.5
beta = rand(rows=10, cols=1, min=-0.1, max=0.1, seed=33)
lambda = 0.001
for (it in 1:2) {
  mu = 1 / (1 + exp(-(X %*% beta)))
  w = mu * (1 - mu)
  grad = t(X) %*% (mu - y) + lambda * beta
  r = -grad
  rr = sum(r^2)
  k = 0
  while (k < 2) {
    q = t(X) %*% (w * (X %*% r))
    r = r - 0.001 * q
    k = k + 1
  }
  beta = beta + 0.1 * r / nrow(X)
}
print(sum(w))
print(sum(mu))
print(toString(grad))
`;

  it("runs glm_logit's step (X %*% beta, mu, w, t(X) %*% (mu - y)) fused with the as-written values", () => {
    const fused = run("fused", glmStep(50_000));
    const written = run("as-written", glmStep(50_000));
    assert.equal(fused.printed.length, 3);
    fused.printed.forEach((line, k) => {
      const a = line.split(/\s+/).filter(Boolean).map(Number);
      const b = written.printed[k]!.split(/\s+/).filter(Boolean).map(Number);
      a.forEach((x, j) => assert.ok(Math.abs(x - b[j]!) <= 1e-9 * Math.max(1, Math.abs(b[j]!)), `line ${k}: ${line} vs ${written.printed[k]}`));
    });
  });

  describe("which Cell operators a Row operator takes in (hand-built operators)", () => {
    const DATA = `
X = rand(rows=200, cols=10, min=-1, max=1, seed=21)
Y = rand(rows=200, cols=1, min=-1, max=1, seed=22)
Xw = rand(rows=200, cols=1, min=-1, max=1, seed=23)
Xd = rand(rows=200, cols=1, min=-1, max=1, seed=24)
u = rand(rows=1, cols=200, min=-1, max=1, seed=25)
r = rand(rows=1, cols=10, min=-1, max=1, seed=26)
beta = rand(rows=10, cols=1, min=-1, max=1, seed=27)
a = 0.5
`;
    /** The two operators (the Row operator reads the Cell operator's roots materialized), each with its cost, after groupRowOutputs. */
    function merged(computation: string, cell: { roots: string[]; main: string }, row: { roots: string[]; main: string }) {
      const { block } = prepareBlock(DATA, computation);
      const hand = [handOperator(block, { template: "cell", ...cell }), handOperator(block, { template: "row", ...row, materialized: cell.roots })];
      const ops = hand.map((op, id) => ({ ...op, id, seconds: fusedOperatorSeconds(block.dag, op) }));
      return { block, ops: groupRowOutputs(block.dag, ops) };
    }
    it("a Cell operator over the rows' values whose root the Row operator reads", () => {
      const { block, ops } = merged("Z = Xw + a * Xd\ng = t(X) %*% (Z * Y)\nprint(toString(g))\nprint(toString(Z))", { roots: ["Xw + a * Xd"], main: "Xw" }, { roots: ["t(X) %*% (Z * Y)"], main: "X" });
      assert.equal(ops.length, 1, ops.map((op) => op.roots.map((n) => block.text(n)).join(" | ")).join(" ; "));
      assert.deepEqual(ops[0]!.roots.map((n) => block.text(n)).sort(), ["Xw + a * Xd", "t(X) %*% (Z * Y)"], "Z, printed after, is still written");
    });
    it("not one that reads a transposed value or broadcasts a row", () => {
      for (const [computation, root] of [
        ["Z = Xw + t(u)\ng = t(X) %*% (Z * Y)\nprint(toString(g))", "Xw + t(u)"],
        ["Z = X * Xw + r\ng = t(X) %*% rowSums(Z * X)\nprint(toString(g))", "X * Xw + r"],
      ] as const) {
        const main = root.startsWith("X *") ? "X" : "Xw";
        const row = root.startsWith("X *") ? "t(X) %*% rowSums(Z * X)" : "t(X) %*% (Z * Y)";
        const { ops } = merged(computation, { roots: [root], main }, { roots: [row], main: "X" });
        assert.equal(ops.length, 2, root);
      }
    });
    it("a product of its main input computed on its own, read through a Cell operator it takes in (glm_logit's X %*% beta)", () => {
      const computation = "mu = 1 / (1 + exp(-(X %*% beta)))\nw = mu * (1 - mu)\ng = t(X) %*% (mu - Y)\nprint(toString(g))\nprint(toString(w))\nprint(toString(mu))";
      const { block } = prepareBlock(DATA, computation);
      const cell = handOperator(block, { template: "cell", roots: ["1 / (1 + exp(-(X %*% beta)))", "mu * (1 - mu)"], main: "(X %*% beta)", materialized: ["(X %*% beta)"] });
      const row = handOperator(block, { template: "row", roots: ["t(X) %*% (mu - Y)"], main: "X", materialized: ["1 / (1 + exp(-(X %*% beta)))"] });
      const ops = groupRowOutputs(block.dag, [cell, row].map((op, id) => ({ ...op, id, seconds: fusedOperatorSeconds(block.dag, op) })));
      assert.equal(ops.length, 1, ops.map((op) => op.roots.map((n) => block.text(n)).join(" | ")).join(" ; "));
      assert.ok(ops[0]!.covered.some((n) => block.text(n) === "(X %*% beta)"), "X %*% beta is computed in the rows");
      assert.equal(block.text(ops[0]!.binding.mainInput!), "X");
    });
    it("not one that computes the Row operator's main input", () => {
      const { ops } = merged("Z = Xw + a * Xd\ng = t(Z) %*% Y\nprint(toString(g))", { roots: ["Xw + a * Xd"], main: "Xw" }, { roots: ["t(Z) %*% Y"], main: "Xw + a * Xd" });
      assert.equal(ops.length, 2);
    });
  });
});
