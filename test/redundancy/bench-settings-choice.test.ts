// The choices of `dml bench redundancy`'s size settings (cli/bench-redundancy.ts's
// REDUNDANCY_SETTINGS, the sizes the bench declares): which options the chosen
// and aggressive plans take for DFP and BFGS on A tall and skinny and on A
// wide and sparse, and how the cost model ranks the plans.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchReport, REDUNDANCY_SETTINGS } from "../../cli/bench-redundancy";
import { applyRedundancy, type RedundancyReport } from "../../engine/redundancy";

const [TALL, WIDE] = REDUNDANCY_SETTINGS;

function planText(text: string, r: RedundancyReport, strategy: "chosen" | "aggressive"): string {
  return applyRedundancy(text, r.plans[strategy].options.flatMap((id) => r.options.filter((o) => o.id === id))).text;
}

function expressions(r: RedundancyReport, strategy: "chosen" | "aggressive"): string[] {
  return r.plans[strategy].options.flatMap((id) => r.options.filter((o) => o.id === id)).map((o) => `${o.kind} ${o.expression}`);
}

describe("bench redundancy size settings: the options chosen", () => {
  it("the settings are the tall dense and the wide sparse A", () => {
    assert.ok(TALL && WIDE);
    assert.deepEqual([TALL.rows, TALL.cols, TALL.sparsity, TALL.hoists], [50_000, 40, 1, true]);
    assert.deepEqual([WIDE.rows, WIDE.cols, WIDE.sparsity, WIDE.hoists], [100, 2_000, 0.01, false]);
  });

  it("DFP, A tall: hoists t(A) %*% A and t(A) %*% b; the aggressive plan reuses A %*% d instead", () => {
    const { report } = benchReport("linreg_dfp", TALL!);
    assert.deepEqual(expressions(report, "chosen"), ["lse t(A) %*% A", "lse t(A) %*% b"]);
    assert.deepEqual(expressions(report, "aggressive").sort(), ["cse A %*% d", "lse t(A) %*% b"]);
    assert.ok(report.plans.chosen.cost < report.plans.aggressive.cost && report.plans.aggressive.cost < report.originalCost);
  });

  it("BFGS, A tall: the chosen plan is the aggressive one (hoists t(A) %*% A and t(A) %*% b, reuses H %*% yv)", () => {
    const { text, report } = benchReport("linreg_bfgs", TALL!);
    assert.deepEqual(expressions(report, "chosen").sort(), ["cse H %*% yv", "lse t(A) %*% A", "lse t(A) %*% b"]);
    assert.deepEqual(expressions(report, "aggressive").sort(), expressions(report, "chosen").sort());
    assert.equal(report.plans.chosen.cost, report.plans.aggressive.cost);
    // Applied in their orders, both give the same script: the bench's two timings of it differ only by noise.
    assert.equal(planText(text, report, "chosen"), planText(text, report, "aggressive"));
    assert.notEqual(planText(text, report, "chosen"), text);
  });

  it("DFP, A wide and sparse: reuses the H and t(d) products of A %*% d, hoists nothing", () => {
    const { report } = benchReport("linreg_dfp", WIDE!);
    assert.deepEqual(expressions(report, "chosen").sort(), ["cse H %*% (t(A) %*% (A %*% d))", "cse t(d) %*% t(A) %*% (A %*% d)"]);
    assert.deepEqual(expressions(report, "aggressive").sort(), ["cse A %*% d", "lse t(A) %*% b"]);
    assert.ok(report.plans.chosen.cost < report.plans.aggressive.cost && report.plans.aggressive.cost < report.originalCost);
  });

  it("BFGS, A wide and sparse: reuses H %*% yv and A %*% d, hoists nothing; the aggressive plan shares H %*% yv, where nearly all the saving is", () => {
    const { report } = benchReport("linreg_bfgs", WIDE!);
    assert.deepEqual(expressions(report, "chosen").sort(), ["cse A %*% d", "cse H %*% yv"]);
    assert.deepEqual(expressions(report, "aggressive").sort(), ["cse H %*% yv", "lse t(A) %*% A", "lse t(A) %*% b"]);
    const option = (kind: string, expression: string) => report.options.find((o) => o.kind === kind && o.expression === expression);
    const hyv = option("cse", "H %*% yv");
    const ata = option("lse", "t(A) %*% A");
    const ad = option("cse", "A %*% d");
    assert.ok(hyv && ata && ad);
    // Hoisting t(A) %*% A costs more than it saves; reusing A %*% d saves a little; H %*% yv saves most of the script's estimate.
    assert.ok(ata.saving < 0 && ad.saving > 0 && hyv.saving > 0);
    const saved = report.originalCost - report.plans.chosen.cost;
    assert.ok(hyv.saving / saved > 0.95, `${hyv.saving} of ${saved}`);
    // So the chosen plan beats the aggressive one by little (the bench compares them in paired rounds).
    assert.ok(report.plans.chosen.cost < report.plans.aggressive.cost);
    assert.ok(report.plans.aggressive.cost / report.plans.chosen.cost < 1.05);
    // The alternatives to H %*% yv cost more: its product with t(s) (a transpose where used transposed), s %*% t(yv) (a worse order).
    assert.ok(option("cse", "H %*% yv %*% t(s)")!.saving < hyv.saving);
    assert.ok(option("cse", "s %*% t(yv)")!.saving < 0);
  });
});
