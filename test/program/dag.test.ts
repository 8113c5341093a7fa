// The linear-algebra DAG of a basic block (engine/program/dag-build.ts):
// hash-consing, variable resolution, left indexing, multi-assignment, sinks,
// the mapping of DML builtins to node kinds, and the printed form.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { buildBlockDag, buildProgramDags, createDagContext, formStatementBlocks, printDag, type BasicBlock, type BlockDag } from "../../engine/program";
import { parse } from "../../engine/syntax/parse";
import { dagOf, lines, parsed, programDags, tree, typeOf, valueOf } from "./dag-helpers";
import { at, defined } from "../checked-access";

const count = (dag: BlockDag, kind: string) => dag.nodes.filter((n) => n.op.kind === kind).length;

/** The main program's DAGs (function bodies left out). */
function mainDags(source: string): BlockDag[] {
  return programDags(source).blocks.filter((b) => b.functionName === undefined).map((b) => b.dag);
}

describe("hash-consing: equal sub-expressions once", () => {
  test("A %*% B twice is one node", () => {
    const dag = dagOf("Y = A %*% B\nZ = A %*% B");
    assert.equal(count(dag, "matmul"), 1);
    assert.equal(dag.outputs.get("Y"), dag.outputs.get("Z"));
    assert.equal(count(dag, "input"), 2);
  });

  test("shared sub-trees across statements: t(X) %*% X built once", () => {
    const dag = dagOf("s = sum(t(X) %*% X)\nG = t(X) %*% X + 1");
    assert.equal(count(dag, "transpose"), 1);
    assert.equal(count(dag, "matmul"), 1);
    assert.equal(valueOf(dag, "G"), "(matmul(transpose(X), X) + 1)");
  });

  test("the key is op + inputs: no algebraic normalisation (A + B and B + A differ)", () => {
    const dag = dagOf("Y = A + B\nZ = B + A");
    assert.notEqual(dag.outputs.get("Y"), dag.outputs.get("Z"));
  });

  test("int 1 and double 1.0 are different literals; equal literals are one node", () => {
    const dag = dagOf("a = x + 1\nb = x + 1.0\nc = y + 1");
    assert.equal(dag.nodes.filter((n) => n.op.kind === "literal").length, 2);
    assert.notEqual(dag.outputs.get("a"), dag.outputs.get("b"));
  });

  test("rand without seed (or seed=-1) is never merged; with a seed it is", () => {
    assert.equal(count(dagOf("R1 = rand(rows=2, cols=2)\nR2 = rand(rows=2, cols=2)"), "rand"), 2);
    assert.equal(count(dagOf("R1 = rand(rows=2, cols=2, seed=-1)\nR2 = rand(rows=2, cols=2, seed=-1)"), "rand"), 2);
    assert.equal(count(dagOf("R1 = rand(rows=2, cols=2, seed=3)\nR2 = rand(rows=2, cols=2, seed=3)"), "rand"), 1);
  });

  test("read, print and calls with unknown effects are never merged", () => {
    assert.equal(count(dagOf('A = read("a")\nB = read("a")'), "read"), 2);
    const dag = dagOf('print("x")\nprint("x")\nk1 = kmeans(X, 3)\nk2 = kmeans(X, 3)');
    assert.equal(dag.nodes.filter((n) => n.op.kind === "call" && n.op.name === "print").length, 2);
    assert.notEqual(dag.outputs.get("k1"), dag.outputs.get("k2"));
  });

  test("user-function calls are never merged; pure builtins are", () => {
    const dags = mainDags("y = f(x) + f(x)\nz = solve(A, b) + solve(A, b)\nf = function(double a) return (double b) { b = a }");
    const [calls, solves] = [at(dags, 0), at(dags, 1)];
    assert.equal(calls.nodes.filter((n) => n.op.kind === "call" && n.op.user).length, 2);
    assert.equal(solves.nodes.filter((n) => n.op.kind === "call" && n.op.name === "solve").length, 1);
  });

  test("node inputs always have smaller ids", () => {
    const dag = dagOf("x = a + 1\ny = t(x) %*% x\nx = y - a\nX[1, ] = x");
    for (const node of dag.nodes) for (const input of node.inputs) assert.ok(input < node.id);
  });
});

