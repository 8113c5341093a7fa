// Expected iteration counts of loops (engine/program/loop-iterations.ts):
// for loops from their bounds, counted while loops from their counter when
// the counter is the whole condition, else the setting capped by the count.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse, type ForStatement, type WhileStatement } from "../../engine/syntax";
import { loopIterations } from "../../engine/program";

function loopOf(text: string): ForStatement | WhileStatement {
  const loop = parse(text).program.body.find((s) => s.kind === "for" || s.kind === "while");
  assert.ok(loop && (loop.kind === "for" || loop.kind === "while"), text);
  return loop;
}

const known = new Map([["n", 40], ["i", 0], ["maxi", 25]]);

describe("expected loop iterations", () => {
  it("for loops: from known bounds (seq with a step too), else the setting", () => {
    assert.deepEqual(loopIterations(loopOf("for (k in 1:n) {\n  x = 1\n}\n"), known, 10), { count: 40, source: "bounds" });
    assert.deepEqual(loopIterations(loopOf("for (k in seq(1, n, 3)) {\n  x = 1\n}\n"), known, 10), { count: 14, source: "bounds" });
    assert.deepEqual(loopIterations(loopOf("for (k in 1:m) {\n  x = 1\n}\n"), known, 10), { count: 10, source: "setting" });
  });

  it("a while loop tested only by its counter runs the count, more or fewer than the setting", () => {
    assert.deepEqual(loopIterations(loopOf("while (i < maxi) {\n  i = i + 1\n}\n"), known, 10), { count: 25, source: "bounds" });
    assert.deepEqual(loopIterations(loopOf("while (i <= 4) {\n  i = i + 1\n}\n"), known, 10), { count: 5, source: "bounds" });
  });

  it("a counted while loop with a convergence test expects the setting, at most its count", () => {
    const converging = loopOf("while (i < maxi & norm > 1e-6) {\n  norm = norm / 2\n  i = i + 1\n}\n");
    assert.deepEqual(loopIterations(converging, known, 10), { count: 10, source: "setting", bound: 25 });
    assert.deepEqual(loopIterations(converging, known, 100), { count: 25, source: "bounds" });
    assert.deepEqual(loopIterations(converging, known, 25), { count: 25, source: "bounds" });
  });

  it("a while loop without a counter, or whose counter moves otherwise, expects the setting", () => {
    assert.deepEqual(loopIterations(loopOf("while (norm > 1e-6) {\n  norm = norm / 2\n}\n"), known, 7), { count: 7, source: "setting" });
    assert.deepEqual(loopIterations(loopOf("while (i < maxi) {\n  i = i + 2\n}\n"), known, 7), { count: 7, source: "setting" });
    assert.deepEqual(loopIterations(loopOf("while (i < maxi) {\n  i = i + 1\n  if (i > 3) {\n    i = i + 1\n  }\n}\n"), known, 7), { count: 7, source: "setting" });
  });
});
