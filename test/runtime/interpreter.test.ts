// The embedded interpreter: exact printed output of small scripts (int vs
// double printing, strings, matrices, loops, functions, if/while), runtime
// errors with their positions, cells with state carried, and end-to-end
// runs of the examples on their data.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { createSession, evaluateExpression, javaDouble, matrixText, splitCells, type SessionOptions } from "../../engine/runtime/interpreter";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { repoRoot } from "../repo-root";

function run(script: string, options: SessionOptions = {}): { lines: string[]; errors: string[]; ok: boolean } {
  const lines: string[] = [];
  const session = createSession({ scriptPath: "/tmp/t.dml", ...options, print: (line) => lines.push(line) });
  const result = session.runScript(script);
  return { lines, errors: result.errors, ok: result.ok };
}

function printed(script: string): string {
  const r = run(script);
  assert.deepEqual(r.errors, []);
  return r.lines.join("\n");
}

describe("interpreter: values and printing", () => {
  it("prints doubles as Java's Double.toString and ints without decimals", () => {
    assert.equal(javaDouble(1), "1.0");
    assert.equal(javaDouble(0.5), "0.5");
    assert.equal(javaDouble(1e-4), "1.0E-4");
    assert.equal(javaDouble(12345678), "1.2345678E7");
    assert.equal(javaDouble(1e20), "1.0E20");
    assert.equal(printed("a = 1\nprint(a + 1)\nprint(a / 2)\nprint(4 / 2)\nprint(2.5 * 2)\nprint(0.0001)\nprint(2^3)\nprint(7 %/% 2)\nprint(-7 %% 3)"), "2\n0.5\n2.0\n5.0\n1.0E-4\n8.0\n3\n2");
  });

  it("concatenates strings with numbers and booleans as SystemDS prints them", () => {
    assert.equal(printed('a = 1\nb = 2.5\nprint("s" + a + " " + b + " " + TRUE)\nprint(1 == 1)\nprint(3 > 4)'), "s1 2.5 TRUE\nTRUE\nFALSE");
  });

  it("prints printf-style with several arguments", () => {
    assert.equal(printed('a = 3\nprint("a=%d b=%.3f s=%s e=%e [%5d] [%-4s]", a, 0.5, "x", 12345.678, a, "ab")'), "a=3 b=0.500 s=x e=1.234568e+04 [    3] [ab  ]");
  });

  it("runs matrix operations and toString with 3 decimals", () => {
    const out = printed(
      'X = matrix("1 2 3 4", rows=2, cols=2)\nprint(sum(X))\nprint(max(X))\nprint(as.scalar(X[2, 1]))\nprint(toString(X %*% X))\nprint(toString(t(X)))\nprint(length(X))\nprint(mean(X))',
    );
    assert.equal(out, "10.0\n4.0\n3.0\n7.000 10.000\n15.000 22.000\n\n1.000 3.000\n2.000 4.000\n\n4\n2.5");
  });

  it("solves, orders, reverses, cumsums", () => {
    assert.equal(printed('X = matrix("1 2 3 4", rows=2, cols=2)\nprint(toString(solve(X, matrix("5 6", rows=2, cols=1))))'), "-4.000\n4.500\n");
    assert.equal(printed('print(toString(order(target=matrix("3 1 2", rows=3, cols=1), by=1, decreasing=TRUE)))'), "3.000\n2.000\n1.000\n");
    assert.equal(printed("print(toString(rev(seq(1, 3))))"), "3.000\n2.000\n1.000\n");
    assert.equal(printed('print(toString(cumsum(matrix("1 2 3 4", rows=2, cols=2))))'), "1.000 2.000\n4.000 6.000\n");
    assert.equal(printed('print(ifelse(1 > 0, "pos", "neg"))\nprint(sqrt(16))\nprint(abs(-3))\nprint(exp(0))\nprint(sigmoid(0))'), "pos\n4.0\n3\n1.0\n0.5");
  });
});

describe("interpreter: more builtins", () => {
  it("cholesky, det, outer, median, rowIndexMin, cumprod, typeof", () => {
    const out = printed(
      'X = matrix("4 2 2 3", rows=2, cols=2)\nprint(toString(cholesky(X)))\nprint(det(X))\nprint(toString(outer(seq(1,2), t(seq(1,3)), "*")))\nprint(median(matrix(X, rows=4, cols=1)))\nprint(toString(rowIndexMin(X)))\nprint(toString(cumprod(X)))\nprint(typeof(X))',
    );
    assert.equal(out, "2.000 0.000\n1.000 1.414\n\n8.0\n1.000 2.000 3.000\n2.000 4.000 6.000\n\n2.5\n2.000\n1.000\n\n4.000 2.000\n8.000 6.000\n\nMatrix");
  });
});