describe("variables within a block", () => {
  test("reads resolve to the latest assignment; unassigned names become input nodes", () => {
    const dag = dagOf("x = a + 1\ny = x * 2\nx = y - a\nz = x");
    assert.equal(valueOf(dag, "z"), "(((a + 1) * 2) - a)");
    assert.deepEqual([...dag.inputs.keys()], ["a"]);
    assert.deepEqual([...dag.outputs.keys()], ["x", "y", "z"]);
    assert.equal(dag.outputs.get("x"), dag.outputs.get("z"));
  });

  test("a read before the block's own assignment is the live-in value", () => {
    const dag = dagOf("i = i + 1\nj = i * 2");
    assert.equal(valueOf(dag, "j"), "((i + 1) * 2)");
    assert.deepEqual([...dag.inputs.keys()], ["i"]);
  });

  test("+= adds to the current value; prefix - is unary, on a number literal it folds; prefix + is no node", () => {
    const dag = dagOf("x += e\ny = -x\nz = -5 + +w\nb = !c");
    assert.equal(valueOf(dag, "x"), "(x + e)");
    assert.equal(valueOf(dag, "y"), "-((x + e))");
    assert.equal(valueOf(dag, "z"), "(-5 + w)");
    assert.equal(valueOf(dag, "b"), "!(c)");
  });

  test("$params are parameter nodes; ifdef gives the default as input; Inf, NaN and pi are literals unless assigned", () => {
    const dag = dagOf("k = ifdef($k, 10)\nf = $file\nx = pi * r + Inf");
    assert.equal(valueOf(dag, "k"), "$k(10)");
    assert.equal(valueOf(dag, "f"), "$file");
    assert.equal(valueOf(dag, "x"), `((${Math.PI} * r) + Infinity)`);
    assert.equal(valueOf(dagOf("pi = 3\nx = pi"), "x"), "3");
  });

  test("&& and || (rejected by SystemDS) read as & and |", () => {
    // The syntax stage reports them as errors; the DAG still shows what the user meant.
    const dags = buildProgramDags(parse("z = a && b || c").program);
    assert.equal(valueOf(at(dags.blocks, 0).dag, "z"), "((a & b) | c)");
  });
});

describe("indexing", () => {
  test("right indexing: index(X, rl, ru, cl, cu), the literal \":\" (ALL_INDICES) for an omitted part, i for i:i", () => {
    const dag = dagOf("a = X[i, j]\nb = X[1:n, ]\nc = X[, 2]\nd = X[i]");
    assert.equal(valueOf(dag, "a"), "index(X, i, i, j, j)");
    assert.equal(valueOf(dag, "b"), 'index(X, 1, n, ":", ":")');
    assert.equal(valueOf(dag, "c"), 'index(X, ":", ":", 2, 2)');
    assert.equal(valueOf(dag, "d"), 'index(X, i, i, ":", ":")');
  });

  test("X[i, j] = v is leftIndex(X, v, bounds), the new value of X", () => {
    const dag = dagOf("X[i, j] = v\nZ = X + 1");
    assert.equal(valueOf(dag, "X"), "leftIndex(X, v, i, i, j, j)");
    assert.equal(valueOf(dag, "Z"), "(leftIndex(X, v, i, i, j, j) + 1)");
  });

  test("ranges and omitted parts on the left; += on an indexed target", () => {
    assert.equal(valueOf(dagOf("X[a:b, ] = Y[, c:d]"), "X"), 'leftIndex(X, index(Y, ":", ":", c, d), a, b, ":", ":")');
    assert.equal(valueOf(dagOf("X[, 2] += v"), "X"), 'leftIndex(X, (index(X, ":", ":", 2, 2) + v), ":", ":", 2, 2)');
  });

  test("successive left indexings chain", () => {
    assert.equal(valueOf(dagOf("X = matrix(0, rows=2, cols=2)\nX[1, 1] = 5\nX[2, 2] = 7"), "X"),
      "leftIndex(leftIndex(matrix(0, rows=2, cols=2), 5, 1, 1, 1, 1), 7, 2, 2, 2, 2)");
  });
});

