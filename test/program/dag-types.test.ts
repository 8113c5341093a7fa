// Types of DAG nodes (engine/program/dag-typing.ts) with SystemDS's rules,
// carried across blocks, and type errors as diagnostics with exact ranges.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import type { Diagnostic } from "../../engine/syntax/ast";
import { dagOf, inputType, lines, programDags, typeOf } from "./dag-helpers";
import { at } from "../checked-access";

/** The type of `y = expression` after the given setup lines. */
function typeOfExpression(expression: string, ...setup: string[]): string {
  return typeOf(dagOf(lines(...setup, `y = ${expression}`)), "y");
}

const MATRICES = ["X = rand(rows=3, cols=3)", "v = rand(rows=3, cols=1)"];

describe("scalar types", () => {
  const cases: [string, string][] = [
    ["1 + 2", "scalar<int>"], ["1 - 2", "scalar<int>"], ["2 * 3", "scalar<int>"], ["5 %% 2", "scalar<int>"], ["5 %/% 2", "scalar<int>"],
    ["1 / 2", "scalar<double>"], ["2 ^ 2", "scalar<double>"], ["1 + 2.0", "scalar<double>"], ["1e3 * 2", "scalar<double>"],
    ["min(1, 2)", "scalar<int>"], ["max(1, 2.5)", "scalar<double>"], ["log(8, 2)", "scalar<double>"],
    ["1 < 2", "scalar<boolean>"], ["1 == 2.0", "scalar<boolean>"], ["TRUE & FALSE", "scalar<boolean>"], ["xor(TRUE, FALSE)", "scalar<boolean>"],
    ["!TRUE", "scalar<boolean>"], ["-3", "scalar<int>"], ["-(1 + 2)", "scalar<int>"], ["abs(-2)", "scalar<int>"], ["sqrt(4)", "scalar<double>"],
    ["exp(1)", "scalar<double>"], ["round(2.5)", "scalar<double>"], ["bitwAnd(6, 3)", "scalar<int>"],
    ['"a" + 1', "scalar<string>"], ['1 + "a"', "scalar<string>"], ['"a" + "b"', "scalar<string>"], ['"a" == "b"', "scalar<boolean>"],
    ["TRUE + 1", "scalar<int>"], ["pi * 2", "scalar<double>"],
    ["as.integer(2.5)", "scalar<int>"], ["as.double(2)", "scalar<double>"], ["as.logical(1)", "scalar<boolean>"],
    ["$p", "scalar<unknown>"], ["ifdef($p, 10)", "scalar<int>"], ['ifdef($p, "x")', "scalar<string>"],
    ["toString(1)", "scalar<string>"], ["time()", "scalar<int>"], ["ifelse(TRUE, 1, 2.5)", "scalar<double>"],
    ["z + 1", "unknown"],
  ];
  for (const [expression, expected] of cases) {
    test(`${expression} : ${expected}`, () => assert.equal(typeOfExpression(expression), expected));
  }
});

