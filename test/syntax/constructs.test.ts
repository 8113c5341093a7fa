import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Statement } from "../../engine/syntax/ast";
import { parse } from "../../engine/syntax/parse";
import { repoRoot } from "../repo-root";
import { rhs, sexpr } from "./sexpr";
import { at } from "../checked-access";

/** Parses text that must be free of diagnostics and returns its statements. */
function statements(text: string): Statement[] {
  const { program, diagnostics } = parse(text);
  assert.deepEqual(diagnostics, [], `diagnostics for ${JSON.stringify(text)}`);
  return program.body;
}

function only(text: string): Statement {
  const body = statements(text);
  assert.equal(body.length, 1);
  return at(body, 0);
}

describe("lexical structure", () => {
  it("numbers: 1, 1L, 1e3, 5., .5, 1.5E-3", () => {
    const values = ["1", "1L", "1e3", "5.", ".5", "1.5E-3"].map((t) => {
      const s = only(`x = ${t}`);
      assert.equal(s.kind, "assign");
      if (s.kind !== "assign" || s.value.kind !== "number") throw new Error("not a number");
      return [s.value.value, s.value.isInteger];
    });
    assert.deepEqual(values, [[1, true], [1, true], [1000, false], [5, false], [0.5, false], [0.0015, false]]);
  });

  it("strings in both quotes with every escape", () => {
    assert.equal(rhs(String.raw`"a\tb\n\"q\" \\ \b\f\r"`), JSON.stringify('a\tb\n"q" \\ \b\f\r'));
    assert.equal(rhs(String.raw`'it\'s "x"'`), JSON.stringify(`it's "x"`));
    assert.equal(rhs('"multi\nline"'), JSON.stringify("multi\nline"));
  });

  it("comments # and /* */ are skipped", () => {
    const body = statements("# line\nx = 1 /* block\n still */ + 2 # tail\n/**/y = 3\n");
    assert.deepEqual(body.map((s) => s.kind === "assign" && sexpr(s.value)), ["(+ 1 2)", "3"]);
  });

  it("$name and $1 parameters, TRUE/FALSE, dotted names, ns::f", () => {
    assert.equal(rhs("$X + $1"), "(+ $X $1)");
    assert.equal(rhs("TRUE & !FALSE"), "(& TRUE (! FALSE))");
    assert.equal(rhs("as.scalar(X[1,1]) + is.na(y)"), "(+ (call as.scalar (index X 1 , 1)) (call is.na y))");
    assert.equal(rhs("order(target=X, by=1, index.return=TRUE)"), "(call order target=X by=1 index.return=TRUE)");
    assert.equal(rhs("nn::forward(X, W)"), "(call nn::forward X W)");
  });

  it("T, F, true, matrix, frame and list are names, not keywords", () => {
    assert.equal(rhs("T + F + true"), "(+ (+ T F) true)");
    statements("matrix = 1\nframe = 2\nlist = 3\n");
  });

  it("a keyword prefix does not make a keyword: iffy, internal, format", () => {
    assert.equal(rhs("iffy + internal + format + TRUEx"), "(+ (+ (+ iffy internal) format) TRUEx)");
  });
});

