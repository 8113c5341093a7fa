// ReMac's search and choice on the shipped quasi-Newton and gradient descent
// scripts: the options the issue names are found (with their counts), and
// the choice follows the declared sizes of A (dml-lens.json inputs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { findRedundancy, type RedundancyReport, type RedundancySettings } from "../../engine/redundancy";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { repoRoot } from "../repo-root";

const TALL = { $A: { rows: 1_000_000, cols: 100 }, $b: { rows: 1_000_000, cols: 1 } };
const WIDE = { $A: { rows: 1000, cols: 100_000, sparsity: 0.01 }, $b: { rows: 1000, cols: 1 } };

function report(name: string, inputs?: object, maxi?: number, settings: RedundancySettings = {}): RedundancyReport {
  const text = readFileSync(path.join(repoRoot, "examples", `${name}.dml`), "utf8");
  const fs = memoryFileSystem({ "/w/dml-lens.json": JSON.stringify(inputs ? { inputs } : {}) });
  const parameters = new Map(maxi === undefined ? [] : [["maxi", String(maxi)]]);
  return findRedundancy(analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs, parameters }), text, settings);
}

const withExpression = (r: RedundancyReport, kind: string, expression: string) => r.options.filter((o) => o.kind === kind && o.expression === expression);
const chosenExpressions = (r: RedundancyReport, strategy: "chosen" | "conservative" | "aggressive") =>
  r.plans[strategy].options.map((id) => r.options.find((o) => o.id === id)!).map((o) => `${o.kind} ${o.expression}`);

