import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ForStatement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { rhs, sexpr } from "./sexpr";
import { at } from "../checked-access";

describe("operator precedence as SystemDS's Dml.g4", () => {
  const cases: [string, string][] = [
    // level 1: ^ is right-associative and binds above unary minus
    ["2^3^2", "(^ 2 (^ 3 2))"],
    ["-2^2", "(- (^ 2 2))"],
    ["2^-1", "(^ 2 (- 1))"],
    ["2^-1^2", "(^ 2 (- (^ 1 2)))"],
    ["(-2)^2", "(^ (- 2) 2)"],
    // level 2: unary minus/plus take a level-1 operand
    ["-A %*% B", "(%*% (- A) B)"],
    ["- -a", "(- (- a))"],
    ["+a * b", "(* (+ a) b)"],
    ["a * -b + c", "(+ (* a (- b)) c)"],
    // level 3: %*% binds tighter than %% and %/%
    ["a %% b %*% c", "(%% a (%*% b c))"],
    ["a %*% b %/% c", "(%/% (%*% a b) c)"],
    ["A %*% B %*% C", "(%*% (%*% A B) C)"],
    // level 4/5/6: %% %/% above * / above + -
    ["a * b %% c", "(* a (%% b c))"],
    ["a %/% b %% c", "(%% (%/% a b) c)"],
    ["a / b * c", "(* (/ a b) c)"],
    ["a - b - c", "(- (- a b) c)"],
    ["a + b * c", "(+ a (* b c))"],
    // level 7: comparisons chain left
    ["a < b < c", "(< (< a b) c)"],
    ["a + 1 >= b * 2", "(>= (+ a 1) (* b 2))"],
    ["a != b == c", "(== (!= a b) c)"],
    // level 8: ! below comparisons, above &
    ["!a == b", "(! (== a b))"],
    ["!a & b", "(& (! a) b)"],
    ["a == !b", "(== a (! b))"],
    ["a == !b & c", "(& (== a (! b)) c)"],
    ["!!a", "(! (! a))"],
    // level 9 and 10: & above |
    ["a | b & c", "(| a (& b c))"],
    ["a & b | c & d", "(| (& a b) (& c d))"],
    ["a > 0 & b < 1 | !c", "(| (& (> a 0) (< b 1)) (! c))"],
    // parentheses and primaries
    ["(a + b) * c", "(* (+ a b) c)"],
    ["f(a, b=2) + X[1, ]", "(+ (call f a b=2) (index X 1 , _))"],
  ];
  for (const [text, expected] of cases) {
    it(`${text}  ≡  ${expected}`, () => assert.equal(rhs(text), expected));
  }

  it("`:` binds loosest inside index brackets: 1:n-1 is 1:(n-1)", () => {
    assert.equal(rhs("X[1:n-1, ]"), "(index X 1:(- n 1) , _)");
    assert.equal(rhs("X[nrow(X)-1:nrow(X), ]"), "(index X (- (call nrow X) 1):(call nrow X) , _)");
  });

  it("`:` binds loosest in for ranges, and for (i in 1:0) is a range", () => {
    const loop = (text: string) => parse(text).program.body[0] as ForStatement;
    const down = loop("for (i in 1:0) { print(i) }");
    assert.equal(down.iterable.kind, "range");
    if (down.iterable.kind !== "range") return;
    assert.equal(sexpr(down.iterable.from), "1");
    assert.equal(sexpr(down.iterable.to), "0");
    const minus = loop("for (i in 1:n-1) x = i").iterable;
    assert.equal(minus.kind === "range" && sexpr(minus.to), "(- n 1)");
    const call = loop("for (i in nrow(X):1) x = i").iterable;
    assert.equal(call.kind, "range");
  });

  it("&& and || parse at the & and | levels; SystemDS accepts them, a hint says they do not short-circuit", () => {
    const { program, diagnostics } = parse("x = a && b || c\n");
    const statement = at(program.body, 0);
    assert.equal(statement.kind === "assign" && sexpr(statement.value), "(|| (&& a b) c)");
    assert.deepEqual(
      diagnostics.map((d) => [d.severity, d.range.start.character, d.message.slice(0, 31)]),
      [
        ["hint", 6, "'&&' works like '&' in DML: bot"],
        ["hint", 11, "'||' works like '|' in DML: bot"],
      ],
    );
  });

  it("newlines carry no meaning", () => {
    const { program } = parse("x = a + b\n- c\ny = d\n(e)\nz = y\n[1]\n");
    assert.deepEqual(
      program.body.map((s) => (s.kind === "assign" ? sexpr(s.value) : s.kind)),
      ["(- (+ a b) c)", "(call d e)", "(index y 1)"],
    );
  });
});