describe("statements", () => {
  it("assignment with = and <-, indexed targets and +=", () => {
    const body = statements("a = 1\nb <- 2\nX[1:2, ] = Y\nX[, j] = v\nX[i] = 0\ns += 1\nX[, 2] += v\n");
    assert.deepEqual(
      body.map((s) => (s.kind === "assign" ? `${sexpr(s.target)} ${s.op} ${sexpr(s.value)}` : s.kind)),
      ["a = 1", "b <- 2", "(index X 1:2 , _) = Y", "(index X _ , j) = v", "(index X i) = 0", "s += 1", "(index X _ , 2) += v"],
    );
  });

  it("every index shape: X[i,j] X[i,] X[,j] X[a:b,c:d] X[i] X[,] X[] L[[1]]", () => {
    assert.equal(rhs("X[i,j]"), "(index X i , j)");
    assert.equal(rhs("X[i,]"), "(index X i , _)");
    assert.equal(rhs("X[,j]"), "(index X _ , j)");
    assert.equal(rhs("X[a:b,c:d]"), "(index X a:b , c:d)");
    assert.equal(rhs("X[i]"), "(index X i)");
    assert.equal(rhs("X[,]"), "(index X _ , _)");
    assert.equal(rhs("X[]"), "(index X _)");
    assert.equal(rhs("L[[1]]"), "(index L [1])");
  });

  it("multi-assignment, also with one target", () => {
    const s = only("[Q, R] = qr(A)");
    assert.equal(s.kind === "multiAssign" && s.targets.map(sexpr).join(",") + " " + sexpr(s.call), "Q,R (call qr A)");
    assert.equal(only("[c] = g(y)").kind, "multiAssign");
  });

  it("ifdef as the whole right side", () => {
    const s = only("x = ifdef($p, 10)");
    assert.equal(s.kind === "assign" && sexpr(s.value), "(ifdef $p 10)");
  });

  it("call statements, also namespaced, with ; runs", () => {
    const body = statements('print("a");;\nwrite(X, "out.csv", format="csv")\nns::f(1);\nstop("x")\n');
    assert.deepEqual(body.map((s) => s.kind === "callStatement" && s.call.callee.name), ["print", "write", "ns::f", "stop"]);
  });

  it("if / else / else if / dangling else", () => {
    const s = only("if (a) x = 1 else if (b) { y = 2 } else z = 3");
    assert.equal(s.kind, "if");
    if (s.kind !== "if") return;
    assert.equal(s.thenBody.length, 1);
    assert.equal(s.elseBody?.[0]?.kind, "if");
    const nested = only("if (a) if (b) x = 1 else x = 2");
    const inner = nested.kind === "if" ? nested.thenBody[0] : undefined;
    assert.ok(nested.kind === "if" && nested.elseBody === undefined && inner?.kind === "if" && inner.elseBody);
    only("if (a) {}\nelse {}");
    only("if (a) x = 1;;\nelse x = 2;");
  });

  it("for and parfor over ranges and seq, with options", () => {
    const f = only("for (i in seq(1, n, 2)) { s = s + i }");
    assert.ok(f.kind === "for" && f.iterable.kind === "seq" && f.iterable.by && !f.parallel);
    const p = only("parfor (i in 1:n, check=0, opt=CONSTRAINED, mode=REMOTE_SPARK, par=$p) X[i, ] = Y[i, ]");
    assert.ok(p.kind === "for" && p.parallel);
    if (p.kind !== "for") return;
    assert.deepEqual(p.options.map((o) => [o.name, o.text]), [["check", "0"], ["opt", "CONSTRAINED"], ["mode", "REMOTE_SPARK"], ["par", "$p"]]);
    const s = only("for (i in seq(1, 10)) x = i");
    assert.ok(s.kind === "for" && s.iterable.kind === "seq" && s.iterable.by === undefined);
  });

  it("while, with an empty body as a DAG cut", () => {
    const s = only("while (FALSE) {}");
    assert.ok(s.kind === "while" && s.body.length === 0);
  });

  it("function definitions with typed parameters, defaults and returns", () => {
    const s = only(
      "f = function(Matrix[Double] X, int a = 2, int b = a * 2, frame[string] F, list[unknown] L, Boolean v = TRUE)\n  return (matrix[double] Y, double s) {\n  Y = X * a\n  s = sum(Y)\n}",
    );
    assert.equal(s.kind, "function");
    if (s.kind !== "function") return;
    assert.deepEqual(
      s.params.map((p) => [p.type.dataType ?? "", p.type.valueType, p.name.name, p.defaultValue ? sexpr(p.defaultValue) : ""]),
      [["Matrix", "Double", "X", ""], ["", "int", "a", "2"], ["", "int", "b", "(* a 2)"], ["frame", "string", "F", ""], ["list", "unknown", "L", ""], ["", "Boolean", "v", "TRUE"]],
    );
    assert.deepEqual(s.returns.map((p) => p.name.name), ["Y", "s"]);
    assert.equal(s.body.length, 2);
    assert.equal(only("g <- function() { x = 1 };").kind, "function");
    const noReturn = only("h = function(int x) { print(x) }");
    assert.ok(noReturn.kind === "function" && noReturn.returns.length === 0);
  });

  it("functions may be used before their definition", () => {
    const body = statements("y = f(1)\nf = function(int x) return (int y) { y = x }\n");
    assert.deepEqual(body.map((s) => s.kind), ["assign", "function"]);
  });

  it("source and setwd", () => {
    const body = statements('setwd("scripts")\nsource("nn/layers/affine.dml") as affine\nout = affine::forward(X, W, b)\n');
    assert.deepEqual(body.map((s) => s.kind), ["setwd", "source", "assign"]);
    const sourced = at(body, 1);
    assert.ok(sourced.kind === "source" && sourced.path === "nn/layers/affine.dml" && sourced.namespace?.name === "affine");
    const plain = at(parse('source ("Binomial.dml");').program.body, 0);
    assert.ok(plain.kind === "source" && plain.namespace === undefined);
  });

  it("expression lists as arguments", () => {
    assert.equal(rhs("conv2d(X, W, stride=[1,1], input_shape=[N,C,H,W])"), "(call conv2d X W stride=[1 1] input_shape=[N C H W])");
  });

  it("ranges cover the source exactly", () => {
    const s = only("x = foo(a,\n  b)");
    assert.deepEqual(s.range, { start: { line: 0, character: 0 }, end: { line: 1, character: 4 } });
  });
});

describe("the shipped example scripts", () => {
  const folder = join(repoRoot, "examples");
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".dml"))) {
    it(`${file} parses with no diagnostics`, () => {
      const { program, diagnostics } = parse(readFileSync(join(folder, file), "utf8"));
      assert.deepEqual(diagnostics, []);
      assert.ok(program.body.length > 3);
    });
  }
});