describe("redundancy in linreg_dfp.dml and linreg_bfgs.dml", () => {
  for (const [name, count] of [["linreg_dfp", 9], ["linreg_bfgs", 6]] as const) {
    it(`${name}: the implicit CSE of A %*% d (also as t(d) %*% t(A)), the LSE t(A) %*% A, ${count} options`, () => {
      const r = report(name, TALL);
      assert.equal(r.options.length, count, r.options.map((o) => o.id).join("\n"));
      const [ad] = withExpression(r, "cse", "A %*% d");
      assert.ok(ad, "no CSE of A %*% d");
      assert.equal(ad.explicit, false);
      assert.ok(ad.occurrences.length >= 1);
      assert.ok(ad.occurrences.some((o) => o.transposed && o.replacement.includes("t({name})")));
      // The alpha line's `t(d) %*% t(A) %*% A %*% d` is rewritten whole: t(Ad) %*% Ad.
      assert.ok(ad.occurrences.some((o) => o.replacement === "t({name}) %*% {name}"), JSON.stringify(ad.occurrences));
      const [ata] = withExpression(r, "lse", "t(A) %*% A");
      assert.ok(ata, "no LSE of t(A) %*% A");
      assert.equal(ata.name, "AtA");
      // `while (i < maxi & sum(g^2) > ...)` may converge early: the setting (10), capped by maxi (20).
      assert.deepEqual(ata.iterations, { count: 10, source: "setting", bound: 20 });
      assert.ok(ata.occurrences.length >= 2);
      assert.ok(r.windows > 0 && !r.truncated);
    });
  }

  it("linreg_dfp: the symmetric H makes H %*% t(A) and A %*% H one key", () => {
    const r = report("linreg_dfp", TALL);
    const [ah] = withExpression(r, "cse", "A %*% H");
    assert.ok(ah, r.options.map((o) => o.id).join("\n"));
    assert.equal(ah.key, "A H");
  });

  // The quasi-Newton loops stop on convergence too: the test expects them to run their maxi iterations (the setting).
  for (const [name, maxi] of [["linreg_dfp", 20], ["linreg_bfgs", 20], ["linreg_gd", 50]] as const) {
    it(`${name}: A tall and skinny (1,000,000 x 100), ${maxi} iterations: the chosen plan hoists t(A) %*% A and t(A) %*% b together`, () => {
      const r = report(name, TALL, maxi, { expectedIterations: maxi });
      assert.equal(r.options.find((o) => o.kind === "lse")!.iterations!.count, maxi);
      const chosen = chosenExpressions(r, "chosen");
      assert.ok(chosen.includes("lse t(A) %*% A") && chosen.includes("lse t(A) %*% b"), chosen.join(", "));
      // Applied in an order that composes them: t(A) %*% A first, then t(A) %*% b inside its replacement.
      assert.ok(chosen.indexOf("lse t(A) %*% A") < chosen.indexOf("lse t(A) %*% b"), chosen.join(", "));
      assert.ok(r.plans.chosen.cost < r.originalCost);
      assert.ok(r.plans.chosen.cost <= r.plans.conservative.cost);
      assert.ok(r.plans.chosen.cost <= r.plans.aggressive.cost);
    });

    it(`${name}: A wide and sparse (1,000 x 100,000 at 1%): the chosen plan does not hoist t(A) %*% A`, () => {
      const r = report(name, WIDE);
      assert.ok(!chosenExpressions(r, "chosen").includes("lse t(A) %*% A"), chosenExpressions(r, "chosen").join(", "));
      const [ata] = withExpression(r, "lse", "t(A) %*% A");
      assert.ok(ata && ata.saving < 0, `hoisting t(A) %*% A should cost more here: ${ata?.saving}`);
      assert.ok(r.plans.chosen.cost <= r.originalCost);
    });
  }

  it("linreg_bfgs: the gradient's t(A) %*% A and t(A) %*% b compose (both rewrite `t(A) %*% (A %*% x - b)`); reusing A %*% d conflicts with the hoist", () => {
    const r = report("linreg_bfgs", TALL);
    const [ata] = withExpression(r, "lse", "t(A) %*% A");
    const [atb] = withExpression(r, "lse", "t(A) %*% b");
    const [ad] = withExpression(r, "cse", "A %*% d");
    assert.ok(ata && atb && ad);
    assert.ok(!ata.conflicts!.includes(atb.id) && !atb.conflicts!.includes(ata.id), JSON.stringify(ata.conflicts));
    assert.ok(ata.conflicts!.includes(ad.id));
    // The gradient's occurrence is the same text for both.
    const gradient = (o: typeof ata) => o.occurrences.find((x) => x.range.start.line === 21);
    assert.deepEqual(gradient(ata)?.range, gradient(atb)?.range);
  });

  it("linreg_bfgs: A tall and skinny, 3 iterations expected: reusing A %*% d beats hoisting t(A) %*% A", () => {
    const r = report("linreg_bfgs", TALL, 20, { expectedIterations: 3 });
    const chosen = chosenExpressions(r, "chosen");
    assert.ok(chosen.includes("cse A %*% d") && !chosen.includes("lse t(A) %*% A"), chosen.join(", "));
    const [ata] = withExpression(r, "lse", "t(A) %*% A");
    assert.deepEqual(ata?.iterations, { count: 3, source: "setting", bound: 20 });
  });

  it("linreg_gd: t(A) %*% A and t(A) %*% b are both offered as LSE", () => {
    const r = report("linreg_gd", TALL);
    assert.deepEqual(r.options.filter((o) => o.kind === "lse").map((o) => o.expression).sort(), ["t(A) %*% A", "t(A) %*% b"]);
    assert.deepEqual(chosenExpressions(r, "chosen").sort(), ["lse t(A) %*% A", "lse t(A) %*% b"]);
  });

  it("without sizes, options are found but not costed, and only the aggressive plan takes them", () => {
    const r = report("linreg_dfp");
    assert.equal(r.options.length, 9);
    assert.ok(r.options.every((o) => !o.costed && o.saving === 0));
    assert.deepEqual(r.plans.chosen.options, []);
    assert.ok(r.plans.aggressive.options.length > 0 && !r.plans.aggressive.complete);
    assert.ok(r.unsized.includes("A"));
  });
});
