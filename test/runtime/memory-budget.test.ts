// The runtime's memory budget covers every value a run holds, not only one
// dense intermediate: sparse results by their CSR arrays, the variables and
// live intermediates beside a new one, sizes a data file claims (refused
// before reading), and intermediates are dropped after their last use.
// Also: dims that are not counts are located runtime errors (issue 14, items 4 and 5).
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { createSession, type SessionOptions } from "../../engine/runtime/interpreter";
import { matrixKernels } from "../../engine/runtime/wasm";

function run(script: string, options: SessionOptions = {}): { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const session = createSession({ scriptPath: options.scriptPath ?? "/tmp/t.dml", ...options, print: (line) => lines.push(line) });
  const result = session.runScript(script);
  return { lines, errors: result.errors };
}

describe("runtime memory budget", () => {
  it("refuses a sparse rand by its CSR size (row pointers alone take 4 bytes a row)", () => {
    const { errors } = run("X = rand(rows=1e9, cols=1e9, sparsity=1e-10)\nprint(sum(X))");
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /1:5: error: 'rand\(rows=1e9, cols=1e9, sparsity=1e-10\)' would build a sparse 1000000000 x 1000000000 matrix with about 100000000 non-zeros: it needs 5\.0 GiB, above the memory budget of 2\.0 GiB/);
  });

  it("counts the variables held beside a new result (rbind doubling in a loop)", () => {
    const { errors } = run("X = matrix(1, rows=1000, cols=1000)\nfor (i in 1:20) { X = rbind(X, X) }\nprint(sum(X))", { memoryBudget: 100e6 });
    assert.equal(errors.length, 1);
    // 4000 x 1000 (30.5 MiB) held + 61 MiB fit in 95.4 MiB; 8000 x 1000 (61 MiB) held + 122 MiB do not.
    assert.match(errors[0]!, /2:23: error: 'rbind\(X, X\)' would build a 16000 x 1000 matrix: it needs 122\.1 MiB while the script holds 61\.0 MiB, above the memory budget of 95\.4 MiB/);
  });

  it("drops intermediates after their last use, so a long block fits where holding them all would not", () => {
    // Each statement makes a 1000 x 1000 dense intermediate (7.6 MiB) and sums it; all ten together would be 76 MiB.
    const lines = Array.from({ length: 10 }, (_, k) => `s${k} = sum(A + ${k})`);
    const { errors, lines: printed } = run(`A = matrix(1, rows=1000, cols=1000)\n${lines.join("\n")}\nprint(s9)`, { memoryBudget: 30e6 });
    assert.deepEqual(errors, []);
    assert.deepEqual(printed, ["1.0E7"]);
  });

  it("refuses a contingency table by its rows (odim1 or the largest category) and outer by its result", () => {
    const dims = run("X = table(seq(1,3), seq(1,3), 1e9, 1e9)\nprint(sum(X))");
    assert.match(dims.errors[0] ?? "", /1:5: error: 'table\(seq\(1,3\), seq\(1,3\), 1e9, 1e9\)' would build a 1000000000-row contingency table: it needs 7\.5 GiB/);
    const category = run("X = table(seq(1,3) * 1e9, seq(1,3))\nprint(sum(X))");
    assert.match(category.errors[0] ?? "", /would build a 3000000000-row contingency table: it needs 22\.4 GiB/);
    const outer = run('X = outer(seq(1, 100000), t(seq(1, 100000)), "*")\nprint(sum(X))');
    assert.match(outer.errors[0] ?? "", /would build a dense 100000 x 100000 matrix: it needs 74\.5 GiB while the script holds 1\.5 MiB, above the memory budget of 2\.0 GiB/);
    assert.deepEqual(run("X = table(seq(1,3), seq(1,3))\nprint(sum(X))").lines, ["3.0"]);
  });

  it("counts the WebAssembly GEMM's copies of a product's operands and result", () => {
    // 1000 x 50 times 50 x 1000: a 7.6 MiB result; A and B take 0.8 MiB together.
    const script = "A = matrix(1, rows=1000, cols=50)\nB = matrix(1, rows=50, cols=1000)\nC = A %*% B\nprint(sum(C))";
    const { errors, lines } = run(script, { memoryBudget: 12e6 });
    if (matrixKernels().backend === "wasm-simd") {
      assert.match(errors[0] ?? "", /3:5: error: 'A %\*% B' would build a dense 1000 x 1000 matrix \(and the WebAssembly GEMM's copies of its operands and result\): it needs 16\.8 MiB while the script holds 781\.3 KiB, above the memory budget of 11\.4 MiB/);
    } else {
      assert.deepEqual(errors, []);
      assert.deepEqual(lines, ["5.0E7"]);
    }
  });

  it("refuses a Matrix Market size line claiming 2e9 rows before reading the data, at the size line", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dml-budget-"));
    writeFileSync(path.join(dir, "big.mtx"), "%%MatrixMarket matrix coordinate real general\n2000000000 3 1\n1 1 1.5\n");
    const { errors } = run('X = read("big.mtx")\nprint(sum(X))', { scriptPath: path.join(dir, "s.dml") });
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /s\.dml:1:5: error: big\.mtx:2: the size line claims a 2000000000 x 3 matrix with 1 non-zeros: reading it needs 7\.5 GiB, above the memory budget of 2\.0 GiB/);
  });

  it("refuses a csv whose parsed values outgrow the budget while it is read, at the line reached", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dml-budget-"));
    writeFileSync(path.join(dir, "x.csv"), "1,1\n".repeat(100_000)); // 400 KB of text, 1.6 MB of values
    const { errors } = run('X = read("x.csv", format="csv")\nprint(sum(X))', { scriptPath: path.join(dir, "s.dml"), memoryBudget: 1e6 });
    // The buffer doubles from 16 rows: growing to 32768 rows (with the 16384-row one and the text) passes 1e6 bytes.
    assert.match(errors[0] ?? "", /s\.dml:1:5: error: x\.csv:16385: 32768 rows of 2 values: the read needs 1\.1 MiB, above the memory budget of 976\.6 KiB/);
  });

  it("refuses dims a .mtd claims beyond the budget, naming the .mtd", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dml-budget-"));
    writeFileSync(path.join(dir, "x.csv"), "1,2\n3,4\n");
    writeFileSync(path.join(dir, "x.csv.mtd"), '{"data_type": "matrix", "format": "csv", "rows": 100000, "cols": 100000}');
    const { errors } = run('X = read("x.csv")\nprint(sum(X))', { scriptPath: path.join(dir, "s.dml") });
    assert.match(errors[0] ?? "", /s\.dml:1:5: error: x\.csv\.mtd: the \.mtd claims a 100000 x 100000 matrix: reading it needs 74\.5 GiB, above the memory budget of 2\.0 GiB/);
  });
});