describe("multi-assignment and sinks", () => {
  test("[Q, R] = qr(A): one call node per result, output 0 and 1, same inputs", () => {
    const dag = dagOf("[Q, R] = qr(A)");
    assert.equal(valueOf(dag, "Q"), "qr(A)");
    assert.equal(valueOf(dag, "R"), "qr#1(A)");
    const [q, r] = ["Q", "R"].map((name) => at(dag.nodes, defined(dag.outputs.get(name), `an output ${name}`)));
    assert.deepEqual(defined(q, "Q's node").inputs, defined(r, "R's node").inputs);
  });

  test("a user function's results, typed by its declaration", () => {
    const src = lines("[m, s] = stats(X)", "stats = function(matrix[double] X) return (matrix[double] m, double s) { m = colMeans(X); s = sum(X) }");
    const dag = at(mainDags(src), 0);
    assert.equal(valueOf(dag, "m"), "user:stats(X)");
    assert.equal(valueOf(dag, "s"), "user:stats#1(X)");
    assert.equal(printDag(dag).split("\n").slice(1, 3).join("\n"), lines(
      "%1 = call[user stats](%0) : matrix<double>  @1:10",
      "%2 = call[user stats#1](%0) : scalar<double>  @1:10",
    ));
  });

  test("print, write, stop, assert and bare calls are sinks, in order", () => {
    const dag = dagOf('print("a")\nwrite(X, "f")\nassert(x > 0)\nfoo(x)\nsum(X)');
    assert.deepEqual(dag.sinks.map((s) => tree(dag, s.node)), ['print("a")', 'write(X, "f")', "assert((x > 0))", "foo(x)", "full-sum(X)"]);
    assert.equal(dag.outputs.size, 0);
    assert.equal(at(mainDags('stop("no")'), 0).sinks.length, 1);
  });

  test("source and setwd add nothing", () => {
    const program = parsed('source("u.dml") as u\nsetwd("d")');
    const block = at(formStatementBlocks(program).main, 0);
    assert.equal(block.kind, "basic");
    const dag = buildBlockDag(block as BasicBlock, createDagContext(program));
    assert.deepEqual([dag.nodes.length, dag.sinks.length, dag.outputs.size], [0, 0, 0]);
  });
});

describe("builtins map to node kinds", () => {
  const cases: [string, string][] = [
    ["t(X)", "transpose(X)"],
    ["sum(X)", "full-sum(X)"], ["mean(X)", "full-mean(X)"], ["avg(X)", "full-mean(X)"], ["min(X)", "full-min(X)"],
    ["max(X)", "full-max(X)"], ["prod(X)", "full-prod(X)"], ["var(X)", "full-var(X)"], ["sd(X)", "full-sd(X)"],
    ["rowSums(X)", "row-sum(X)"], ["colSums(X)", "col-sum(X)"], ["rowMeans(X)", "row-mean(X)"], ["colMeans(X)", "col-mean(X)"],
    ["rowMaxs(X)", "row-max(X)"], ["colMaxs(X)", "col-max(X)"], ["rowMins(X)", "row-min(X)"], ["colMins(X)", "col-min(X)"],
    ["rowProds(X)", "row-prod(X)"], ["colProds(X)", "col-prod(X)"], ["rowVars(X)", "row-var(X)"], ["colVars(X)", "col-var(X)"],
    ["rowSds(X)", "row-sd(X)"], ["colSds(X)", "col-sd(X)"],
    ["min(a, b)", "min(a, b)"], ["max(X, 0)", "max(X, 0)"], ["pmin(a, b)", "min(a, b)"], ["pmax(a, b)", "max(a, b)"],
    ["exp(X)", "exp(X)"], ["log(X)", "log(X)"], ["sqrt(X)", "sqrt(X)"], ["abs(X)", "abs(X)"], ["sign(X)", "sign(X)"],
    ["round(X)", "round(X)"], ["floor(X)", "floor(X)"], ["ceil(X)", "ceil(X)"], ["ceiling(X)", "ceil(X)"],
    ["sin(X)", "sin(X)"], ["tanh(X)", "tanh(X)"], ["sigmoid(X)", "sigmoid(X)"], ["is.na(X)", "is.na(X)"], ["isNaN(X)", "is.nan(X)"],
    ["isInf(X)", "is.infinite(X)"],
    ["log(X, 2)", "log(X, 2)"], ["xor(a, b)", "xor(a, b)"], ["bitwAnd(a, b)", "bitwAnd(a, b)"], ['ppred(X, Y, ">")', "(X > Y)"],
    ["cbind(A, B)", "cbind(A, B)"], ["append(A, B)", "append(A, B)"], ["rbind(A, B, C)", "rbind(A, B, C)"], ["diag(v)", "diag(v)"],
    ["table(a, b)", "table(a, b)"], ["ctable(a, b, w)", "table(a, b, w)"], ["seq(1, n, 2)", "seq(1, n, 2)"],
    ["matrix(0, rows=n, cols=1)", "matrix(0, rows=n, cols=1)"], ["rand(rows=n, cols=m, sparsity=0.1)", "rand(rows=n, cols=m, sparsity=0.1)"],
    ['read("f.csv", format="csv")', 'read("f.csv", format="csv")'], ['readMM("f.mtx")', 'read("f.mtx")'],
    ["as.scalar(X)", "as.scalar(X)"], ["castAsScalar(X)", "as.scalar(X)"], ["as.matrix(x)", "as.matrix(x)"],
    ["as.double(x)", "as.double(x)"], ["as.integer(x)", "as.int(x)"], ["as.logical(x)", "as.boolean(x)"],
    ["as.boolean(x)", "as.boolean(x)"], ["as.frame(X)", "as.frame(X)"], ["as.list(X)", "as.list(X)"],
    ["nrow(X)", "nrow(X)"], ["ncol(X)", "ncol(X)"], ["length(X)", "length(X)"],
    ["min(a, b, c)", "min(a, b, c)"], ["ifelse(a > 0, 1, 2)", "ifelse((a > 0), 1, 2)"], ["solve(A, b)", "solve(A, b)"],
    ["u::f(X)", "user:u::f(X)"],
  ];
  for (const [expression, expected] of cases) {
    test(`${expression} → ${expected}`, () => {
      assert.equal(valueOf(dagOf(`y = ${expression}`), "y"), expected);
    });
  }

  test("append/cbind bind matrices only when the first argument is a matrix or frame (strings join, lists grow)", () => {
    assert.equal(valueOf(dagOf("A = matrix(0, rows=2, cols=2)\ny = append(A, B)"), "y"), "cbind(matrix(0, rows=2, cols=2), B)");
    assert.equal(valueOf(dagOf("F = as.frame(A)\ny = rbind(F, F)"), "y"), "rbind(as.frame(A), as.frame(A))");
    assert.equal(typeOf(dagOf('s = "a"\ny = append(s, "b")'), "y"), "scalar<string>");
    assert.equal(typeOf(dagOf("l = list(1)\ny = append(l, 2)"), "y"), "list<unknown>");
    assert.equal(typeOf(dagOf("l = list(1, 2)\ny = cbind(l)"), "y"), "matrix<double>");
  });

  test("node kinds of the ambiguous spellings", () => {
    const kindOf = (expression: string) => {
      const dag = dagOf(`y = ${expression}`);
      const op = at(dag.nodes, defined(dag.outputs.get("y"), "an output y")).op;
      return op.kind === "call" ? `call:${op.name}` : op.kind;
    };
    assert.equal(kindOf("log(X)"), "unary");
    assert.equal(kindOf("log(X, 2)"), "binary");
    assert.equal(kindOf("min(X)"), "aggregate");
    assert.equal(kindOf("min(X, 1)"), "binary");
    assert.equal(kindOf("min(a, b, c)"), "call:min");
    assert.equal(kindOf("ifelse(a, b, c)"), "call:ifelse");
  });

  test("a user function hides the builtin of the same name", () => {
    const dag = at(mainDags("y = sum(X)\nsum = function(matrix[double] A) return (double s) { s = 1 }"), 0);
    assert.equal(valueOf(dag, "y"), "user:sum(X)");
  });
});

