// Sketches in the size analysis: MNC estimates and chain bounds from local data
// (examples/data/digits_X.csv), against the exact counts of structure-ops.ts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { qError } from "../../cli/bench-estimators";
import { evaluateWith, input, matmul, mncEstimator, rowSums, t, times, uniformEstimator, type SparsityExpr } from "../../engine/stats/estimators";
import { type FileSystem, memoryFileSystem } from "../../engine/files";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import type { NodeStats } from "../../engine/stats/sizes/node-stats";
import { structureFromDense, structureNnz, transposeStructure } from "../../engine/stats/structure";
import { exactAggregate, exactElementwise, exactProductNnz } from "../../engine/stats/structure-ops";
import { repoRoot } from "../repo-root";

/** Stats of each variable the last main-program block assigns. */
function variables(analysis: ProgramAnalysis): Record<string, NodeStats> {
  const blocks = analysis.dags.blocks.filter((b) => !b.functionName);
  const block = blocks[blocks.length - 1]!;
  const sizes = analysis.sizes.blocks.get(block.block)!;
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => [name, sizes.nodes[id]!]));
}

describe("sketches from local data: digits", () => {
  const csv = readFileSync(path.join(repoRoot, "examples", "data", "digits_X.csv"), "utf8");
  const values = csv.trim().split(/\r?\n/).map((line) => line.split(",").map(Number));
  const [rows, cols] = [values.length, values[0]!.length];
  const X = structureFromDense(rows, cols, values.flat());
  const positive = structureFromDense(rows, cols, values.flat().map((v) => (v > 0 ? 1 : 0)));
  const shape = { rows, cols };
  const truth = {
    A: exactProductNnz(transposeStructure(X), X),
    B: exactProductNnz(X, transposeStructure(X)),
    C: structureNnz(exactElementwise("intersect", [X, positive], shape)),
    D: structureNnz(exactAggregate(X, "cols")),
  };
  // The same expressions as the estimators bench evaluates them (inputs from data).
  const bench: Record<keyof typeof truth, SparsityExpr> = {
    A: matmul(t(input("X", X)), input("X", X)),
    B: matmul(input("X", X), t(input("X", X))),
    C: times(input("X", X), input("P", positive)),
    D: rowSums(input("X", X)),
  };
  const text = "X = read(\"data/digits_X.csv\")\nA = t(X) %*% X\nB = X %*% t(X)\nC = X * (X > 0)\nD = rowSums(X)\n";
  const found = variables(analyzeText(text, { scriptPath: path.join(repoRoot, "examples", "x.dml") }));

  it("the read has the data's sketch and exact counts", () => {
    assert.equal(found.X!.nnz, structureNnz(X));
    assert.equal(found.X!.nnzExact, true);
    assert.ok(found.X!.sketch?.mnc, "an MNC sketch from the data");
    assert.equal(found.X!.sketch?.mnc?.origin, "data");
  });

  it("nnz is within the bench's MNC q-error, the bound is at least the true count", () => {
    for (const name of ["A", "B", "C", "D"] as const) {
      const stats = found[name]!;
      const estimate = stats.nnz!;
      const benchQ = qError(mncEstimator.estimate(evaluateWith(mncEstimator, bench[name])), truth[name]);
      assert.ok(qError(estimate, truth[name]) <= benchQ + 1e-9, `${name}: q ${qError(estimate, truth[name])} > bench ${benchQ}`);
      assert.ok(stats.sketch?.mnc, `${name} keeps an MNC sketch`);
      assert.ok(stats.nnzUpperBound !== undefined && stats.nnzUpperBound >= truth[name], `${name}: bound ${stats.nnzUpperBound} < ${truth[name]}`);
      if (stats.nnzExact) assert.equal(estimate, truth[name], name);
    }
  });

  it("t(X) %*% X: strictly closer than the uniform estimate", () => {
    const uniform = uniformEstimator.estimate(evaluateWith(uniformEstimator, bench.A, (_, s) => uniformEstimator.fromMetadata(s.rows, s.cols, structureNnz(s))));
    const mnc = found.A!.nnz!;
    assert.ok(Math.abs(mnc - truth.A) < Math.abs(uniform - truth.A), `mnc ${mnc}, uniform ${uniform}, true ${truth.A}`);
  });

  it("X * (X > 0) has the pattern of X > 0", () => {
    // X > 0 keeps part of X's pattern (an estimate: every non-zero); the product is that part.
    assert.equal(found.C!.nnz, found.X!.nnz);
    assert.notEqual(found.C!.nnzExact, true);
  });

  it("the estimator setting: uniform drops MNC, worst-case gives the chain bound; exact counts stay", () => {
    const scriptPath = path.join(repoRoot, "examples", "x.dml");
    const uniform = variables(analyzeText(text, { scriptPath, estimator: "uniform" }));
    const worst = variables(analyzeText(text, { scriptPath, estimator: "worst-case" }));
    const uniformA = uniformEstimator.estimate(evaluateWith(uniformEstimator, bench.A, (_, s) => uniformEstimator.fromMetadata(s.rows, s.cols, structureNnz(s))));
    for (const v of [uniform, worst]) {
      assert.equal(v.X!.nnz, structureNnz(X));
      assert.equal(v.X!.nnzExact, true);
      assert.equal(v.A!.sketch?.mnc, undefined);
    }
    assert.equal(uniform.A!.nnz, Math.min(uniformA, uniform.A!.nnzUpperBound!));
    assert.notEqual(uniform.A!.nnz, found.A!.nnz);
    for (const name of ["A", "B", "C", "D"] as const) {
      assert.equal(worst[name]!.nnz, worst[name]!.nnzUpperBound, name);
      assert.ok(worst[name]!.nnz! >= truth[name], `${name}: worst case ${worst[name]!.nnz} < true ${truth[name]}`);
      assert.ok(worst[name]!.nnz! >= found[name]!.nnz!, `${name}: worst case below the MNC estimate`);
    }
  });
});

