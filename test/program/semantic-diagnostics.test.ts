// Semantic diagnostics (engine/program/semantic-diagnostics.ts) on crafted
// scripts, each problem at its exact line and column: unassigned variables,
// unknown functions and namespaces, arguments, outputs, duplicate functions;
// and none at all on the shipped examples.
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { checkDiagnostics, semanticDiagnostics, type SemanticOptions } from "../../engine/program";
import type { Diagnostic } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

function lines(...text: string[]): string {
  return text.join("\n") + "\n";
}

function diagnose(source: string, options?: SemanticOptions): Diagnostic[] {
  const result = parse(source);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(errors, [], `unexpected syntax errors in:\n${source}`);
  return semanticDiagnostics(result.program, options);
}

/** `line:col severity code`, 1-based, one per diagnostic. */
function brief(source: string, options?: SemanticOptions): string[] {
  return diagnose(source, options).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code}`);
}

function only(source: string, options?: SemanticOptions): Diagnostic {
  const found = diagnose(source, options);
  assert.equal(found.length, 1, JSON.stringify(found, null, 1));
  return at(found, 0);
}

describe("variables used before they are assigned", () => {
  test("never assigned: an error on the use, with the exact range", () => {
    const d = only(lines("x = 1", "y = x + zz"));
    assert.equal(d.severity, "error");
    assert.equal(d.code, "unassigned-variable");
    assert.deepEqual(d.range, { start: { line: 1, character: 8 }, end: { line: 1, character: 10 } });
    assert.match(d.message, /'zz' is not defined: it is never assigned/);
  });

  test("a typo in a variable name gets a suggestion", () => {
    assert.match(only(lines("lambda = 0.1", "r = lamda * 2")).message, /did you mean 'lambda'\?/);
  });

  test("assigned only later: an error that names the line", () => {
    const d = only(lines("w = q + 1", "q = 2"));
    assert.deepEqual([d.severity, d.range.start], ["error", { line: 0, character: 4 }]);
    assert.match(d.message, /'q' is used before it is assigned \(first assigned on line 2\)/);
  });

  test("assigned in a branch that does not reach the use: an error", () => {
    const d = only(lines("if (TRUE) {", "  x = 1", "} else {", "  print(x)", "}"));
    assert.equal(d.severity, "error");
    assert.match(d.message, /'x' is not assigned on any path that reaches this use \(it is assigned on line 2\)/);
  });

  test("if without else: a warning saying the path that misses it", () => {
    const d = only(lines("c = 3", "if (c > 1) {", "  y = 1", "}", "print(y)"));
    assert.deepEqual([d.severity, d.code, d.range.start], ["warning", "maybe-unassigned", { line: 4, character: 6 }]);
    assert.equal(d.message, "'y' may be used before it is assigned (it is not assigned when the if condition on line 2 is false)");
  });

  test("assigned only in the else branch: the condition is true on the missing path", () => {
    const d = only(lines("c = 3", "if (c > 1) {", "  print(c)", "} else {", "  y = 2", "}", "z = y"));
    assert.match(d.message, /when the if condition on line 2 is true/);
  });

  test("assigned in both branches, nested ifs, else-if chains: fine", () => {
    const src = lines(
      "c = 3",
      "if (c > 1) { y = 1 } else { y = 2 }",
      "if (c > 2) { z = 1 } else if (c > 1) { z = 2 } else { z = 3 }",
      "print(y + z)",
    );
    assert.deepEqual(brief(src), []);
  });

  test("a branch that stops does not make the other branch conditional", () => {
    assert.deepEqual(brief(lines("c = 3", "if (c > 1) { y = 1 } else { stop(\"bad c\") }", "print(y)")), []);
  });

  test("a while loop may run zero times", () => {
    const d = only(lines("i = 0", "while (i < 3) {", "  last = i", "  i = i + 1", "}", "print(last)"));
    assert.deepEqual([d.severity, d.range.start], ["warning", { line: 5, character: 6 }]);
    assert.match(d.message, /it is assigned only inside the while loop on line 2, which may run zero times/);
  });

  test("read in a loop before the body assigns it: only later iterations have it", () => {
    const d = only(lines("i = 0", "while (i < 3) {", "  if (i > 0) print(prev)", "  prev = i", "  i = i + 1", "}"));
    assert.deepEqual([d.severity, d.range.start], ["warning", { line: 2, character: 19 }]);
    assert.match(d.message, /it is assigned later in the while loop on line 2, so the first iteration reads it before it is assigned/);
  });

  test("loop-carried updates of variables assigned before the loop are fine", () => {
    assert.deepEqual(brief(lines("s = 0", "i = 0", "while (i < 3) {", "  s = s + i", "  i = i + 1", "}", "print(s)")), []);
  });

  test("for over from:to runs at least once in SystemDS (it counts down when from > to)", () => {
    assert.deepEqual(brief(lines("n = 0", "for (i in 1:n) {", "  last = i", "}", "print(last + i)")), []);
    assert.deepEqual(brief(lines("parfor (i in seq(1, 4)) {", "  v = i", "}", "print(v)")), []);
  });

  test("for over seq(from, to, by) may run zero times", () => {
    const d = only(lines("for (i in seq(1, 10, 2)) {", "  v = i", "}", "print(v)"));
    assert.match(d.message, /assigned only inside the for loop on line 1, which may run zero times/);
  });

  test("the loop variable is assigned inside the body; bounds are read before it", () => {
    assert.deepEqual(brief(lines("for (i in 1:3) {", "  print(i)", "}")), []);
    assert.deepEqual(brief(lines("for (i in 1:n) {", "  print(i)", "}")), ["1:13 error unassigned-variable"]);
  });

  test("functions see their parameters, not the main program's variables", () => {
    const src = lines("X = 1", "f = function(double a, double b = 2) return (double c) {", "  c = a + b + X", "}", "y = f(1)");
    const d = only(src);
    assert.deepEqual([d.severity, d.range.start], ["error", { line: 2, character: 14 }]);
    assert.match(d.message, /'X' is not defined: it is never assigned in function 'f' \(a function sees only its parameters/);
  });

  test("function outputs must be assigned when the function returns", () => {
    const never = only(lines("f = function(double a) return (double b) {", "  c = a", "}"));
    assert.deepEqual([never.severity, never.code, never.range.start], ["error", "unassigned-output", { line: 0, character: 38 }]);
    assert.equal(never.message, "function 'f' never assigns its output 'b'");
    const maybe = only(lines("f = function(double a) return (double b) {", "  if (a > 0) b = a", "}"));
    assert.equal(maybe.severity, "warning");
    assert.match(maybe.message, /output 'b' of function 'f' may be unassigned when the function returns \(it is not assigned when the if condition on line 2 is false\)/);
  });

  test("$params, builtin constants and exists(name) are not reads", () => {
    assert.deepEqual(brief(lines("x = $X + pi + Inf", "k = ifdef($k, 3)", "if (exists(Y)) print(\"yes\")", "z = NaN")), []);
  });

  test("+= and indexed assignment read their target", () => {
    assert.deepEqual(brief(lines("acc += 1", "M[1, 1] = 2")), ["1:1 error unassigned-variable", "2:1 error unassigned-variable"]);
  });

  test("a statement reads before it writes: x = x + 1 on an unassigned x", () => {
    assert.deepEqual(brief(lines("x = x + 1")), ["1:5 error unassigned-variable"]);
  });

  test("each variable is reported once per scope, at its first use", () => {
    assert.deepEqual(brief(lines("a = u + 1", "b = u + 2", "f = function(double p) return (double q) { q = u }")), [
      "1:5 error unassigned-variable",
      "3:48 error unassigned-variable",
    ]);
  });

  test("multi-assignment targets are assigned", () => {
    assert.deepEqual(brief(lines("A = matrix(1, rows=2, cols=2)", "[e, V] = eigen(A)", "print(sum(e) + sum(V))")), []);
  });
});

describe("unknown functions", () => {
  test("an unknown name with a did-you-mean suggestion, on the callee", () => {
    const d = only(lines("X = rand(rows=2, cols=2)", "s = colSum(X)"));
    assert.deepEqual([d.severity, d.code], ["error", "unknown-function"]);
    assert.deepEqual(d.range, { start: { line: 1, character: 4 }, end: { line: 1, character: 10 } });
    assert.equal(d.message, "unknown function 'colSum'; did you mean 'colSums'?");
  });

  test("suggestions include the script's functions, and case-insensitive matches come first", () => {
    assert.match(only(lines("baar = function(double a) return (double b) { b = a }", "x = bar(1)")).message, /did you mean 'baar'\?/);
    assert.match(only(lines("x = nRow(3)")).message, /did you mean 'nrow'\?/);
  });

  test("user functions may be defined after their use, and hide builtins of the same name", () => {
    const src = lines("y = sum(1, 2)", "sum = function(double a, double b) return (double c) { c = a + b }");
    assert.deepEqual(brief(src), []);
  });

  test("DML-bodied builtins are known, with or without a known signature (without an installation: one notice, at the first call)", () => {
    assert.deepEqual(brief(lines("X = rand(rows=9, cols=3)", "y = rand(rows=9, cols=1)", "B = lm(X=X, y=y)", "M = randomForest(X, y, 1, 2)")), ["3:5 information systemds-installation"]);
  });

  test("rand is matched case-insensitively, like SystemDS does", () => {
    assert.deepEqual(brief(lines("X = Rand(rows=2, cols=2)")), []);
  });

  test("ns::f needs a source(...) as ns", () => {
    const d = only(lines("x = utils::helper(1)"));
    assert.deepEqual([d.severity, d.code, d.range.start], ["error", "unknown-namespace", { line: 0, character: 4 }]);
    assert.equal(d.message, "namespace 'utils' is not defined: no source(...) as utils");
  });

  test("ns::f is checked against the sourced file when it can be read", () => {
    const lib = lines("helper = function(double a) return (double b) { b = a }");
    const readFile = (p: string) => (p === "lib/utils.dml" ? lib : undefined);
    const src = lines('source("lib/utils.dml") as utils', "x = utils::helper(1)", "y = utils::helpr(1)", "z = utils::helper(1, 2)");
    assert.deepEqual(brief(src, { readFile }), ["3:5 error unknown-function", "4:22 error argument-count"]);
    assert.match(at(diagnose(src, { readFile }), 0).message, /'helpr' is not defined in 'lib\/utils.dml' \(namespace utils\); did you mean 'helper'\?/);
  });

  test("a sourced file that cannot be found is an error at its source(); calls into it are not checked", () => {
    const src = lines('source("missing.dml") as m', "x = m::anything(1, 2, 3)", "y = m::other()");
    assert.deepEqual(brief(src, { readFile: () => undefined }), ["1:1 error source-not-found"]);
    assert.match(at(diagnose(src, { readFile: () => undefined }), 0).message, /cannot read source file 'missing.dml': no such file/);
    assert.deepEqual(brief(lines('source("a/b.dml")', 'source("c.dml") as c'), { readFile: () => undefined }), ["1:1 error source-not-found", "2:1 error source-not-found"]);
    // Without a reader (no file system) nothing is known about the file: no error.
    assert.deepEqual(brief(src), []);
    // SystemDS's bundled library (nn/..., scripts/...) is found in its jar: no error when there is no local copy.
    assert.deepEqual(brief(lines('source("nn/layers/affine.dml") as affine', 'source("./scripts/builtin/x.dml") as x', 'source("builtin/y.dml") as y', 'source("staging/fm.dml") as fm'), { readFile: () => undefined }), []);
    // setwd moves where SystemDS looks: unknown here, so no error.
    assert.deepEqual(brief(lines('setwd("elsewhere")', 'source("missing.dml") as m'), { readFile: () => undefined }), []);
  });

  test("files sourced without a namespace add their functions, or make unknown names a warning", () => {
    const readFile = (p: string) => (p === "fns.dml" ? lines("g = function(double a) return (double b) { b = a }") : undefined);
    assert.deepEqual(brief(lines('source("fns.dml")', "x = g(1)"), { readFile }), []);
    const found = diagnose(lines('source("other.dml")', "x = g(1)"), { readFile });
    const [missing, d] = [at(found, 0), at(found, 1)];
    assert.equal(missing.code, "source-not-found");
    assert.equal(d.severity, "warning");
    assert.match(d.message, /it may come from 'other.dml', which could not be read/);
  });

  test("one namespace bound to two files is an error", () => {
    assert.deepEqual(brief(lines('source("a.dml") as u', 'source("b.dml") as u')), ["2:20 error namespace-conflict"]);
  });
});

describe("arguments", () => {
  test("native builtins: the argument count, on the extra arguments", () => {
    const d = only(lines("X = rand(rows=2, cols=2)", "t1 = sum(X, X)"));
    assert.deepEqual([d.code, d.range], ["argument-count", { start: { line: 1, character: 12 }, end: { line: 1, character: 13 } }]);
    assert.equal(d.message, "'sum' takes 1 argument but 2 were given");
    assert.equal(only(lines("n = nrow()")).message, "'nrow' needs 1 argument but 0 were given");
    assert.equal(only(lines("t = time(1)")).message, "'time' takes no arguments but 1 was given");
  });

  test("a user function called with named and positional arguments or too many: an error, but only a warning inside an if or loop body (SystemDS validates those as conditional)", () => {
    const f = "f = function(double a, double b) return (double c) { c = a + b }";
    assert.deepEqual(brief(lines(f, "x = f(1, b=2)")), ["2:5 error mixed-arguments"]);
    assert.deepEqual(brief(lines(f, "for (i in 1:3) { x = f(i, b=2) }", "if (TRUE) { y = f(1, b=2) } else { y = 0 }", "while (FALSE) { z = f(1, b=2) }")), ["2:22 warning mixed-arguments", "3:17 warning mixed-arguments", "4:21 warning mixed-arguments"]);
    assert.match(at(diagnose(lines(f, "for (i in 1:3) { x = f(i, b=2) }")), 0).message, /only warns about this inside an if, while or for body/);
    // Too many arguments: the same (FunctionCallIdentifier's count check is conditional too).
    assert.deepEqual(brief(lines(f, "x = f(1, 2, 3)", "for (i in 1:3) { y = f(1, 2, 3) }")), ["2:13 error argument-count", "3:30 warning argument-count"]);
    // Inside a function body but outside any branch: still an error.
    assert.deepEqual(brief(lines(f, "g = function(double a) return (double d) { d = f(a, b=1) }")), ["2:48 error mixed-arguments"]);
  });

  test("signatures of current SystemDS: write(X, file, format); lstm_backward with the forward caches", () => {
    const X = "X = matrix(1, rows=2, cols=2)";
    assert.deepEqual(brief(lines(X, 'write(X, "out.csv", "text")', 'write(X, "out.csv", format="csv")')), []);
    assert.deepEqual(brief(lines(X, 'write(X, "out.csv", "text", "extra")')).map((d) => d.split(" ").slice(1).join(" ")), ["error argument-count"]);
    // lstm returns 2, 3 (one cache) or 5 (three caches) results depending on the release.
    assert.deepEqual(brief(lines(X, "[o, c] = lstm(X, X, X, X, X, FALSE)", "[o2, c2, s] = lstm(X, X, X, X, X, FALSE)")), []);
    const args = "X, X, X, X, X, FALSE, X, X";
    assert.deepEqual(brief(lines(X, `[a, b, c, d, e] = lstm_backward(${args})`, `[a, b, c, d, e] = lstm_backward(${args}, X, X, X)`)), []);
    assert.deepEqual(brief(lines(X, `[a, b, c, d, e] = lstm_backward(${args}, X, X, X, X)`)).map((d) => d.split(" ").slice(1).join(" ")), ["error argument-count"]);
  });

  test("variadic builtins accept any number of arguments", () => {
    assert.deepEqual(brief(lines("A = matrix(1, rows=2, cols=2)", "B = cbind(A, A, A, A)", "m = min(1, 2, 3, 4)", "L = list(a=1, b=A)", 'print("%d %d", 1, 2)')), []);
  });

  test("unknown named argument with a suggestion, on the argument name", () => {
    const d = diagnose(lines("X = rand(rows=2, cols=2)", 'R = removeEmpty(target=X, margn="rows")'));
    assert.deepEqual(d.map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${x.code}`), ["2:5 missing-argument", "2:27 unknown-argument"]);
    assert.equal(at(d, 1).message, "'removeEmpty' has no parameter 'margn'; did you mean 'margin'?");
    assert.deepEqual(at(d, 1).range.end, { line: 1, character: 31 });
    assert.equal(at(d, 0).message, "'removeEmpty' is missing the argument 'margin'");
  });

  test("rand takes only named arguments; read takes its file by position", () => {
    assert.deepEqual(brief(lines("X = rand(10, 10)")), ["1:10 error positional-argument"]);
    assert.deepEqual(brief(lines('X = read("x.csv", format="csv", header=TRUE)')), []);
    assert.match(only(lines('X = read("x.csv", formt="csv")')).message, /'read' has no parameter 'formt'; did you mean 'format'\?/);
  });

  test("matrix: at least 3 arguments, only the first unnamed when names are used", () => {
    assert.deepEqual(brief(lines("M = matrix(0, 3)")), ["1:5 error argument-count"]);
    assert.deepEqual(brief(lines("M = matrix(0, 3, cols=2)")), ["1:15 error mixed-arguments"]);
    assert.deepEqual(brief(lines('M = matrix("1 2 3 4", 2, 2)', "N = matrix(0, rows=2, cols=2)")), []);
  });

  test("user functions: too many, unknown name, missing required, mixed, given twice", () => {
    const f = "f = function(matrix[double] A, double k = 1) return (matrix[double] R) { R = A * k }";
    const X = "X = matrix(1, rows=2, cols=2)";
    assert.deepEqual(brief(lines(f, X, "g = f(X, 2, 3)")), ["3:13 error argument-count"]);
    assert.equal(only(lines(f, X, "g = f(X, 2, 3)")).message, "function 'f' takes at most 2 positional arguments but 3 were given");
    assert.equal(only(lines(f, X, "g = f(A=X, kk=2)")).message, "function 'f' has no parameter 'kk'; did you mean 'k'?");
    assert.equal(only(lines(f, X, "g = f(k=2)")).message, "function 'f' is missing the argument 'A'");
    assert.equal(only(lines(f, X, "g = f(X, k=2)")).code, "mixed-arguments");
    assert.equal(only(lines(f, X, "g = f(A=X, A=X)")).message, "argument 'A' of function 'f' is given twice");
    assert.deepEqual(brief(lines(f, X, "g = f(X)", "h = f(A=X, k=3)")), []);
  });

  test("DML-bodied builtins: argument problems are warnings (signatures vary by SystemDS release)", () => {
    const src = lines("X = rand(rows=9, cols=3)", "y = rand(rows=9, cols=1)", "B = lm(X=X, y=y, regs=0.1)", "C = lm(X, y=y)", "D = lm(X=X)");
    assert.deepEqual(brief(src), ["3:5 information systemds-installation", "3:18 warning unknown-argument", "4:5 warning mixed-arguments", "5:5 warning missing-argument"]);
  });

  test("printf-style print needs a string literal first; stop takes one argument", () => {
    assert.deepEqual(brief(lines("x = 1", "print(x, 2)")), ["2:7 error print-format"]);
    assert.deepEqual(brief(lines('stop("a", "b")')), ["1:11 error argument-count"]);
    assert.deepEqual(brief(lines('print(msg="x")')), ["1:7 error named-argument"]);
  });
});

