// The fusion-kernel rows of `dml bench fusion` at tiny sizes: one row per
// comparison with the targets, and every run (fused, as written,
// numpy) computing the same result.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { QUICK_KERNEL_SIZES, runFusionKernelBench } from "../../cli/bench-fusion-kernels";
import { formatTargetReport } from "../../cli/bench-target-report";

test("fusion kernels at tiny sizes: comparisons, targets, same results", { timeout: 180_000 }, () => {
  const rows = runFusionKernelBench({ sizes: QUICK_KERNEL_SIZES, runs: 1, warmup: 0 });
  const z = QUICK_KERNEL_SIZES;
  const dense = `${z.rows}x${z.cols}`;
  const outer = `Outer sum(S * log(U %*% t(V) + 1e-15)), S ${z.outerN}x${z.outerN} with ${z.outerPerRow} non-zeros per row, rank ${z.outerRank}`;
  assert.deepEqual(
    rows.map((r) => [r.case, r.target]),
    [
      [`Cell sum(X*Y*Z), X Y Z ${dense}: fused vs ours as-written`, ">= 3x"],
      [`Cell sum(X*Y*Z), X Y Z ${dense}: fused vs numpy`, "none"],
      [`MAgg sum(X^2), sum(X*Y), sum(Y^2), X Y ${dense}: fused vs ours as-written (three separate passes)`, ">= 2x"],
      [`MAgg sum(X^2), sum(X*Y), sum(Y^2), X Y ${dense}: fused vs numpy`, "none"],
      [`Row t(X) %*% (w * (X %*% v)), X ${dense}: fused vs numpy`, ">= 1.5x"],
      [`Row t(X) %*% (w * (X %*% v)), X ${dense}: fused vs ours as-written`, "none"],
      [`${outer}: fused vs numpy straightforward (dense U @ V.T, one run)`, ">= 50x"],
      [`${outer}: fused vs numpy sparse-aware (products at S's non-zeros)`, ">= 1.5x"],
      [`${outer}: fused vs ours as-written`, "none"],
    ],
  );
  for (const r of rows) {
    assert.equal(r.suite, "fusion");
    assert.notEqual(r.failed, true, JSON.stringify(r));
    assert.ok(r.ours_ms > 0, JSON.stringify(r));
    if (r.baseline_ms === null) {
      assert.ok(r.baseline.startsWith("numpy"), JSON.stringify(r));
      assert.match(String(r.note), /python3|numpy|scipy/);
      continue;
    }
    assert.equal(r.same_result, true, JSON.stringify(r));
    const ratio = (r.baseline_ms as number) / r.ours_ms;
    assert.ok(Math.abs((r.ratio as number) - ratio) <= 1e-3 * Math.max(1, ratio) + 1e-3, JSON.stringify(r));
    const target = /^>= ([\d.]+)x$/.exec(String(r.target));
    if (target) assert.equal(r.target_met, (r.ratio as number) >= Number(target[1]));
    else assert.equal(r.target_met, undefined);
  }
  // Ours computes one result per case, whatever the baseline it is compared with.
  for (const prefix of ["Cell", "MAgg", "Row", "Outer"]) {
    const checks = new Set(rows.filter((r) => r.case.startsWith(prefix) && r.baseline_ms !== null).map((r) => r.check_ours));
    assert.equal(checks.size, 1, prefix);
  }
  const report = formatTargetReport(rows).split("\n");
  assert.equal(report.filter((l) => l.startsWith("{")).length, rows.length);
  assert.ok(report.some((l) => /^baseline: /.test(l)));
});
