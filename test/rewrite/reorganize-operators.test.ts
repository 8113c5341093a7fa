// rev, roll, reshape, diag, trace and outer as optimizer operators: their
// sizes and constants in the e-graph's analysis (an ill-typed use is
// invalid, as SystemDS's validator rejects it), a finite non-zero cost,
// DML text both ways, roll in the runtime (SystemDS's cyclic shift of rows
// downward), and plans with them that the runtime runs with the same values.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { executionSession } from "../../engine/execution";
import { enodeCost, expressionEGraph, termToDml, type TermShapes } from "../../engine/rewrite";
import type { LaData } from "../../engine/rewrite/analysis";
import { expressionToTerm } from "../../engine/rewrite/expression-term";
import { parseExpression } from "../../engine/rewrite/term-to-dml";
import { REORGANIZE_RULES } from "../../engine/rewrite/rules-reorganize";
import { printed } from "../runtime/run-script";

const SHAPES: TermShapes = {
  A: { rows: 4, cols: 3 },
  S: { rows: 4, cols: 4 },
  u: { rows: 4, cols: 1 },
  r: { rows: 1, cols: 3 },
  Z: { rows: 4, cols: 3, nnz: 0 },
  z: { rows: 4, cols: 1, nnz: 0 },
  E: { rows: 0, cols: 3 },
  s: "scalar",
};

function data(expression: string): LaData {
  const { egraph, root } = expressionEGraph(expression, SHAPES);
  const d = egraph.data(root);
  assert.equal(d.family, "la");
  return d as LaData;
}

function dims(expression: string): string {
  const d = data(expression);
  assert.ok(!d.invalid, `${expression} is valid`);
  return d.stats.type.dataType === "scalar" ? "scalar" : `${d.stats.rows}x${d.stats.cols}`;
}

describe("sizes and validity", () => {
  test("each operator has SystemDS's result dims", () => {
    assert.equal(dims("rev(A)"), "4x3");
    assert.equal(dims("roll(A, 2)"), "4x3");
    assert.equal(dims("matrix(A, rows=2, cols=6)"), "2x6");
    assert.equal(dims("diag(u)"), "4x4");
    assert.equal(dims("diag(S)"), "4x1");
    assert.equal(dims("trace(S)"), "scalar");
    assert.equal(dims("tr(S)"), "scalar");
    assert.equal(dims('outer(u, r, "+")'), "4x3");
    assert.equal(dims('outer(u, r, "<")'), "4x3");
  });

  test("ill-typed uses are invalid: a rule can never produce them", () => {
    for (const expression of ["trace(A)", 'outer(A, r, "+")', 'outer(u, t(A), "*")', "matrix(A, rows=5, cols=2)", "rev(s)", "roll(A, A)", "diag(A)", "trace(s)"]) {
      assert.equal(data(expression).invalid, true, expression);
    }
  });

  test("the non-zeros of rev and roll are those of their input, exactly", () => {
    const d = data("rev(Z)");
    assert.equal(d.stats.nnz, 0);
    assert.equal(d.stats.nnzExact, true);
  });
});

describe("constants", () => {
  test("a zero matrix stays a constant 0 through rev, roll, reshape, t and diag; max, min, mean and trace of it are 0", () => {
    for (const expression of ["rev(Z)", "roll(Z, 1)", "matrix(Z, rows=3, cols=4)", "t(rev(Z))", "diag(z)", "diag(diag(z))"]) assert.equal(data(expression).constant, 0, expression);
    for (const expression of ["max(Z)", "min(rev(Z))", "mean(t(Z))", "trace(diag(z))", "prod(Z)"]) assert.equal(data(expression).constant, 0, expression);
  });

  test("a constant c: diag of a square matrix keeps it, diag of a column vector does not (zeros off the diagonal); trace is n * c", () => {
    assert.equal(data("diag(matrix(2, rows=4, cols=4))").constant, 2);
    assert.equal(data("diag(matrix(2, rows=4, cols=1))").constant, undefined);
    assert.equal(data("diag(matrix(2, rows=1, cols=1))").constant, 2);
    assert.equal(data("trace(matrix(3, rows=4, cols=4))").constant, 12);
    assert.equal(data('outer(matrix(2, rows=4, cols=1), matrix(3, rows=1, cols=3), "*")').constant, 6);
    assert.equal(data('outer(matrix(2, rows=4, cols=1), matrix(3, rows=1, cols=3), "<")').constant, 1);
  });

  test("no constant for an aggregate over no cells, nor for prod of a constant other than 0 and 1", () => {
    assert.equal(data("max(E)").constant, undefined);
    assert.equal(data("prod(matrix(2, rows=4, cols=3))").constant, undefined);
    assert.equal(data("max(matrix(-2, rows=4, cols=3))").constant, -2);
  });
});