describe("outputs and assignment targets", () => {
  test("multi-return builtins need the right number of targets", () => {
    const A = "A = matrix(1, rows=2, cols=2)";
    assert.equal(only(lines(A, "[a, b, c] = eigen(A)")).message, "'eigen' returns 2 values, but 3 targets are assigned");
    assert.equal(only(lines(A, "e = eigen(A)")).message, "'eigen' returns 2 values and must be called as a multi-assignment [a, b, ...] = eigen(...)");
    assert.deepEqual(brief(lines(A, "[Q, R] = qr(A)", "[P, L, U] = lu(A)", "[U2, S, V] = svd(A)")), []);
    assert.equal(only(lines(A, "[s, t] = sum(A)")).message, "'sum' returns a single value, but 2 targets are assigned");
  });

  test("user functions: not more targets than outputs; no value from a function without outputs", () => {
    const f = ["f = function(double a) return (double b, double c) { b = a", "c = a }"];
    assert.deepEqual(brief(lines(...f, "[x, y] = f(1)", "[z] = f(1)", "w = f(1)")), []);
    const more = only(lines(...f, "[x, y, z] = f(1)"));
    assert.deepEqual([more.code, more.range.start, more.message], ["output-count", { line: 2, character: 12 }, "function 'f' returns 2 values, but 3 targets are assigned"]);
    const g = "g = function(double a) { print(a) }";
    assert.equal(only(lines(g, "x = g(1) + 1")).message, "function 'g' returns no value");
    assert.deepEqual(brief(lines(g, "g(1)")), []);
    // SystemDS binds min(#targets, #outputs) results of a single assignment: valid, a warning says x gets nothing.
    assert.deepEqual(brief(lines(g, "x = g(1)")), ["2:5 warning output-count"]);
    assert.deepEqual(brief(lines(g, "if (g(1)) { y = 1 }")), ["2:5 error output-count"]);
    assert.deepEqual(brief(lines(g, "[u, v] = g(1)")), ["2:10 error output-count"]);
  });

  test("statement functions return nothing", () => {
    assert.equal(only(lines('x = print("a")')).message, "'print' is a statement and returns no value");
  });
});

