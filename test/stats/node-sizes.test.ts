import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DagNode, DagOp, DagType } from "../../engine/program/dag-types";
import { type NodeSizeContext, nodeStats } from "../../engine/stats/sizes/node-sizes";
import { formatStats, matrixStats, type NodeStats, scalarStats } from "../../engine/stats/sizes/node-stats";
import { ALL_INDICES } from "../../engine/program/dag-expressions";
import { at } from "../checked-access";

const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } };
const matrixType: DagType = { dataType: "matrix", valueType: "double" };
const doubleType: DagType = { dataType: "scalar", valueType: "double" };
const intType: DagType = { dataType: "scalar", valueType: "int" };

function node(op: DagOp, arity: number, type: DagType = matrixType, argNames?: (string | undefined)[]): DagNode {
  return { id: 9, op, inputs: Array.from({ length: arity }, (_, i) => i), type, range, ...(argNames ? { argNames } : {}) };
}

const context: NodeSizeContext = {
  input: () => undefined,
  parameter: (name) => (name === "n" ? 7 : undefined),
  read: () => matrixStats(150, 4, 600, true),
  call: () => undefined,
};

function run(op: DagOp, inputs: NodeStats[], type: DagType = matrixType, argNames?: (string | undefined)[]) {
  const result = nodeStats(node(op, inputs.length, type, argNames), inputs, context);
  return { text: formatStats(result.stats), stats: result.stats, errors: result.diagnostics.map((d) => `${d.code}: ${d.message}`) };
}

const X = matrixStats(1000, 200, 2000, true); // 1% dense
const v = matrixStats(200, 1, 200, true);
const dense = matrixStats(1000, 200, 200000, true);
const lit = (value: number | string | boolean, type: DagType = intType) => scalarStats(type, value);