/** A memory file system with csv matrices (and their .mtd) under /d, counting reads of the data. */
function dataFiles(matrices: Record<string, number[][]>, reads: string[] = [], extra: Record<string, string> = {}): FileSystem {
  const files: Record<string, string> = { ...extra };
  for (const [name, m] of Object.entries(matrices)) {
    const nnz = m.flat().filter((v) => v !== 0).length;
    files[`/d/${name}.csv`] = m.map((row) => row.join(",")).join("\n") + "\n";
    files[`/d/${name}.csv.mtd`] = JSON.stringify({ data_type: "matrix", rows: m.length, cols: m[0]!.length, nnz, format: "csv" });
  }
  const inner = memoryFileSystem(files);
  return { ...inner, readFile: (p) => (reads.push(p), inner.readFile(p)), mtime: () => 1 };
}

const analyze = (text: string, fs: FileSystem) => variables(analyzeText(text, { scriptPath: "/d/s.dml", fs }));

describe("sketches through the analysis", () => {
  // P selects rows 2 and 3 of X: one non-zero per row, so MNC's product is exact.
  const P = [
    [0, 1, 0, 0],
    [0, 0, 1, 0],
  ];
  const X = [
    [1, 0, 2],
    [0, 3, 0],
    [4, 5, 0],
    [0, 0, 0],
  ];

  it("MNC's exact product case gives an exact count; others stay estimates under the bound", () => {
    const v = analyze("P = read(\"P.csv\")\nX = read(\"X.csv\")\nY = P %*% X\nZ = t(X) %*% X\n", dataFiles({ P, X }));
    assert.equal(v.Y!.nnz, 3);
    assert.equal(v.Y!.nnzExact, true);
    assert.equal(v.Y!.nnzUpperBound, 3);
    assert.notEqual(v.Z!.nnzExact, true);
    assert.ok(v.Z!.nnz! <= v.Z!.nnzUpperBound!);
  });

  it("data that differ from the metadata (a @size what-if) are not used", () => {
    const v = analyze("X = read(\"X.csv\")  # @size 4 x 3, nnz=6\nY = t(X) %*% X\n", dataFiles({ X }));
    assert.equal(v.X!.sketch?.mnc, undefined);
    assert.equal(v.X!.nnz, 6);
    assert.equal(v.X!.nnzUpperBound, 6);
  });

  it("without data: no MNC sketch, the uniform estimate, a bound from the metadata", () => {
    const fs = memoryFileSystem({ "/d/X.csv.mtd": JSON.stringify({ data_type: "matrix", rows: 1000, cols: 200, nnz: 2000, format: "csv" }) });
    const v = analyze("X = read(\"X.csv\")\nv = rowSums(X)\nY = X * 2\nZ = X %*% t(X)\n", fs);
    assert.equal(v.X!.sketch?.mnc, undefined);
    assert.ok(Math.abs(v.v!.nnz! - 1000 * (1 - Math.pow(0.99, 200))) < 1e-6);
    assert.equal(v.v!.nnzUpperBound, 1000);
    assert.equal(v.Y!.nnz, 2000);
    assert.equal(v.Y!.nnzExact, true);
    assert.ok(v.Z!.nnzUpperBound! >= v.Z!.nnz!);
  });

  it("a file read twice is loaded once per analysis, and both reads share its pattern", () => {
    const reads: string[] = [];
    const fs = dataFiles({ X }, reads);
    const v = analyze("A = read(\"X.csv\")\nB = read(\"/d/X.csv\")\nC = A * B\n", fs);
    assert.equal(reads.filter((p) => p === "/d/X.csv").length, 1);
    assert.equal(v.A!.sketch, v.B!.sketch);
    assert.equal(v.C!.nnz, 5);
    assert.equal(v.C!.nnzExact, true);
    analyze("A = read(\"X.csv\")\n", fs); // a new analysis loads it again: no state across calls
    assert.equal(reads.filter((p) => p === "/d/X.csv").length, 2);
  });

  it("files over the scan limit are sized from their metadata", () => {
    const v = variables(analyzeText("X = read(\"X.csv\")\n", { scriptPath: "/d/s.dml", fs: dataFiles({ X }), scanLimitBytes: 4 }));
    assert.equal(v.X!.sketch?.mnc, undefined);
    assert.equal(v.X!.nnz, 5);
  });

  it("constructors with known structure; times 0 is an exact 0", () => {
    const v = analyze("X = read(\"X.csv\")\nZ = matrix(0, rows=3, cols=4)\nE = X %*% Z\nD = diag(seq(1, 4)) %*% X\nN = X * 0\n", dataFiles({ X }));
    assert.equal(v.E!.nnz, 0);
    assert.equal(v.E!.nnzExact, true);
    assert.equal(v.D!.nnz, 5); // a full diagonal passes X through
    assert.equal(v.D!.nnzExact, true);
    assert.equal(v.N!.nnz, 0);
    assert.equal(v.N!.nnzExact, true);
  });

  it("other operations drop the MNC sketch but keep a bound", () => {
    const v = analyze("X = read(\"X.csv\")\nA = X[1:2, ]\nB = exp(X)\nC = max(X, t(t(X)))\n", dataFiles({ X }));
    for (const name of ["A", "B", "C"]) assert.equal(v[name]!.sketch?.mnc, undefined, name);
    assert.equal(v.A!.nnzUpperBound, 6);
    assert.equal(v.C!.nnzUpperBound, 10);
  });

  it("loops keep the sketch of a value that does not change; if joins keep what both branches share", () => {
    const text = "X = read(\"X.csv\")\nfor (i in 1:3) {\n  Z = t(X) %*% X\n}\nif (sum(X) > 3) { Y = X } else { Y = X * 2 }\nwhile (FALSE) {}\nW = Z\nV = Y\n";
    const v = analyze(text, dataFiles({ X }));
    assert.ok(v.W!.sketch?.mnc, "Z after the loop");
    assert.equal(v.V!.nnz, 5);
    assert.equal(v.V!.nnzExact, true);
    assert.ok(v.V!.sketch?.mnc, "X and X * 2 have the same sketch");
  });

  it("sketches flow into user functions (calls are memoized by the sketches they get)", () => {
    const text = "f = function(matrix[double] A) return (matrix[double] B) { B = t(A) %*% A }\nX = read(\"X.csv\")\nY = f(X)\nG = t(X) %*% X\n";
    const analysis = analyzeText(text, { scriptPath: "/d/s.dml", fs: dataFiles({ X }) });
    const v: Record<string, NodeStats> = {};
    for (const info of analysis.dags.blocks.filter((b) => !b.functionName)) {
      const sizes = analysis.sizes.blocks.get(info.block)!;
      for (const [name, id] of info.dag.outputs) v[name] = sizes.nodes[id]!;
    }
    assert.ok(v.Y!.sketch?.mnc, "the result of f(X) carries an MNC sketch");
    assert.equal(v.Y!.nnz, v.G!.nnz);
    assert.equal(v.Y!.nnzUpperBound, v.G!.nnzUpperBound);
  });
});
