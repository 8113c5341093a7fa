// The search across basic blocks (ReMac's extension of the block-wise search):
// windows that read the same values in different blocks of a scope are one
// option, computed where every path reaches an occurrence. Real scripts
// (linreg_dfp/bfgs, SystemDS's gmm and ALS-CG) and small variants; every
// option found is applied and run against the original (1e-9 relative), and
// the cases where a variable changes in between or only exclusive branches
// hold the occurrences offer nothing across them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { findRedundancy, type RedundancyOption, type RedundancyReport } from "../../engine/redundancy";
import { applyRedundancy } from "../../engine/redundancy/apply-redundancy";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { createSession } from "../../engine/runtime/interpreter/session";
import { repoRoot } from "../repo-root";

const fixture = (name: string) => readFileSync(path.join(repoRoot, "test", "redundancy", "fixtures", name), "utf8");

function report(text: string): RedundancyReport {
  return findRedundancy(analyzeText(text), text);
}

function printed(script: string): number[] {
  const lines: string[] = [];
  const run = createSession({ scriptPath: "/tmp/cross-block.dml", print: (l) => lines.push(l) }).runScript(script);
  assert.deepEqual(run.errors, [], script);
  return lines.map((l) => Number(l.replace(/^loss /, "")));
}

/** Applies the option alone and compares what both scripts print. */
function assertSameResults(text: string, option: RedundancyOption): string {
  const application = applyRedundancy(text, [option]);
  assert.deepEqual(application.refused, [], option.id);
  assert.notEqual(application.text, text);
  const expected = printed(text);
  const got = printed(application.text);
  assert.ok(expected.length > 0);
  assert.equal(got.length, expected.length);
  for (const [i, v] of expected.entries()) {
    assert.ok(Math.abs(got[i]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${option.id}: result ${i} ${got[i]} != ${v}\n${application.text}`);
  }
  return application.text;
}

/** 1-based lines of the option's occurrences. */
const lines = (o: RedundancyOption) => o.occurrences.map((x) => x.range.start.line + 1);
/** An option with occurrences on all of these lines. */
const spanning = (r: RedundancyReport, ...wanted: number[]) => r.options.filter((o) => wanted.every((l) => lines(o).includes(l)));

function runnableExample(name: string): string {
  return readFileSync(path.join(repoRoot, "examples", `${name}.dml`), "utf8")
    .replace("read($A)", "rand(rows=40, cols=6, min=-1, max=1, seed=7)")
    .replace("read($b)", "rand(rows=40, cols=1, min=-1, max=1, seed=8)")
    .replace(/ifdef\(\$maxi, \d+\)/, "4")
    .concat("print(sum(x))\nprint(sum(x^2))\n");
}

describe("options across blocks", () => {
  for (const [name, gradientLine] of [["linreg_dfp", 13], ["linreg_bfgs", 12]] as const) {
    it(`${name}: t(A) %*% A is computed before the first gradient and reused in the loop`, () => {
      const text = runnableExample(name);
      const r = report(text);
      const [ata] = r.options.filter((o) => o.expression === "t(A) %*% A");
      assert.ok(ata, r.options.map((o) => o.id).join("\n"));
      assert.equal(ata.kind, "lse");
      assert.equal(ata.insertBefore.start.line + 1, gradientLine);
      assert.equal(lines(ata)[0], gradientLine);
      assert.ok(lines(ata).some((l) => l > gradientLine + 5), JSON.stringify(lines(ata)));
      // The plain hoist out of the loop is covered by it (and does no better): one option for t(A) %*% A.
      assert.equal(r.options.filter((o) => o.expression === "t(A) %*% A").length, 1);
      const [atb] = r.options.filter((o) => o.expression === "t(A) %*% b");
      assert.ok(atb && atb.insertBefore.start.line + 1 === gradientLine);
      const applied = assertSameResults(text, ata);
      assert.match(applied, /\nAtA = t\(A\) %\*% A\ng = \(?AtA %\*% x - t\(A\) %\*% b\)?\n/);
      assertSameResults(text, atb);
    });
  }

  for (const model of ["VVI", "VII", "EEE"]) {
    it(`gmm's estimate_gaussian_param (model ${model}): t(resp) %*% X of the means is reused in the VVI and VII branches`, () => {
      const text = fixture("gmm_estimate.dml").replace("$model", `"${model}"`);
      const r = report(text);
      const mean = text.split("\n").findIndex((l) => l.includes("mean = (t(resp) %*% X)")) + 1;
      const branches = text
        .split("\n")
        .map((l, i) => (l.includes("mean * (t(resp) %*% X)") ? i + 1 : 0))
        .filter((l) => l > 0);
      assert.equal(branches.length, 2);
      const [reuse] = spanning(r, mean, ...branches);
      assert.ok(reuse, r.options.map((o) => `${o.id} ${lines(o)}`).join("\n"));
      assert.equal(reuse.kind, "cse");
      // Keyed as t(X) %*% resp (the smaller orientation): the occurrences use its transpose.
      assert.equal(reuse.expression, "t(X) %*% resp");
      assert.ok(reuse.occurrences.every((o) => o.replacement.includes("t({name})")), JSON.stringify(reuse.occurrences));
      assert.equal(reuse.insertBefore.start.line + 1, mean);
      assert.deepEqual(lines(reuse), [mean, ...branches]);
      assertSameResults(text, reuse);
    });
  }

  it("blocks cut by a function call: a ridge path reuses t(X) %*% X and t(X) %*% y across the calls", () => {
    const text = ridgePath("");
    const r = report(text);
    const xtx = r.options.find((o) => o.expression === "t(X) %*% X" && lines(o).length === 3);
    const xty = r.options.find((o) => o.expression === "t(X) %*% y" && lines(o).length === 3);
    assert.ok(xtx && xty, r.options.map((o) => `${o.id} ${lines(o)}`).join("\n"));
    assert.deepEqual(lines(xtx), [8, 10, 12]);
    assert.equal(xtx.insertBefore.start.line + 1, 8);
    assert.ok(xtx.costed && xtx.saving > 0, String(xtx.saving));
    assertSameResults(text, xtx);
    assertSameResults(text, xty);
    // Both together, as the chosen plan would apply them.
    const both = applyRedundancy(text, [xtx, xty]);
    assert.deepEqual(both.refused, []);
    assert.deepEqual(printed(both.text), printed(text));
  });

  // (DFP on small data hits the cost graph's candidate bound with or without the options across blocks.)
  it("the search stays within its count bounds on these scripts", () => {
    for (const text of [fixture("gmm_estimate.dml"), ridgePath("")]) {
      const r = report(text);
      assert.ok(!r.truncated && r.windows > 0, text.slice(0, 200));
    }
  });
});