test("each operator has a finite, non-zero cost", () => {
  for (const expression of ["rev(A)", "roll(A, 1)", "matrix(A, rows=2, cols=6)", "diag(u)", "diag(S)", "trace(S)", 'outer(u, r, "+")']) {
    const { egraph, root } = expressionEGraph(expression, SHAPES);
    const node = egraph.classOf(root).nodes.find((n) => n.children.length > 0)!;
    const cost = enodeCost(egraph, node, root);
    assert.ok(Number.isFinite(cost) && cost > 0 && cost < 1, `${expression}: ${cost}`);
  }
});

test("DML text both ways", () => {
  const roundTrip = (text: string) => termToDml(expressionToTerm(parseExpression(text)), () => undefined);
  for (const text of ["rev(X)", "roll(X, 2)", "matrix(X, rows=2, cols=6)", "diag(X)", "trace(X)", 'outer(v, r, "+")', 'outer(v, r, "<=")', "max(rev(X))", "mean(t(X))"]) {
    assert.equal(roundTrip(text), text);
  }
  assert.equal(roundTrip("tr(X)"), "trace(X)");
  assert.equal(roundTrip("matrix(0, rows=2, cols=3)"), "matrix(0, rows=2, cols=3)");
});

test("roll in the runtime shifts rows down cyclically (a negative shift moves them up)", () => {
  const script = (shift: number) => `X = matrix("1 2 3 4 5 6", rows=3, cols=2)\nprint(toString(roll(X, ${shift}), decimal=0))`;
  const rows = (shift: number) => printed(script(shift)).trim().split("\n").map((line) => line.trim().split(/\s+/).map(Number));
  assert.deepEqual(rows(1), [[5, 6], [1, 2], [3, 4]]);
  assert.deepEqual(rows(4), [[5, 6], [1, 2], [3, 4]]);
  assert.deepEqual(rows(-1), [[3, 4], [5, 6], [1, 2]]);
  assert.deepEqual(rows(0), [[1, 2], [3, 4], [5, 6]]);
});

test("a rewritten plan with the new operators runs and gives the value as written", () => {
  const script = [
    "X = rand(rows=1000, cols=800, min=-1, max=1, seed=1)",
    "v = rand(rows=1000, cols=1, seed=2)",
    "r = rand(rows=1, cols=800, seed=3)",
    // In a loop of ten runs (a block that runs once is optimized only for about as long as it runs); `a` names sizes of its own, so its rewrite is checked on inputs of their true sizes.
    "for (i in 1:10) {",
    "  a = sum(rev(X)) + max(roll(X, 3)) + mean(matrix(X, rows=800, cols=1000))",
    '  b = sum(outer(v, r, "*"))',
    "}",
    "print(a + b)",
  ].join("\n");
  const outputs: string[][] = [];
  let rewrites = 0;
  for (const plan of ["as-written", "rewritten"] as const) {
    const lines: string[] = [];
    const { session, runner } = executionSession({ plan, print: (line) => lines.push(line) });
    assert.deepEqual(session.runScript(script).errors, []);
    outputs.push(lines);
    if (plan === "rewritten") rewrites = runner.blockTimings().reduce((sum, t) => sum + t.rewrites, 0);
  }
  assert.ok(rewrites >= 1, `${rewrites} rewrites`);
  assert.equal(outputs[0]!.length, 1);
  assert.ok(Math.abs(Number(outputs[0]![0]) - Number(outputs[1]![0])) <= 1e-9 * Math.abs(Number(outputs[0]![0])), `${outputs[0]} vs ${outputs[1]}`);
});

test("every conditional reorganization rule names the fact it relies on, over its own pattern variables", () => {
  const conditional = REORGANIZE_RULES.filter((r) => r.when !== undefined);
  assert.ok(conditional.length >= 8);
  for (const r of conditional) {
    assert.ok(r.because, `${r.name} has a because`);
    for (const variable of r.because.match(/\?\w+/g) ?? []) assert.ok(r.lhs.includes(variable), `${r.name}: ${variable} is in ${r.lhs}`);
  }
});
