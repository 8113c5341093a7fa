// Compile once, run many times: a block is compiled the first time it runs
// with given live-in sizes and reused across loop iterations and cells;
// it is recompiled when a live-in value's dims, format or density change
// (dynamic recompilation). Timings report runs, compilations and the mode.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { matrixValue } from "../../engine/runtime/interpreter";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { executionSession, matchLimit, MATCHES_PER_ESTIMATED_MS, FIRST_REWRITE_MATCHES, MATCHES_PER_ESTIMATED_MS_BEYOND_FIRST, type BlockTiming } from "../../engine/execution";

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

  it("runs a block's reads first and compiles the rest with the sizes read, keeping effects in order", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "dml-read-split-"));
    const rows = Array.from({ length: 300 }, (_, i) => Array.from({ length: 40 }, (_, j) => ((i * 7 + j * 3) % 11) / 10).join(","));
    writeFileSync(path.join(folder, "X.csv"), rows.join("\n") + "\n");
    writeFileSync(path.join(folder, "X.csv.mtd"), JSON.stringify({ data_type: "matrix", format: "csv", rows: 300, cols: 40 }));
    const script = path.join(folder, "s.dml");
    const run = (text: string) => {
      const printed: string[] = [];
      const { session, runner } = executionSession({ plan: "fused", scriptPath: script, print: (l) => printed.push(l) });
      assert.deepEqual(session.runScript(text).errors, []);
      return { printed, block: runner.blockTimings()[0]! };
    };
    const split = run('X = read("X.csv")\ns = sum(X * X * X)\nprint(s)');
    assert.ok(split.block.fusedOperators >= 1, "sum(X * X * X) is fused once X's size is known");
    const asWritten = executionSession({ plan: "as-written", scriptPath: script, print: () => {} });
    assert.deepEqual(asWritten.session.runScript('X = read("X.csv")\ns = sum(X * X * X)').errors, []);
    const expected = asWritten.session.env.get("s");
    assert.ok(expected?.kind === "scalar");
    assert.equal(Number(split.printed[0]), expected.value);
    // A print before the read: the block is not split (its plan then knows nothing of X).
    const ordered = run('print("before")\nX = read("X.csv")\ns = sum(X * X * X)\nprint(s)');
    assert.equal(ordered.printed[0], "before");
    assert.equal(ordered.block.fusedOperators, 0);
  });

  it("optimizes a block for about as long as its expected runs take: once, a for loop's count, a while loop's 15 or its counter's bound, a function's unknown", () => {
    const body = ["X = rand(rows=2000, cols=300, seed=1)", "Y = rand(rows=2000, cols=300, seed=2)", "a = sum(X * Y * 2) + sum(t(X) %*% Y)", "b = colSums(X * Y) %*% t(colSums(Y))", "print(a + sum(b))"];
    const run = (script: string, line: number) => {
      const printed: string[] = [];
      const { session, runner } = executionSession({ plan: "fused", print: (text) => printed.push(text) });
      assert.deepEqual(session.runScript(script).errors, []);
      return { printed, block: timingAt(runner.blockTimings(), line) };
    };
    const once = run(body.join("\n"), 1);
    const forOnce = run(["for (i in 1:1) {", ...body, "}"].join("\n"), 2);
    const forTwice = run(["for (i in 1:2) {", ...body, "}"].join("\n"), 2);
    const whileLoop = run(["c = TRUE", "while (c) {", ...body, "  c = FALSE", "}"].join("\n"), 3);
    const countedOnce = run(["i = 0", "n = 1", "while (i < n & TRUE) {", ...body, "  i = i + 1", "}"].join("\n"), 4);
    const countedTwice = run(["i = 0", "while (i <= 1) {", ...body, "  i = i + 1", "}"].join("\n"), 3);
    const inFunction = run(["f = function(Double s) return (Double r) {", ...body, "  r = s", "}", "r = f(1)"].join("\n"), 2);
    assert.ok(once.block.optimizerMatches > 0 && once.block.optimizerMatches < 10_000, `${once.block.optimizerMatches} matches`);
    assert.equal(forOnce.block.optimizerMatches, once.block.optimizerMatches, "a loop of one iteration: one run");
    assert.ok(forTwice.block.optimizerMatches > once.block.optimizerMatches, `${forTwice.block.optimizerMatches} for two runs`);
    assert.equal(whileLoop.block.optimizerMatches, 10_000, "15 expected iterations reach the default bound here");
    // A counter bounds the loop: i < n (n = 1) runs once, i <= 1 from 0 twice.
    assert.equal(countedOnce.block.optimizerMatches, once.block.optimizerMatches, "a while loop counted to one iteration: one run");
    assert.equal(countedTwice.block.optimizerMatches, forTwice.block.optimizerMatches, "counted to two iterations: as a for loop of two");
    assert.equal(inFunction.block.optimizerMatches, 10_000, "a function's body: the default bound");
    // Each finds the rewrite (sum(t(X) %*% Y) as sum(colSums(X) * colSums(Y)) or an equal form) and prints the same.
    for (const r of [once, forTwice, whileLoop, countedOnce, countedTwice, inFunction]) assert.equal(r.block.rewrites, 1);
    assert.deepEqual(forTwice.printed.slice(0, 1), once.printed);
  });

  it("hardly searches a block whose fused plan costs about one read of its inputs: t(X) %*% y over an input X", () => {
    const X = new DenseMatrix(200_000, 10);
    const y = new DenseMatrix(200_000, 1);
    for (let i = 0; i < X.data.length; i++) X.data[i] = ((i * 7919) % 1000) / 1000 - 0.5;
    for (let i = 0; i < y.data.length; i++) y.data[i] = ((i * 104_729) % 997) / 997 - 0.5;
    const run = (plan: "fused" | "as-written", text: string) => {
      const printed: string[] = [];
      const { session, runner } = executionSession({ plan, print: (line) => printed.push(line) });
      session.env.set("X", matrixValue(X));
      session.env.set("y", matrixValue(y));
      assert.deepEqual(session.runCell(text).errors, []);
      return { printed, block: timingAt(runner.blockTimings(), 1) };
    };
    // One Row operator reads X once: no plan of the block costs less than that read, so a rewrite could save nothing.
    const gradient = run("fused", "g = t(X) %*% y\nprint(sum(g))");
    assert.equal(gradient.block.fusedOperators, 1);
    assert.ok(gradient.block.optimizerMatches <= 5, `${gradient.block.optimizerMatches} matches`);
    const written = Number(run("as-written", "g = t(X) %*% y\nprint(sum(g))").printed[0]);
    assert.ok(Math.abs(Number(gradient.printed[0]) - written) <= 1e-9 * Math.abs(written), `${gradient.printed[0]} vs ${written}`);
    // Three cell-wise passes over X beside the product cost well above one read of X: the block is searched.
    const passes = run("fused", "a = sum(X * X * 2) + sum(t(X) %*% y)\nprint(a)");
    assert.ok(passes.block.optimizerMatches > 100, `${passes.block.optimizerMatches} matches`);
  });

  it("the match bound: the estimated milliseconds the runs could save times the matches per millisecond, up to the first rewrite's, then the slower rate, at most the default", () => {
    assert.equal(matchLimit(0.001), MATCHES_PER_ESTIMATED_MS);
    assert.equal(matchLimit(0.0123), Math.ceil(12.3 * MATCHES_PER_ESTIMATED_MS));
    // Between the first rewrite's matches and the slower rate's: the first rewrite's.
    assert.equal(matchLimit(0.1), FIRST_REWRITE_MATCHES);
    assert.equal(matchLimit(0.5), FIRST_REWRITE_MATCHES);
    assert.equal(matchLimit(1.2345), Math.ceil(1234.5 * MATCHES_PER_ESTIMATED_MS_BEYOND_FIRST));
    assert.ok(matchLimit(1.2345) > FIRST_REWRITE_MATCHES && matchLimit(1.2345) < 10_000);
    assert.equal(matchLimit(60), 10_000);
  });
});
