// trace() is defined on square matrices only: like SystemDS (its
// validation in BuiltinFunctionExpression), the runtime stops on a
// non-square one with SystemDS's message, at the call's source position.
import assert from "node:assert/strict";
import { test } from "node:test";
import { printed, runError } from "./run-script";

test("trace of a square matrix is the sum of its diagonal", () => {
  assert.equal(printed("X = matrix(seq(1, 9), rows=3, cols=3)\nprint(trace(X))"), "15.0");
  assert.equal(printed("print(trace(matrix(7, rows=1, cols=1)))"), "7.0");
});

test("trace of a non-square matrix is an error with SystemDS's message and the call's position", () => {
  const error = runError("X = matrix(seq(1, 6), rows=2, cols=3)\ny = 1\nz = trace(X)\nprint(z)");
  assert.match(error, /^\/tmp\/t\.dml:3:5: error: Trace is only defined on squared matrices but found \[2x3\]\.$/);
});
