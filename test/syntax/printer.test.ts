// The printer (AST → DML) with exact expected text: the parentheses each
// precedence level needs, and the layout of every statement kind. Also the
// structural equality `astEquals` the round-trip tests rely on.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import type * as A from "../../engine/syntax/ast";
import { astEquals, stripRanges } from "../../engine/syntax/ast-equals";
import { parse } from "../../engine/syntax/parse";
import { printExpression, printProgram, printStatement } from "../../engine/syntax/printer";
import { at } from "../checked-access";

function parseClean(text: string): A.Program {
  const { program, diagnostics } = parse(text);
  const errors = diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(errors.map((d) => d.message), [], `errors parsing ${JSON.stringify(text)}`);
  return program;
}

/** Parses `source`, prints it, and checks the text and that it parses back to the same tree. */
function printsAs(source: string, expected: string = source): void {
  const program = parseClean(source);
  const printed = printProgram(program);
  assert.equal(printed, expected + "\n");
  const again = parseClean(printed);
  assert.deepStrictEqual(stripRanges(again), stripRanges(program));
}

const zero = { line: 0, character: 0 };
const range: A.Range = { start: zero, end: zero };
const id = (name: string): A.Identifier => ({ kind: "identifier", name, range });

describe("printer: precedence", () => {
  const cases: [string, string][] = [
    // the examples of the brief
    ["x = (a + b) * c", "x = (a + b) * c"],
    ["x = a + (b * c)", "x = a + b * c"],
    ["x = -(2^2)", "x = -2^2"],
    ["x = (-2)^2", "x = (-2)^2"],
    ["x = !(a == b)", "x = !a == b"],
    ["x = a %% (b %*% c)", "x = a %% b %*% c"],
    ["x = (a %% b) %*% c", "x = (a %% b) %*% c"],
    ["x = 2^(3^4)", "x = 2^3^4"],
    ["x = (2^3)^4", "x = (2^3)^4"],
    // ^ binds tighter than unary minus, which binds tighter than %*%
    ["x = 2^(-1)", "x = 2^-1"],
    ["x = (-a) %*% B", "x = -a %*% B"],
    ["x = -(a %*% B)", "x = -(a %*% B)"],
    ["x = +(a^b)", "x = +a^b"],
    ["x = -(-a)", "x = - -a"],
    ["x = +(+a)", "x = + +a"],
    ["x = -(+a)", "x = -+a"],
    // %*% over %/% %%
    ["x = (a %*% b) %% c", "x = a %*% b %% c"],
    ["x = a %/% (b %% c)", "x = a %/% (b %% c)"],
    ["x = (a %/% b) %% c", "x = a %/% b %% c"],
    // %/% %% over * /
    ["x = a * (b %/% c)", "x = a * b %/% c"],
    ["x = (a * b) %/% c", "x = (a * b) %/% c"],
    ["x = (a * b) / c", "x = a * b / c"],
    ["x = a / (b * c)", "x = a / (b * c)"],
    // * / over + -
    ["x = (a + b) / c", "x = (a + b) / c"],
    ["x = (a - b) - c", "x = a - b - c"],
    ["x = a - (b - c)", "x = a - (b - c)"],
    ["x = a - (b + c)", "x = a - (b + c)"],
    ["x = a - -b", "x = a - -b"],
    // + - over comparisons, which chain to the left
    ["x = (a + b) < c", "x = a + b < c"],
    ["x = a <= (b - c)", "x = a <= b - c"],
    ["x = (a < b) < c", "x = a < b < c"],
    ["x = a == (b != c)", "x = a == (b != c)"],
    ["x = (a > b) + c", "x = (a > b) + c"],
    // ! below comparisons, above & |
    ["x = (!a) == b", "x = (!a) == b"],
    ["x = (!a) & b", "x = !a & b"],
    ["x = !(a & b)", "x = !(a & b)"],
    ["x = !(a + b)", "x = !a + b"],
    ["x = !!a", "x = !!a"],
    ["x = a == !b", "x = a == !b"],
    ["x = a * !b", "x = a * !b"],
    ["x = (a == !b) == c", "x = (a == !b) == c"],
    ["x = a == !(b == c)", "x = a == !b == c"],
    ["x = (a + !b) == c", "x = (a + !b) == c"],
    ["x = (a + !b) & c", "x = a + !b & c"],
    ["x = (a * !b) + c", "x = (a * !b) + c"],
    ["x = (!a)^b", "x = (!a)^b"],
    // a prefix operator at the right end of a left operand takes what follows
    ["x = (-a)^b", "x = (-a)^b"],
    ["x = (2^-a)^b", "x = (2^-a)^b"],
    ["x = (a * -b)^c", "x = (a * -b)^c"],
    ["x = (a * -b) * c", "x = a * -b * c"],
    ["x = (-(!a)) + b", "x = (-!a) + b"],
    ["x = (-(!a)) & b", "x = -!a & b"],
    ["x = (a & !b) & c", "x = a & !b & c"],
    // & over |, both left-associative
    ["x = a | (b & c)", "x = a | b & c"],
    ["x = (a | b) & c", "x = (a | b) & c"],
    ["x = a | (b | c)", "x = a | (b | c)"],
    ["x = (a | b) | c", "x = a | b | c"],
    ["x = (a & b) == c", "x = (a & b) == c"],
    // parentheses around primaries are dropped
    ["x = (a)", "x = a"],
    ["x = f((a + b))", "x = f(a + b)"],
  ];
  for (const [source, expected] of cases) {
    test(`${source}  →  ${expected}`, () => printsAs(source, expected));
  }

  test("&& and || print like & and |", () => {
    const program = parse("x = (a && b) || !c\n").program;
    assert.equal(printProgram(program), "x = a && b || !c\n");
    assert.ok(astEquals(parse(printProgram(program)).program, program));
  });
});