describe("interpreter: control flow and functions", () => {
  it("runs if/else, while, and for loops counting down", () => {
    assert.equal(printed('b = 2.5\nif (b > 3) { print("big") } else { print("small") }'), "small");
    assert.equal(printed("i = 0\nwhile (i < 3) { i = i + 1 }\nprint(i)"), "3");
    assert.equal(printed("for (i in 3:1) { print(i) }"), "3\n2\n1");
    assert.equal(printed("for (k in seq(10, 1, -4)) { print(k) }"), "10\n6\n2");
    assert.equal(printed("s = 0\nfor (k in 1:4) { s = s + k }\nprint(s)"), "10");
    assert.equal(printed("s = 0\nparfor (k in 1:4) { s = s + k }\nprint(s)"), "10");
  });

  it("calls user functions with defaults and multiple returns", () => {
    const script = [
      "f = function(double a, double b = 2) return (double s, double p) { s = a + b; p = a * b }",
      "[s, p] = f(3)",
      'print(s + " " + p)',
      "[s, p] = f(3, b=4)",
      'print(s + " " + p)',
      "g = function(int n) return (int r) { if (n <= 1) { r = 1 } else { r = n * g(n - 1) } }",
      "print(g(5))",
    ].join("\n");
    assert.equal(printed(script), "5.0 6.0\n7.0 12.0\n120");
  });

  it("keeps print order with the source inside one block", () => {
    assert.equal(printed('x = 1\nprint("a" + x)\nx = x + 1\nprint("b" + x)'), "a1\nb2");
  });

  it("takes $params typed by SystemDS's rule, or the ifdef default", () => {
    const r = run("x = ifdef($x, 5)\ny = ifdef($y, 1.5)\nprint(x + 1)\nprint(y)", { params: { x: "2" } });
    assert.deepEqual(r.lines, ["3", "1.5"]);
  });
});

describe("interpreter: source() namespaces", () => {
  it("calls a sourced file's functions as ns::f, and reports errors in the sourced file", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dml-source-"));
    writeFileSync(
      path.join(dir, "lib.dml"),
      "sq = function(double x) return (double y) { y = twice(x) * x }\ntwice = function(double x) return (double y) { y = 2 * x }\nbad = function() return (double y) { y = as.scalar(matrix(1, rows=2, cols=2)) }\n",
    );
    const main = path.join(dir, "main.dml");
    const r = run('source("lib.dml") as L\nz = L::sq(3)\nprint(z)\nw = L::bad()', { scriptPath: main });
    assert.deepEqual(r.lines, ["18.0"]);
    assert.deepEqual(r.errors, [`${path.join(dir, "lib.dml")}:3:42: error: as.scalar needs a 1 x 1 matrix, but this one is 2 x 2`]);
  });
});

describe("interpreter: oracle", () => {
  it("evaluates an expression on given inputs, for checking rewrites", () => {
    const X = { kind: "matrix" as const, matrix: DenseMatrix.fromRows([[1, 2], [3, 4], [5, 6]]) };
    const v = { kind: "matrix" as const, matrix: DenseMatrix.fromRows([[1], [-1]]) };
    const inputs = new Map([["X", X], ["v", v]]);
    const a = evaluateExpression("t(X) %*% (X %*% v)", inputs);
    const b = evaluateExpression("(t(X) %*% X) %*% v", inputs);
    assert.equal(a.kind, "matrix");
    assert.equal(matrixText((a as typeof X).matrix), "-9.000\n-12.000\n");
    assert.equal(matrixText((b as typeof X).matrix), "-9.000\n-12.000\n");
    assert.throws(() => evaluateExpression("X %*% X", inputs), /the inner dimensions of %\*% do not match: 3 x 2 %\*% 3 x 2/);
  });
});

