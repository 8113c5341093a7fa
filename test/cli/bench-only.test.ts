// `dml bench e2e|fusion --only NAME`: one case measured alone, the overhead
// row over that case's fused run, and a clear error when NAME matches nothing.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { bench } from "../../cli/bench";
import { QUICK_E2E_SIZES, runE2eBench } from "../../cli/bench-e2e";
import { runFusionBench } from "../../cli/bench-fusion";
import { QUICK_KERNEL_SIZES } from "../../cli/bench-fusion-kernels";
import { noCaseMessage, selectsCase } from "../../cli/bench-only";
import { UsageError } from "../../cli/usage";

test("selectsCase: a substring of the label, without regard to case; everything without --only", () => {
  assert.equal(selectsCase("L2SVM", "l2svm 500x10"), true);
  assert.equal(selectsCase("glm", "l2svm 500x10"), false);
  assert.equal(selectsCase(undefined, "anything"), true);
  assert.equal(noCaseMessage("e2e", "x", ["a", "b"]), "dml bench e2e: --only 'x' matches no case (cases: 'a', 'b')");
});

test("bench e2e --only l2svm: its two comparisons and the overhead row of its fused run alone", { timeout: 120_000 }, () => {
  const rows = runE2eBench({ sizes: QUICK_E2E_SIZES, only: "l2svm" });
  const { rows: n, cols: d } = QUICK_E2E_SIZES.dense;
  assert.deepEqual(
    rows.map((r) => r.case.replace(/ \(.*\): /, ": ")),
    [`l2svm ${n}x${d}: fused vs ours as-written`, `l2svm ${n}x${d}: fused vs numpy`, rows[2]?.case],
  );
  const overhead = rows[2]!;
  assert.match(overhead.case, /^planning and compilation per block \(fused\), \d+ blocks of 1 runs of examples\/\*\.dml$/);
  assert.equal(overhead.scripts, "l2svm.dml");
  for (const r of rows) assert.notEqual(r.failed, true, JSON.stringify(r));
});

test("bench e2e --only that matches no case lists the cases", () => {
  assert.throws(
    () => runE2eBench({ sizes: QUICK_E2E_SIZES, only: "no such case" }),
    (e: unknown) => e instanceof UsageError && /--only 'no such case' matches no case \(cases: 'ALS-CG .*', 'l2svm 500x10', .*'planning and compilation per block'\)/.test(e.message),
  );
});

test("bench fusion --only Cell: the Cell kernel case alone, no planner rows", { timeout: 120_000 }, () => {
  const rows = runFusionBench({ kernels: { sizes: QUICK_KERNEL_SIZES, runs: 1, warmup: 0 }, only: "cell sum" });
  const dense = `${QUICK_KERNEL_SIZES.rows}x${QUICK_KERNEL_SIZES.cols}`;
  assert.deepEqual(
    rows.map((r) => r.case),
    [`Cell sum(X*Y*Z), X Y Z ${dense}: fused vs ours as-written`, `Cell sum(X*Y*Z), X Y Z ${dense}: fused vs numpy`],
  );
  assert.throws(() => runFusionBench({ kernels: { sizes: QUICK_KERNEL_SIZES }, only: "nothing" }), /matches no case \(cases: 'SystemDS fusion patterns'/);
});

test("dml bench: --only goes with the e2e or fusion suite", async () => {
  await assert.rejects(bench(["parse", "--only", "x"]), /--only goes with one of the suites e2e, fusion/);
  await assert.rejects(bench(["--only", "x"]), /--only goes with one of the suites/);
});