describe("matrix, frame and list types", () => {
  const cases: [string, string][] = [
    ["X + 1", "matrix<double>"], ["1 - X", "matrix<double>"], ["X * v", "matrix<double>"], ["X > 0", "matrix<double>"],
    ["X & v", "matrix<double>"], ["X %*% v", "matrix<double>"], ["t(X)", "matrix<double>"], ["-X", "matrix<double>"], ["!X", "matrix<double>"],
    ["exp(X)", "matrix<double>"], ["max(X, 0)", "matrix<double>"], ["X / 2", "matrix<double>"],
    ["sum(X)", "scalar<double>"], ["mean(X)", "scalar<double>"], ["var(X)", "scalar<double>"], ["rowSums(X)", "matrix<double>"], ["colMeans(X)", "matrix<double>"],
    ["as.scalar(X[1, 1])", "scalar<double>"], ["X[1, 1]", "matrix<double>"], ["X[1:2, ]", "matrix<double>"],
    ["nrow(X)", "scalar<int>"], ["ncol(X)", "scalar<int>"], ["length(X)", "scalar<int>"],
    ["cbind(X, v)", "matrix<double>"], ["rbind(X, X)", "matrix<double>"], ["diag(v)", "matrix<double>"], ["table(v, v)", "matrix<double>"],
    ["seq(1, 10)", "matrix<double>"], ["matrix(0, rows=2, cols=2)", "matrix<double>"], ["rand(rows=2, cols=2)", "matrix<double>"],
    ['read("f")', "matrix<double>"], ['read("f", data_type="frame")', "frame<unknown>"],
    ['read("f", data_type="scalar", value_type="int")', "scalar<int>"], ['read("f", data_type="list")', "list<unknown>"],
    ["as.matrix(1)", "matrix<double>"], ["as.frame(X)", "frame<unknown>"], ["as.list(X)", "list<unknown>"], ["list(1, X)", "list<unknown>"],
    ["solve(X, v)", "matrix<double>"], ["ifelse(X > 0, X, 0)", "matrix<double>"], ["det(X)", "scalar<double>"],
    ["lm(X, v)", "unknown"], ["foo(X)", "unknown"],
  ];
  for (const [expression, expected] of cases) {
    test(`${expression} : ${expected}`, () => assert.equal(typeOfExpression(expression, ...MATRICES), expected));
  }

  test("left indexing keeps the target's type", () => {
    assert.equal(typeOf(dagOf("X = rand(rows=2, cols=2)\nX[1, 1] = 5"), "X"), "matrix<double>");
    assert.equal(typeOf(dagOf('F = read("f", data_type="frame")\nF[1, 1] = "a"'), "F"), "frame<unknown>");
  });

  test("multi-return builtins and user functions give their declared result types", () => {
    const dag = dagOf("[Q, R] = qr(rand(rows=2, cols=2))");
    assert.deepEqual([typeOf(dag, "Q"), typeOf(dag, "R")], ["matrix<double>", "matrix<double>"]);
    const src = lines("[a, b, c] = f(1)", "f = function(int x) return (matrix[double] a, Integer b, String c) { a = matrix(x, 1, 1); b = x; c = \"s\" }");
    const main = programDags(src).blocks.find((b) => b.functionName === undefined)!.dag;
    assert.deepEqual([typeOf(main, "a"), typeOf(main, "b"), typeOf(main, "c")], ["matrix<double>", "scalar<int>", "scalar<string>"]);
  });
});

describe("types flow between blocks", () => {
  test("a loop body's inputs have the types assigned before the loop", () => {
    const dags = programDags(lines("X = rand(rows=2, cols=2)", "i = 0", "while (i < 3) {", "  Y = X + i", "  i = i + 1", "}"));
    const body = at(dags.blocks, 1).dag;
    assert.equal(inputType(body, "X"), "matrix<double>");
    assert.equal(inputType(body, "i"), "scalar<int>");
  });

  test("a loop's types reach a fixpoint: int joined with double is double", () => {
    const dags = programDags(lines("x = 0", "while (x < 10) {", "  x = x + 0.5", "}", "y = x"));
    const body = at(dags.blocks, 1).dag;
    assert.equal(inputType(body, "x"), "scalar<double>");
    const after = at(dags.blocks, 2).dag;
    assert.equal(inputType(after, "x"), "scalar<double>");
  });

  test("if branches join: same type stays, different value types give an unknown value type", () => {
    const dags = programDags(lines("if (c) { x = 1; m = rand(rows=1, cols=1) } else { x = \"a\"; m = matrix(0, 1, 1) }", "y = x", "n = m"));
    const after = at(dags.blocks, -1).dag;
    assert.equal(inputType(after, "x"), "scalar<unknown>");
    assert.equal(inputType(after, "m"), "matrix<double>");
  });

  test("function bodies start from the declared parameter types; for variables are int for int bounds", () => {
    const src = lines("f = function(matrix[double] A, int k) return (matrix[double] B) { B = A * k; j = k + 1 }", "for (i in 1:10) { z = i + 1 }", "for (i in seq(1, 2, 0.5)) { w = i }");
    const dags = programDags(src);
    const body = dags.blocks.find((b) => b.functionName === "f")!.dag;
    assert.equal(typeOf(body, "B"), "matrix<double>");
    assert.equal(typeOf(body, "j"), "scalar<int>");
    const loops = dags.blocks.filter((b) => b.functionName === undefined);
    assert.equal(typeOf(at(loops, 0).dag, "z"), "scalar<int>");
    assert.equal(typeOf(at(loops, 1).dag, "w"), "scalar<double>");
  });
});