describe("printer: primaries", () => {
  test("numbers keep their spelling", () => printsAs("x = 1e3 + 5. + .5 + 7L + 1.5E-3 + 0.0001 + 42"));
  test("strings are re-encoded with double quotes and escapes", () => {
    printsAs(`x = 'it\\'s' + "say \\"hi\\"" + 'tab\\there\\n'`, `x = "it's" + "say \\"hi\\"" + "tab\\there\\n"`);
    printsAs(`x = "back\\\\slash" + 'a"b'`, `x = "back\\\\slash" + "a\\"b"`);
  });
  test("booleans, names, dotted and namespaced names", () => printsAs("x = TRUE & FALSE | T & as.scalar(M) & ns::g(y) & ifx"));
  test("command-line parameters", () => printsAs("X = read($X, format=$fmt) + $1"));
  test("calls: positional and named arguments", () => {
    printsAs("X = rand(rows=m, cols=n, min=0, max=1, seed=-1)");
    printsAs("X = rand(10, 10, min = 0)", "X = rand(10, 10, min=0)");
    printsAs("i = order(target=X, by=1, decreasing=FALSE, index.return=TRUE)");
    printsAs("t0 = time()");
  });
  test("index expressions of every shape", () => {
    printsAs("y = X[i, j] + X[, j] + X[i, ] + X[i] + X[] + X[,]");
    printsAs("y = X[a:b, c:d] + X[1:2, ] + X[, 3:4]");
    printsAs("y = X[i,j] + X[,j] + X[i,]", "y = X[i, j] + X[, j] + X[i, ]");
    printsAs("y = X[nrow(X)-1:nrow(X), ]", "y = X[nrow(X) - 1:nrow(X), ]");
  });
  test("expression lists", () => {
    printsAs("out = conv2d(X, W, stride=[1,1], input_shape=[N, C, H, W])", "out = conv2d(X, W, stride=[1, 1], input_shape=[N, C, H, W])");
    printsAs("y = L[[1]]");
  });
  test("ifdef", () => printsAs("k = ifdef($k, 5)"));
  test("error expressions print as a comment", () => {
    assert.equal(printExpression({ kind: "error", range }), "/*error*/");
    const broken: A.Statement = { kind: "assign", target: id("x"), op: "=", value: { kind: "error", range }, range };
    assert.equal(printStatement(broken), "x = /*error*/");
  });
  test("a number built without its spelling", () => {
    assert.equal(printExpression({ kind: "number", text: "", value: 3, isInteger: true, range }), "3");
    assert.equal(printExpression({ kind: "number", text: "", value: 3, isInteger: false, range }), "3.0");
    assert.equal(printExpression({ kind: "number", text: "", value: 0.25, isInteger: false, range }), "0.25");
  });
});