describe("printDag", () => {
  test("one line per node, then outputs and sinks; sizes and live-out marks when known", () => {
    const src = lines("X = read($X)", "Y = X * 2", "s = sum(Y)", "print(s)", "z = Y");
    const info = at(programDags(src).blocks, 0);
    const sizes = (id: number) => (at(info.dag.nodes, id).type.dataType === "matrix" ? "[?x?]" : undefined);
    assert.equal(printDag(info.dag, sizes), lines(
      "%0 = parameter[$X] : scalar<unknown>  @1:10",
      "%1 = read(%0) : matrix<double>  [?x?]  @1:5",
      "%2 = literal[2] : scalar<int>  @2:9",
      "%3 = binary[*](%1, %2) : matrix<double>  [?x?]  @2:5",
      "%4 = aggregate[sum,full](%3) : scalar<double>  @3:5",
      "%5 = call[print](%4) : unknown  @4:1",
      "X := %1",
      "Y := %3",
      "s := %4",
      "z := %3",
      "sink %5  @4:1",
    ));
  });

  test("doubles keep a decimal point, strings are quoted, named arguments named", () => {
    const dag = dagOf('x = 1.0 + 2.5\ns = "a\\"b"\nb = TRUE\nR = rand(rows=2, cols=2, seed=1)');
    const text = printDag(dag);
    assert.match(text, /literal\[1\.0\] : scalar<double>/);
    assert.match(text, /literal\[2\.5\]/);
    assert.match(text, /literal\["a\\"b"\] : scalar<string>/);
    assert.match(text, /literal\[TRUE\] : scalar<boolean>/);
    assert.match(text, /rand\(rows=%\d+, cols=%\d+, seed=%\d+\)/);
  });
});