describe("interpreter: runtime errors", () => {
  const error = (script: string, options: SessionOptions = {}) => {
    const r = run(script, options);
    assert.equal(r.ok, false);
    return r.errors.join("\n");
  };

  it("reports a dimension mismatch at the operator", () => {
    assert.match(error("X = matrix(1, rows=2, cols=3)\nY = X %*% X"), /^\/tmp\/t\.dml:2:5: error: the inner dimensions of %\*% do not match: 2 x 3 %\*% 2 x 3$/);
  });

  it("reports an index out of range", () => {
    assert.match(error("X = matrix(1, rows=2, cols=3)\nprint(as.scalar(X[3, 1]))"), /^\/tmp\/t\.dml:2:17: error: .*row index out of range/);
  });

  it("reports a missing file with the paths tried, in the words of dml check", () => {
    assert.equal(error('X = read("nope_missing.csv")'), "/tmp/t.dml:1:5: error: cannot read data file 'nope_missing.csv': no such file (looked in /tmp/nope_missing.csv)");
  });

  it("says 'did you mean' for a variable without a value, among the block's and the earlier ones", () => {
    assert.equal(error("lambda = 0.5\ny = 2 * lamda"), "/tmp/t.dml:2:9: error: 'lamda' has no value here; did you mean 'lambda'?");
    assert.equal(error("weights = 1\nwhile (FALSE) {}\nz = weigths + 1"), "/tmp/t.dml:3:5: error: 'weigths' has no value here; did you mean 'weights'?");
    assert.equal(error("z = qqq + 1"), "/tmp/t.dml:1:5: error: 'qqq' has no value here");
  });

  it("names a missing $param, an unknown function and a wrong argument as dml check does", () => {
    assert.equal(error("n = $N + 1"), "/tmp/t.dml:1:5: error: parameter $N has no value: pass N=value, or give a default with ifdef($N, ...)");
    assert.equal(error("twice = function(double a) return (double b) { b = 2 * a }\nx = twicee(3)"), "/tmp/t.dml:2:5: error: unknown function 'twicee'; did you mean 'twice'?");
    assert.equal(error("twice = function(double a) return (double b) { b = 2 * a }\nx = twice(aa=3)"), "/tmp/t.dml:2:5: error: function 'twice' has no parameter 'aa'; did you mean 'a'?");
    assert.equal(error("twice = function(double a) return (double b) { b = 2 * a }\nx = twice()"), "/tmp/t.dml:2:5: error: function 'twice' is missing the argument 'a'");
  });

  it("reports stop() with its message and position, as.scalar of a 2x2, unsupported builtins", () => {
    assert.equal(error('x = 1\nif (x > 0) { stop("bad x") }'), "/tmp/t.dml:2:14: error: bad x");
    assert.equal(error("X = matrix(1, rows=2, cols=2)\ny = as.scalar(X)"), "/tmp/t.dml:2:5: error: as.scalar needs a 1 x 1 matrix, but this one is 2 x 2");
    assert.match(error("X = matrix(1, rows=2, cols=2)\ny = fft(X)"), /2:5: error: builtin fft is not supported by the embedded runtime yet/);
  });

  it("refuses an intermediate above the memory budget, naming the expression", () => {
    assert.match(error("X = rand(rows=100000, cols=100000)", { memoryBudget: 1e9 }), /1:5: error: 'rand\(rows=100000, cols=100000\)' would build a dense 100000 x 100000 matrix: it needs 74\.5 GiB, above the memory budget of 953\.7 MiB/);
  });
});

describe("interpreter: cells and sessions", () => {
  const script = "# %% one\nx = 2\n# %% two\ny = x * 3\nprint(y)\n# %% three\nprint(y + x)";

  it("splits at # %% lines", () => {
    assert.deepEqual(splitCells(script).map((c) => [c.index, c.startLine, c.endLine]), [[1, 0, 1], [2, 2, 4], [3, 5, 6]]);
  });

  it("carries state between cells and reports measured sizes", () => {
    const lines: string[] = [];
    const session = createSession({ print: (l) => lines.push(l) });
    assert.equal(session.runCellsThrough(script, 2).ok, true);
    assert.deepEqual(lines, ["6"]);
    assert.equal(session.runCell("print(y + x)\nM = matrix(0, rows=3, cols=2)\nM[1, 1] = 5").ok, true);
    assert.deepEqual(lines, ["6", "8"]);
    assert.deepEqual(session.variables().find((v) => v.name === "M"), { name: "M", kind: "matrix", rows: 3, cols: 2, nnz: 1 });
  });

  it("stops an endless loop when asked to", () => {
    let polls = 0;
    const r = run("x = 0\nwhile (TRUE) { x = x + 1 }", { shouldInterrupt: () => ++polls > 1000 });
    assert.deepEqual(r.errors, ["/tmp/t.dml:2:1: error: interrupted"]);
  });

  it("keeps line numbers of the whole file in a later cell's errors", () => {
    const lines: string[] = [];
    const session = createSession({ scriptPath: "/tmp/c.dml", print: (l) => lines.push(l) });
    const r = session.runCellsThrough("# %% a\nx = 1\n# %% b\nstop(\"in b\")", 2);
    assert.deepEqual(r.errors, ["/tmp/c.dml:4:1: error: in b"]);
  });
});

describe("interpreter: examples end to end", () => {
  const examples = path.join(repoRoot, "examples");

  it("runs iris_tour.dml and prints 150/4 sizes", () => {
    const r = run(readFileSync(path.join(examples, "iris_tour.dml"), "utf8"), { scriptPath: path.join(examples, "iris_tour.dml") });
    assert.deepEqual(r.errors, []);
    assert.equal(r.lines[0], "rows 150, cols 4");
    assert.equal(r.lines[1], "5.843 3.057 3.758 1.199\n");
  });

  it("runs linreg_cg.dml on iris to the least-squares optimum", () => {
    const file = path.join(examples, "linreg_cg.dml");
    const lines: string[] = [];
    const session = createSession({ scriptPath: file, params: { X: "data/iris_X.csv", Y: "data/iris_y.csv" }, print: (l) => lines.push(l) });
    const result = session.runScript(readFileSync(file, "utf8"));
    assert.deepEqual(result.errors, []);
    assert.match(lines.join("\n"), /R\^2 0\.92999/);
  });
});
