/** DML expressions to optimizer terms and back: the printer parenthesizes by precedence, leaves print as given. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Term } from "../../engine/egraph/types";
import { expressionToTerm, UnsupportedExpressionError } from "../../engine/rewrite/expression-term";
import { parseExpression, termToDml } from "../../engine/rewrite/term-to-dml";

const noLeaves = () => undefined;
const roundTrip = (text: string) => termToDml(expressionToTerm(parseExpression(text)), noLeaves);

test("expressions round-trip through terms", () => {
  assert.equal(roundTrip("t(U) %*% X %*% V"), "t(U) %*% X %*% V");
  assert.equal(roundTrip("sum((X - U %*% t(V))^2)"), "sum((X - U %*% t(V))^2)");
  assert.equal(roundTrip("(1 - P) * P * Xd"), "(1 - P) * P * Xd");
  assert.equal(roundTrip("-(t(X) %*% y)"), "-(t(X) %*% y)");
  assert.equal(roundTrip("matrix(0, rows=3, cols=4)"), "matrix(0, rows=3, cols=4)");
  assert.equal(roundTrip("max(X, 0)"), "max(X, 0)");
});

test("terms print with the parentheses DML needs", () => {
  const v = (name: string): Term => ({ op: `var:${name}`, children: [] });
  const term: Term = { op: "*", children: [{ op: "-", children: [{ op: "lit:1", children: [] }, v("Y")] }, v("X")] };
  assert.equal(termToDml(term, noLeaves), "(1 - Y) * X");
  const negative: Term = { op: "*", children: [v("X"), { op: "lit:-2", children: [] }] };
  assert.equal(termToDml(negative, noLeaves), "X * -2");
  const opaque: Term = { op: "mm", children: [{ op: "dag:7", children: [] }, v("w")] };
  assert.equal(termToDml(opaque, (op) => (op === "dag:7" ? "(f(X))" : undefined)), "f(X) %*% w");
});

test("an operator the optimizer does not know is reported, not printed (fused operators are the fusion planner's, not terms)", () => {
  const v = (name: string): Term => ({ op: `var:${name}`, children: [] });
  assert.throws(() => termToDml({ op: "fused:wsloss", children: [v("X"), v("U"), v("V")] }, noLeaves));
});

test("unsupported expressions are reported, not guessed", () => {
  assert.throws(() => expressionToTerm(parseExpression("X[1, 2]")), UnsupportedExpressionError);
  assert.throws(() => expressionToTerm(parseExpression("f(X)")), UnsupportedExpressionError);
});