/** [code, "line:char-line:char"] of each diagnostic, 0-based as in LSP. */
function located(diagnostics: readonly Diagnostic[]): [string | undefined, string][] {
  return diagnostics.map((d) => [d.code, `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`]);
}

describe("type errors are diagnostics with exact ranges", () => {
  test("arithmetic other than + on a string", () => {
    const dags = programDags('y = "a" - 1');
    assert.deepEqual(located(dags.diagnostics), [["type-string-operand", "0:4-0:11"]]);
    assert.equal(at(dags.diagnostics, 0).severity, "error");
    assert.equal(at(dags.diagnostics, 0).message, "'-' is not defined on strings (only '+' concatenates)");
  });

  test("%*% with a string operand", () => {
    const dags = programDags(lines("X = rand(rows=2, cols=2)", 's = "b"', "Z = X %*% s"));
    assert.deepEqual(located(dags.diagnostics), [["type-matmul-operand", "2:4-2:11"]]);
    assert.equal(at(dags.diagnostics, 0).message, "'%*%' needs matrices, not a string");
  });

  test("as.scalar of a scalar", () => {
    const dags = programDags("x = 1\ns = as.scalar(x)");
    assert.deepEqual(located(dags.diagnostics), [["type-as-scalar", "1:4-1:16"]]);
  });

  test("a boolean matrix combined with a frame", () => {
    const dags = programDags(lines('F = read("f", data_type="frame")', "M = rand(rows=2, cols=2)", "B = (M > 0) + F"));
    // A parenthesized operand's range covers its parentheses: the sum starts at "(".
    assert.deepEqual(located(dags.diagnostics), [["type-matrix-frame", "2:4-2:15"]]);
  });

  test("a list operand, a string in a math function, indexing a scalar, a matrix and a string", () => {
    const src = lines("L = list(1, 2)", "a = L * 2", 'b = exp("e")', "x = 5", "c = x[1, 1]", "X = rand(rows=2, cols=2)", 'd = X + "s"');
    assert.deepEqual(located(programDags(src).diagnostics), [
      ["type-list-operand", "1:4-1:9"],
      ["type-string-operand", "2:4-2:12"],
      ["type-index-scalar", "4:4-4:11"],
      ["type-string-operand", "6:4-6:11"],
    ]);
  });

  test("an error is reported at each place it is written, even where the node is shared", () => {
    assert.deepEqual(located(programDags('a = "a" - 1\nb = "a" - 1').diagnostics), [
      ["type-string-operand", "0:4-0:11"],
      ["type-string-operand", "1:4-1:11"],
    ]);
  });

  test("errors in conditions are reported once, however many rounds the loop's types take", () => {
    const src = lines('s = "a"', "x = 0", "while (s - 1 > x) {", "  x = x + 0.5", "}");
    assert.deepEqual(located(programDags(src).diagnostics), [["type-string-operand", "2:7-2:12"]]);
  });

  test("unknown types never give errors; valid string uses give none", () => {
    const src = lines("y = z - 1", "w = q %*% r", "s = as.scalar(u)", 'msg = "n=" + 1 + ", ok=" + TRUE', 'e = msg == "x"', 'print("a" + y)');
    assert.deepEqual(programDags(src).diagnostics, []);
  });
});
