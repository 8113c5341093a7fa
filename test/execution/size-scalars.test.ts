// A scalar live-in that decides sizes (`k` in `P[, 1:(k - 1)]`) is known by
// its value when a block is compiled, so the planner sees every size and
// fuses the operations that use it; its value joins the plan's signature
// (a new value recompiles), other scalars stay known by type only, and a
// block whose size-deciding scalar keeps changing stops pinning it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession, OperationProfiler, type BlockTiming, type PlanMode } from "../../engine/execution";

function timingAt(timings: readonly BlockTiming[], line: number): BlockTiming {
  const timing = timings.find((t) => t.range.start.line + 1 === line);
  assert.ok(timing, `no block at line ${line}: ${timings.map((t) => t.range.start.line + 1).join(", ")}`);
  return timing;
}

function run(script: string, plan: PlanMode, profiler?: OperationProfiler): { printed: string[]; timings: BlockTiming[] } {
  const printed: string[] = [];
  const { session, runner } = executionSession({ plan, print: (line) => printed.push(line), ...(profiler ? { profiler } : {}) });
  const result = session.runScript(script);
  assert.deepEqual(result.errors, []);
  return { printed, timings: runner.blockTimings() };
}

describe("size-deciding scalars", () => {
  const gradient = [
    "X = rand(rows=60, cols=6, seed=1)",
    "P = rand(rows=60, cols=4, seed=2)",
    "k = 4",
    "s = 0",
    "for (i in 1:4) {",
    "  kk = k - (i %% 2)",
    "  while (FALSE) {}",
    "  s = s + sum(t(X) %*% (P[, 1:(kk - 1)] - 0.5)) + i",
    "}",
    "print(s)",
  ].join("\n");

  it("fuses t(X) %*% (P[, 1:(k - 1)] - 0.5) once k's value gives the slice's columns, and gives the as-written value", () => {
    const profiler = new OperationProfiler();
    const fused = run(gradient, "fused", profiler);
    const asWritten = run(gradient, "as-written");
    assert.equal(fused.printed.length, 1);
    const [got, expected] = [Number(fused.printed[0]), Number(asWritten.printed[0])];
    assert.ok(Math.abs(got - expected) <= 1e-9 * Math.abs(expected), `fused ${got} vs as written ${expected}`);
    const texts = profiler.take().flatMap((b) => b.operations.map((o) => o.text));
    assert.ok(
      texts.some((t) => /^fused row operator: t\(X\) %\*%/.test(t)),
      `the product is a fused Row operator: ${texts.join(" | ")}`,
    );
    assert.ok(!texts.includes("t(X)"), "t(X) is not materialized");
  });

  it("recompiles the block for each value of the size-deciding scalar, not for the loop counter", () => {
    const body = timingAt(run(gradient, "fused").timings, 8);
    assert.equal(body.runs, 4);
    assert.equal(body.compilations, 2, "kk is 3 and 4 in turn: two plans; i changes every run but decides no size");
  });

  it("stops pinning a scalar whose value keeps changing (a counter in an index) after eight plans", () => {
    const script = ["X = rand(rows=30, cols=3, seed=4)", "s = 0", "for (i in 1:20) {", "  while (FALSE) {}", "  s = s + sum(X[1:i, ] * 2)", "}", "print(s)"].join("\n");
    const fused = run(script, "fused");
    const asWritten = run(script, "as-written");
    const body = timingAt(fused.timings, 5);
    assert.equal(body.runs, 20);
    assert.equal(body.compilations, 9, "eight plans by value of i, then one by its type");
    assert.equal(Number(fused.printed[0]), Number(asWritten.printed[0]));
  });
});