describe("printer: statements", () => {
  test("assignments", () => {
    printsAs("x = 1\ny <- 2\nz += 3\nX[1:2, ] = Y\nX[, 2] += v");
    printsAs("x=1;y<-2;", "x = 1\ny <- 2");
  });
  test("multi-assignment", () => printsAs("[a, b] = f(x)\n[c] <- g(y)\n[Q,R]=qr(A)", "[a, b] = f(x)\n[c] <- g(y)\n[Q, R] = qr(A)"));
  test("call statements", () => printsAs('print("hi " + x)\nwrite(X, "out.csv", format="csv")\nstop("no")'));
  test("if without else, braces always", () => printsAs("if (a) x = 1", "if (a) {\n  x = 1\n}"));
  test("if/else", () => printsAs("if (a > 0) { x = 1; y = 2 } else z = 3", "if (a > 0) {\n  x = 1\n  y = 2\n} else {\n  z = 3\n}"));
  test("else if chains", () => {
    printsAs(
      "if (a) x = 1 else if (b) x = 2 else if (c) { x = 3 } else x = 4",
      "if (a) {\n  x = 1\n} else if (b) {\n  x = 2\n} else if (c) {\n  x = 3\n} else {\n  x = 4\n}",
    );
  });
  test("an else body of an if and more stays a block", () => {
    printsAs("if (a) x = 1 else { if (b) x = 2\n y = 3 }", "if (a) {\n  x = 1\n} else {\n  if (b) {\n    x = 2\n  }\n  y = 3\n}");
  });
  test("nested bodies indent by two spaces", () => {
    printsAs(
      "while (i < n) { if (i %% 2 == 0) { for (j in 1:i) { s = s + j } } i = i + 1 }",
      "while (i < n) {\n  if (i %% 2 == 0) {\n    for (j in 1:i) {\n      s = s + j\n    }\n  }\n  i = i + 1\n}",
    );
  });
  test("empty bodies", () => printsAs("while (FALSE) {}\nif (a) {} else {}"));
  test("for over a range and over seq", () => {
    printsAs("for (i in 1:n) s = s + i", "for (i in 1:n) {\n  s = s + i\n}");
    printsAs("for (i in 1:n-1) {}", "for (i in 1:n - 1) {}");
    printsAs("for (i in seq(1, n)) {}\nfor (i in seq(n, 1, -1)) {}");
  });
  test("parfor with options", () => {
    printsAs(
      "parfor (i in 1:n, check = 0, par=4, mode=REMOTE_SPARK, opt=$opt) { R[i, ] = f(X[i, ]) }",
      "parfor (i in 1:n, check=0, par=4, mode=REMOTE_SPARK, opt=$opt) {\n  R[i, ] = f(X[i, ])\n}",
    );
  });
  test("function definitions", () => {
    printsAs(
      "f = function(matrix[double] X, int k = 3) return (matrix[double] Y) { Y = X * k }",
      "f = function(matrix[double] X, int k = 3) return (matrix[double] Y) {\n  Y = X * k\n}",
    );
    printsAs(
      "g <- function(Frame[Unknown] F, List[Unknown] L, Integer a, Boolean b = TRUE, String s = \"x\") return (Double d, Int n) { d = 1; n = 2 }",
      'g = function(Frame[Unknown] F, List[Unknown] L, Integer a, Boolean b = TRUE, String s = "x") return (Double d, Int n) {\n  d = 1\n  n = 2\n}',
    );
    printsAs("h = function() { print(1) }", "h = function() {\n  print(1)\n}");
  });
  test("externalFunction", () => {
    const source =
      'ext = externalFunction(Matrix[Double] A, int k) return (Matrix[Double] B) implemented in (classname="org.apache.Foo", exectype="mem")';
    const { program, diagnostics } = parse(source);
    assert.deepEqual(diagnostics.filter((d) => d.severity === "error"), []);
    assert.equal(printProgram(program), source + "\n");
  });
  test("source and setwd", () => printsAs('setwd("scripts")\nsource("nn/layers/affine.dml") as affine\nY = affine::forward(X, W, b)'));
  test("a blank line around function definitions", () => {
    printsAs(
      "x = 1\nf = function(int a) return (int b) { b = a }\ng = function(int a) return (int b) { b = a }\ny = f(x)",
      "x = 1\n\nf = function(int a) return (int b) {\n  b = a\n}\n\ng = function(int a) return (int b) {\n  b = a\n}\n\ny = f(x)",
    );
  });
  test("the empty program prints as nothing", () => assert.equal(printProgram(parse("").program), ""));
  test("printStatement takes an indentation", () => {
    const statement = at(parseClean("if (a) { x = 1 } else { y = 2 }").body, 0);
    assert.equal(printStatement(statement, "    "), "    if (a) {\n      x = 1\n    } else {\n      y = 2\n    }");
  });
});