describe("definitions", () => {
  test("two functions with one name: Function Name Conflict on the second", () => {
    const d = only(lines("f = function(double a) return (double b) { b = a }", "f = function(double a) return (double b) { b = 2 * a }"));
    assert.deepEqual([d.severity, d.code, d.range], ["error", "duplicate-function", { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }]);
    assert.equal(d.message, "Function Name Conflict: 'f' is already defined on line 1; DML has no overloading");
  });

  test("assigning to a builtin constant", () => {
    assert.deepEqual(brief(lines("pi = 3", "[NaN, b] = eigen(matrix(1, rows=1, cols=1))")), ["1:1 error assign-constant", "2:2 error assign-constant"]);
  });

  test("writing to a $param is the parser's diagnostic, not repeated here", () => {
    const result = parse(lines("$x = 1"));
    assert.deepEqual(result.diagnostics.map((d) => d.code), ["assign-parameter"]);
    assert.deepEqual(semanticDiagnostics(result.program), []);
  });
});

describe("checkDiagnostics: what dml check and the language server show", () => {
  test("semantic diagnostics are added when there is no syntax error", () => {
    assert.deepEqual(checkDiagnostics(parse(lines("y = x"))).map((d) => d.code), ["unassigned-variable"]);
  });

  test("after a syntax error only the syntax diagnostics are shown", () => {
    const result = parse(lines("y = x +", "z = colSum(1)"));
    assert.ok(result.diagnostics.some((d) => d.severity === "error"));
    assert.deepEqual(checkDiagnostics(result), result.diagnostics);
  });
});

describe("the shipped examples", () => {
  const examples = path.join(repoRoot, "examples");
  const files = readdirSync(examples).filter((f) => f.endsWith(".dml"));

  test("there are examples", () => {
    assert.ok(files.length >= 10);
  });

  for (const file of files) {
    test(`${file} has no semantic diagnostics`, () => {
      assert.deepEqual(diagnose(readFileSync(path.join(examples, file), "utf8")), []);
    });
  }
});
