/**
 * A `while` loop's expected iterations in the runtime (while-bound.ts):
 * SystemDS's 15 when unknown, or the count a counting condition gives from
 * the values the loop starts with (program/loop-iterations.ts reads the
 * condition; its own spellings are tested in test/program).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parse, type WhileStatement } from "../../engine/syntax";
import { double, matrixValue, type Value } from "../../engine/runtime/interpreter";
import { int } from "../../engine/runtime/interpreter/values";
import { expectedWhileIterations, UNKNOWN_LOOP_ITERATIONS } from "../../engine/runtime/interpreter/while-bound";
import { DenseMatrix } from "../../engine/runtime/matrix";

function expected(loop: string, values: Record<string, Value>): number {
  const statement = parse(loop).program.body.find((s): s is WhileStatement => s.kind === "while");
  assert.ok(statement, `a while loop: ${loop}`);
  return expectedWhileIterations(statement, new Map(Object.entries(values)));
}

const at = (iter: number, maxi: number): Record<string, Value> => ({ iter: int(iter), maxi: int(maxi), converged: { kind: "scalar", type: "boolean", value: false } });

test("a counter bounds the loop: its count from the values the loop starts with", () => {
  assert.equal(expected("while (iter < maxi) { x = 1\n iter = iter + 1 }", at(0, 3)), 3);
  assert.equal(expected("while (iter <= maxi) { iter = iter + 1 }", at(0, 3)), 4);
  assert.equal(expected("while (iter < 20) { iter = iter + 1 }", at(0, 0)), 20);
  assert.equal(expected("while (iter < maxi) { iter = iter + 1 }", { iter: double(0), maxi: double(2.5) }), 3);
  // Alone, the counter is the loop's exact count, above 15 too.
  assert.equal(expected("while (iter < maxi) { iter = iter + 1 }", at(0, 100)), 100);
  // Already past its bound: the body never runs.
  assert.equal(expected("while (iter < maxi) { iter = iter + 1 }", at(5, 3)), 0);
});

test("with other conjuncts, the counter's count or 15, whichever is smaller", () => {
  assert.equal(expected("while (!converged & iter < maxi) { iter = iter + 1 }", at(0, 3)), 3);
  assert.equal(expected("while (!converged & iter < maxi) { iter = iter + 1 }", at(0, 100)), UNKNOWN_LOOP_ITERATIONS);
  assert.equal(expected("while (iter < maxi && !converged) { iter = iter + 1 }", at(0, 2)), 2);
});

test("loops that only look counted: the unknown count", () => {
  const unknown = (loop: string, values: Record<string, Value> = at(0, 3)) => assert.equal(expected(loop, values), UNKNOWN_LOOP_ITERATIONS, loop);
  unknown("while (!converged) { iter = iter + 1 }");
  unknown("while (converged | iter < maxi) { iter = iter + 1 }");
  unknown("while (iter < maxi) { if (iter > 1) { iter = iter + 1 } }");
  unknown("while (iter < maxi) { iter = iter + 1\n iter = iter + 1 }");
  unknown("while (iter < maxi) { iter = iter - 1 }");
  unknown("while (iter < maxi) { iter = iter * 2 }");
  unknown("while (iter < maxi) { for (iter in 1:2) { x = 1 }\n iter = iter + 1 }");
  // The limit changes in the body.
  unknown("while (iter < maxi) { iter = iter + 1\n maxi = maxi + 1 }");
  unknown("while (iter < maxi) { iter = iter + 1\n if (TRUE) { maxi = 10 } }");
  // Values the loop does not start with as numbers.
  unknown("while (iter < maxi) { iter = iter + 1 }", { maxi: int(3) });
  unknown("while (iter < maxi) { iter = iter + 1 }", { iter: int(0), maxi: matrixValue(new DenseMatrix(1, 1, Float64Array.of(3))) });
  unknown("while (iter < nrow(X)) { iter = iter + 1 }");
});