describe("size propagation per operation", () => {
  it("matrix multiply: dims, uniform nnz, inner-dimension error", () => {
    const r = run({ kind: "matmul" }, [X, v]);
    assert.equal(r.stats.rows, 1000);
    assert.equal(r.stats.cols, 1);
    // 1 - (1 - 0.01 * 1)^200
    assert.ok(Math.abs(r.stats.nnz! - 1000 * (1 - Math.pow(0.99, 200))) < 1e-6);
    assert.deepEqual(run({ kind: "matmul" }, [X, X]).errors, ["dimension-mismatch: the inner dimensions of %*% do not match: 1000 x 200 %*% 1000 x 200"]);
  });

  it("element-wise: equal dims, row/column broadcast, outer, mismatch", () => {
    assert.equal(run({ kind: "binary", op: "*" }, [X, dense]).text, "1000 x 200, nnz ~2000");
    assert.equal(run({ kind: "binary", op: "+" }, [X, matrixStats(1000, 200, 2000)]).text, "1000 x 200, nnz ~3980");
    assert.equal(run({ kind: "binary", op: "*" }, [X, matrixStats(1000, 1, 1000)]).text, "1000 x 200, nnz ~2000");
    assert.equal(run({ kind: "binary", op: "-" }, [X, matrixStats(1, 200, 200)]).text, "1000 x 200, nnz ~200000");
    assert.equal(run({ kind: "binary", op: "*" }, [matrixStats(1000, 1, 1000), matrixStats(1, 200, 200)]).text, "1000 x 200, nnz ~200000");
    assert.equal(run({ kind: "binary", op: "/" }, [X, dense]).text, "1000 x 200, nnz ~200000");
    const bad = run({ kind: "binary", op: "+" }, [X, matrixStats(1000, 3, null)]);
    assert.match(at(bad.errors, 0), /^dimension-mismatch: incompatible dimensions for '\+': 1000 x 200 and 1000 x 3/);
  });

  it("matrix with scalar: what a zero becomes decides nnz", () => {
    assert.equal(run({ kind: "binary", op: "*" }, [X, lit(2)]).text, "1000 x 200, nnz 2000");
    assert.equal(run({ kind: "binary", op: "*" }, [X, lit(0)]).text, "1000 x 200, nnz 0");
    assert.equal(run({ kind: "binary", op: "+" }, [X, lit(1)]).text, "1000 x 200, nnz ~200000");
    assert.equal(run({ kind: "binary", op: "^" }, [X, lit(2)]).text, "1000 x 200, nnz 2000");
    assert.equal(run({ kind: "binary", op: "!=" }, [X, lit(0)]).text, "1000 x 200, nnz 2000");
    assert.equal(run({ kind: "binary", op: "==" }, [X, lit(0)]).text, "1000 x 200, nnz 198000");
    assert.equal(run({ kind: "binary", op: "/" }, [lit(1), X]).text, "1000 x 200, nnz ~200000");
    assert.equal(run({ kind: "binary", op: "*" }, [X, scalarStats(doubleType)]).text, "1000 x 200, nnz ~2000");
  });

  it("scalars fold to constants", () => {
    assert.equal(run({ kind: "binary", op: "+" }, [lit(2), lit(3)], intType).text, "scalar 5");
    assert.equal(run({ kind: "binary", op: "%%" }, [lit(-7), lit(3)], intType).text, "scalar 2");
    assert.equal(run({ kind: "binary", op: "%/%" }, [lit(7), lit(2)], intType).text, "scalar 3");
    assert.equal(run({ kind: "binary", op: "+" }, [lit("n="), lit(3)], { dataType: "scalar", valueType: "string" }).text, 'scalar "n=3"');
    assert.equal(run({ kind: "binary", op: "<" }, [lit(2), lit(3)], { dataType: "scalar", valueType: "boolean" }).text, "scalar true");
    assert.equal(run({ kind: "parameter", name: "n" }, [], intType).text, "scalar 7");
    assert.equal(run({ kind: "nrow" }, [X], intType).text, "scalar 1000");
  });

  it("unary, aggregates, transpose", () => {
    assert.equal(run({ kind: "unary", op: "abs" }, [X]).text, "1000 x 200, nnz 2000");
    assert.equal(run({ kind: "unary", op: "exp" }, [X]).text, "1000 x 200, nnz 200000");
    assert.equal(run({ kind: "aggregate", fn: "sum", direction: "full" }, [X], doubleType).text, "scalar double");
    const rows = run({ kind: "aggregate", fn: "sum", direction: "row" }, [X]).stats;
    assert.deepEqual([rows.rows, rows.cols], [1000, 1]);
    assert.ok(Math.abs(rows.nnz! - 1000 * (1 - Math.pow(0.99, 200))) < 1e-6);
    assert.equal(run({ kind: "aggregate", fn: "mean", direction: "col" }, [X]).stats.cols, 200);
    assert.equal(run({ kind: "transpose" }, [X]).text, "200 x 1000, nnz 2000");
  });

  it("indexing with constant bounds, all, and out of range", () => {
    const all = lit(ALL_INDICES);
    assert.equal(run({ kind: "index" }, [X, lit(1), lit(10), all, all]).text, "10 x 200, nnz ~20");
    assert.equal(run({ kind: "index" }, [X, all, all, lit(3), lit(3)]).text, "1000 x 1, nnz ~10");
    assert.equal(run({ kind: "index" }, [X, all, all, all, all]).text, "1000 x 200, nnz 2000");
    assert.deepEqual(run({ kind: "index" }, [X, lit(-1), lit(-1), all, all]).errors, ["index-out-of-range: index out of range: rows -1 of 1000"], "a written -1 is a row, not 'all'");
    assert.equal(run({ kind: "index" }, [X, scalarStats(intType), scalarStats(intType), all, all]).text, "? x 200, nnz ?");
    assert.deepEqual(run({ kind: "index" }, [X, lit(1), lit(1001), all, all]).errors, ["index-out-of-range: index out of range: rows 1:1001 of 1000"]);
    const left = run({ kind: "leftIndex" }, [X, matrixStats(1000, 2, 0, true), all, all, lit(1), lit(3)]);
    assert.match(at(left.errors, 0), /the assigned matrix is 1000 x 2, but the indexed range is 1000 x 3/);
  });

  it("cbind, rbind, diag", () => {
    assert.equal(run({ kind: "cbind" }, [X, v.rows === 200 ? matrixStats(1000, 1, 1000, true) : v]).text, "1000 x 201, nnz 3000");
    assert.match(at(run({ kind: "rbind" }, [X, matrixStats(5, 3, 0)]).errors, 0), /rbind needs the same number of columns/);
    assert.equal(run({ kind: "diag" }, [v]).text, "200 x 200, nnz 200");
    assert.match(at(run({ kind: "diag" }, [X]).errors, 0), /diag needs a square matrix/);
  });

  it("constructors: rand, matrix, seq, read", () => {
    assert.equal(run({ kind: "rand" }, [lit(100), lit(50), lit(0.1, doubleType)], matrixType, ["rows", "cols", "sparsity"]).text, "100 x 50, nnz ~500");
    assert.equal(run({ kind: "rand" }, [lit(100), lit(50), lit(0), lit(0)], matrixType, ["rows", "cols", "min", "max"]).text, "100 x 50, nnz 0");
    assert.equal(run({ kind: "matrix" }, [lit(0), lit(10), lit(3)], matrixType, [undefined, "rows", "cols"]).text, "10 x 3, nnz 0");
    assert.equal(run({ kind: "matrix" }, [lit(1), lit(10), lit(3)], matrixType, [undefined, "rows", "cols"]).text, "10 x 3, nnz 30");
    assert.equal(run({ kind: "matrix" }, [lit("1 0 2 3"), lit(2), lit(2)], matrixType, [undefined, "rows", "cols"]).text, "2 x 2, nnz 3");
    assert.match(at(run({ kind: "matrix" }, [X, lit(10), lit(10)], matrixType, [undefined, "rows", "cols"]).errors, 0), /cannot reshape/);
    assert.equal(run({ kind: "seq" }, [lit(1), lit(10)]).text, "10 x 1, nnz 10");
    assert.equal(run({ kind: "seq" }, [lit(-2), lit(2)]).text, "5 x 1, nnz 4");
    assert.equal(run({ kind: "seq" }, [lit(10), lit(1), lit(-3)]).text, "4 x 1, nnz 4");
    assert.equal(run({ kind: "read" }, [lit("x.csv", { dataType: "scalar", valueType: "string" })]).text, "150 x 4, nnz 600");
  });

  it("casts: as.scalar of a non-1x1 matrix is an error", () => {
    assert.deepEqual(run({ kind: "cast", to: "scalar" }, [v], doubleType).errors, ["as-scalar-dims: as.scalar needs a 1 x 1 matrix, but this one is 200 x 1"]);
    assert.deepEqual(run({ kind: "cast", to: "scalar" }, [matrixStats(1, 1, 1)], doubleType).errors, []);
    assert.equal(run({ kind: "cast", to: "int" }, [lit(3.7, doubleType)], intType).text, "scalar 3");
    assert.equal(run({ kind: "cast", to: "matrix" }, [lit(0)]).text, "1 x 1, nnz 0");
  });

  it("unknown stays unknown", () => {
    const unknown = matrixStats(null, 200, null);
    assert.equal(run({ kind: "matmul" }, [unknown, v]).text, "? x 1, nnz ?");
    assert.equal(run({ kind: "binary", op: "+" }, [unknown, X]).text, "1000 x 200, nnz ?");
    assert.equal(run({ kind: "call", name: "foo", user: false, output: 0 }, [X]).text, "? x ?, nnz ?");
  });
});