describe("runtime: dims that are not counts", () => {
  const cases: [string, RegExp][] = [
    ["X = matrix(0, rows=-5, cols=3)", /1:5: error: matrix: rows must be a non-negative integer, got -5/],
    ["X = matrix(0, rows=5, cols=1e-308)", /1:5: error: matrix: cols must be a non-negative integer, got 1\.0E-308/],
    ["X = rand(rows=-1, cols=3)", /1:5: error: rand: rows must be a non-negative integer, got -1/],
    ["X = rand(rows=2, cols=0/0)", /1:5: error: rand: cols must be a non-negative integer, got NaN/],
    ["X = matrix(1, rows=1/0, cols=2)", /1:5: error: matrix: rows must be a non-negative integer, got Infinity/],
    ["X = matrix(seq(1, 6), rows=2.5, cols=2)", /1:5: error: matrix: rows must be a non-negative integer, got 2\.5/],
    ["X = rand(rows=2, cols=2, sparsity=2)", /1:5: error: rand: sparsity must be between 0 and 1, got 2/],
    ["X = seq(1, 1e20)", /1:5: error: 'seq\(1, 1e20\)' would build a dense 100000000000000000000 x 1 matrix/],
    ["X = table(seq(1,3), seq(1,3), -1, 2)", /1:5: error: table: odim1 must be a non-negative integer, got -1/],
    ["X = seq(1, 0/0)", /1:5: error: seq\(1, NaN\): the bounds and the increment must be finite numbers/],
  ];
  for (const [script, expected] of cases) {
    it(script, () => {
      const { errors } = run(`${script}\nprint(sum(X))`);
      assert.equal(errors.length, 1, errors.join("\n"));
      assert.match(errors[0]!, expected);
      assert.doesNotMatch(errors[0]!, /internal error/);
    });
  }
});