describe("no option across blocks when the values differ or no path holds two occurrences", () => {
  it("X rescaled between the calls: no reuse spans the rescaling", () => {
    const text = ridgePath("X = X / max(abs(X))\n");
    const r = report(text);
    assert.deepEqual(spanning(r, 8, 11).map((o) => o.id), []);
    assert.deepEqual(spanning(r, 8, 13).map((o) => o.id), []);
    // After the rescaling the two later blocks still share theirs.
    assert.ok(r.options.some((o) => o.expression === "t(X) %*% X" && lines(o).join() === "11,13"), r.options.map((o) => `${o.id} ${lines(o)}`).join("\n"));
  });

  it("X rescaled in one branch only: the value after the if is not the one before", () => {
    const text = ridgePath("if (normalize) {\n  X = X / max(abs(X))\n}\n");
    const r = report(text);
    assert.deepEqual(spanning(r, 8, 13).map((o) => o.id), []);
    assert.ok(r.options.some((o) => o.expression === "t(X) %*% X" && lines(o).join() === "13,15"));
  });

  it("X updated in a loop between: the value after the loop is not the one before", () => {
    const text = ridgePath("for (k in 1:2) {\n  X = X * 0.5\n}\n");
    const r = report(text);
    assert.deepEqual(spanning(r, 8, 13).map((o) => o.id), []);
  });

  it("ALS-CG's gradient: U %*% t(V) in the two branches of the if is never computed twice on one path", () => {
    const text = fixture("als_cg_branches.dml");
    const r = report(text);
    const then = text.split("\n").findIndex((l) => l.includes("G = ((X != 0) * (U %*% t(V) - X))")) + 1;
    const otherwise = text.split("\n").findIndex((l) => l.includes("G = t(t(U) %*%")) + 1;
    assert.ok(then > 0 && otherwise > then);
    assert.deepEqual(spanning(r, then, otherwise).map((o) => o.id), []);
    assert.ok(printed(text).length === 1);
  });

  it("an occurrence only in one branch and one in a later loop: no path is sure to reach one", () => {
    const text = [
      "X = rand(rows=20, cols=4, seed=1)",
      "y = rand(rows=20, cols=1, seed=2)",
      "s = 0",
      "if (sum(y) > 0) {",
      "  s = sum(t(X) %*% X %*% t(X) %*% y)",
      "}",
      "for (i in 1:2) {",
      "  s = s + sum(t(X) %*% X)",
      "}",
      "print(s)",
      "",
    ].join("\n");
    const r = report(text);
    assert.deepEqual(spanning(r, 5, 8).map((o) => o.id), []);
  });

  it("a reuse after the if makes the branch's occurrence reusable: computed before the if", () => {
    const text = [
      "X = rand(rows=20, cols=4, seed=1)",
      "y = rand(rows=20, cols=1, seed=2)",
      "s = 0",
      "if (sum(y) > 0) {",
      "  s = sum(t(X) %*% X %*% t(X) %*% y)",
      "}",
      "print(s + sum(t(X) %*% X))",
      "",
    ].join("\n");
    const r = report(text);
    const [reuse] = spanning(r, 5, 7);
    assert.ok(reuse, r.options.map((o) => `${o.id} ${lines(o)}`).join("\n"));
    assert.equal(reuse.expression, "t(X) %*% X");
    assert.equal(reuse.insertBefore.start.line + 1, 4);
    assertSameResults(text, reuse);
  });
});

/**
 * A ridge-regression path over three penalties: each fit is its own block
 * (the loss is a function call), `between` goes after the first fit.
 */
function ridgePath(between: string): string {
  return [
    "loss = function(Matrix[Double] X, Matrix[Double] y, Matrix[Double] beta) return (Double l) {",
    "  l = sum((X %*% beta - y)^2)",
    "}",
    "X = rand(rows=50, cols=5, min=-1, max=1, seed=21)",
    "y = rand(rows=50, cols=1, min=-1, max=1, seed=22)",
    "I = diag(matrix(1, rows=5, cols=1))",
    "normalize = sum(y) > 0",
    "b1 = solve(t(X) %*% X + 0.1 * I, t(X) %*% y)",
    `l1 = loss(X, y, b1)\n${between}` + "b2 = solve(t(X) %*% X + 1.0 * I, t(X) %*% y)",
    "l2 = loss(X, y, b2)",
    "b3 = solve(t(X) %*% X + 10.0 * I, t(X) %*% y)",
    "l3 = loss(X, y, b3)",
    "print(l1)",
    "print(l2)",
    "print(l3)",
    "",
  ].join("\n");
}