describe("astEquals", () => {
  test("ignores ranges and spellings", () => {
    const a = parse("x = 1000 + f(a, b=2)\n").program;
    const b = parse("x   =   1000+f( a,\n b = 2 )").program;
    assert.ok(astEquals(a, b));
    assert.ok(astEquals(stripRanges(a), a));
  });
  test("compares numbers by value and kind, not spelling", () => {
    assert.ok(astEquals(parse("x = 1e3").program, parse("x = 1000.0").program));
    assert.ok(astEquals(parse("x = 7L").program, parse("x = 7").program));
    assert.ok(!astEquals(parse("x = 1000").program, parse("x = 1000.0").program));
    assert.ok(!astEquals(parse("x = 1").program, parse("x = 2").program));
  });
  test("sees differences in structure, operators, names and strings", () => {
    assert.ok(!astEquals(parse("x = a + b * c").program, parse("x = (a + b) * c").program));
    assert.ok(!astEquals(parse("x = a + b").program, parse("x = a - b").program));
    assert.ok(!astEquals(parse("x = a").program, parse("y = a").program));
    assert.ok(!astEquals(parse('x = "a"').program, parse('x = "b"').program));
    assert.ok(!astEquals(parse("x = f(a)").program, parse("x = f(a, b)").program));
    assert.ok(!astEquals(parse("x = X[i]").program, parse("x = X[i, ]").program));
    assert.ok(!astEquals(parse("if (a) {}").program, parse("if (a) {} else {}").program));
    assert.ok(!astEquals(parse("parfor (i in 1:2, par=4) {}").program, parse("parfor (i in 1:2, par=5) {}").program));
  });
  test("an undefined field counts as absent", () => {
    assert.ok(astEquals({ kind: "if", elseBody: undefined }, { kind: "if" }));
    assert.ok(!astEquals({ kind: "if", elseBody: [] }, { kind: "if" }));
    assert.ok(!astEquals([1], { 0: 1 }));
    assert.ok(astEquals(id("a"), { kind: "identifier", name: "a", range: { start: { line: 3, character: 4 }, end: zero } }));
  });
});
