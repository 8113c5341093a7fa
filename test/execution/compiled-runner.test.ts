// Compile once, run many times: a block is compiled the first time it runs
// with given live-in sizes and reused across loop iterations and cells;
// it is recompiled when a live-in value's dims, format or density change
// (dynamic recompilation). Timings report runs, compilations and the mode.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { executionSession, type BlockTiming } from "../../engine/execution";

function timingAt(timings: readonly BlockTiming[], line: number): BlockTiming {
  const timing = timings.find((t) => t.range.start.line + 1 === line);
  assert.ok(timing, `no block at line ${line}: ${timings.map((t) => t.range.start.line + 1).join(", ")}`);
  return timing;
}

describe("compiled block runner", () => {
  it("compiles a loop body once for ten iterations with the same sizes", () => {
    const { session, runner } = executionSession({ plan: "fused", print: () => {} });
    const result = session.runScript(["X = rand(rows=50, cols=20, seed=1)", "s = 0", "for (i in 1:10) {", "  s = s + sum(X * X * i)", "}", "print(s)"].join("\n"));
    assert.deepEqual(result.errors, []);
    const body = timingAt(runner.blockTimings(), 4);
    assert.equal(body.runs, 10);
    assert.equal(body.compilations, 1);
    assert.equal(body.mode, "fused");
    assert.ok(body.measuredSeconds > 0);
  });

  it("recompiles when a live-in matrix changes its dims, and reuses each plan after", () => {
    const { session, runner } = executionSession({ plan: "rewritten", print: () => {} });
    const script = ["s = 0", "for (i in 1:6) {", "  X = rand(rows=10 * (1 + i %% 2), cols=5, seed=i)", "  while (FALSE) {}", "  s = s + sum(t(X) %*% X)", "}"].join("\n");
    assert.deepEqual(session.runScript(script).errors, []);
    const use = timingAt(runner.blockTimings(), 5);
    assert.equal(use.runs, 6);
    assert.equal(use.compilations, 2, "two sizes (10 and 20 rows), two plans");
  });

  it("recompiles when a matrix turns from sparse to dense", () => {
    const { session, runner } = executionSession({ plan: "fused", print: () => {} });
    const script = ["for (i in 1:2) {", "  X = rand(rows=100, cols=100, sparsity=ifelse(i == 1, 0.01, 1.0), seed=3)", "  while (FALSE) {}", "  y = sum(X^2)", "}"].join("\n");
    assert.deepEqual(session.runScript(script).errors, []);
    assert.equal(timingAt(runner.blockTimings(), 4).compilations, 2);
  });

  it("keeps plans across cells of one session: a cell run again is not compiled again", () => {
    const { session, runner } = executionSession({ plan: "fused", print: () => {} });
    const cell = "X = rand(rows=30, cols=3, seed=2)\ny = sum(X^2)";
    assert.deepEqual(session.runCell(cell).errors, []);
    assert.deepEqual(session.runCell(cell).errors, []);
    const [block] = runner.blockTimings();
    assert.equal(block!.runs, 2);
    assert.equal(block!.compilations, 1);
    runner.resetTimings();
    assert.deepEqual(session.runCell(cell).errors, []);
    assert.deepEqual(runner.blockTimings().map((t) => [t.runs, t.compilations]), [[1, 0]]);
  });

  it("as written runs the block's own DAG and estimates it", () => {
    const { session, runner } = executionSession({ plan: "as-written", print: () => {} });
    assert.deepEqual(session.runScript("X = rand(rows=200, cols=200, seed=1)\nY = X %*% X\nprint(sum(Y))").errors, []);
    const [block] = runner.blockTimings();
    assert.ok(block);
    assert.equal(block.fusedOperators, 0);
    assert.equal(block.rewrites, 0);
    assert.ok(block.estimatedSeconds > 0, "a 200^3 product has a cost");
  });
});
