import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";

/**
 * `name: dims` of what the main program assigns after its `while (FALSE) {}`
 * (the last assignment of each name; nnz left out: these rules are about dims).
 */
function dims(analysis: ProgramAnalysis): Record<string, string> {
  const loop = analysis.parsed.program.body.find((s) => s.kind === "while")!;
  const found: Record<string, string> = {};
  for (const block of analysis.dags.blocks.filter((b) => !b.functionName && b.block.range.start.line > loop.range.end.line)) {
    const sizes = analysis.sizes.blocks.get(block.block)!;
    for (const [name, id] of block.dag.outputs) found[name] = formatStats(sizes.nodes[id]!).replace(/, nnz .*$/, "");
  }
  return found;
}

function errors(analysis: ProgramAnalysis): string[] {
  return analysis.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1} ${d.code}: ${d.message}`);
}

const PRELUDE = "A = round(rand(rows=50, cols=1, min=1, max=4))\nB = round(rand(rows=50, cols=1, min=1, max=6))\nX = rand(rows=20, cols=8)\nwhile (FALSE) {}\n";

describe("size rules of SystemDS's validator", () => {
  it("table with constant output dims is odim1 x odim2 (4, 5 and 6 arguments); without them, unknown", () => {
    const a = analyzeText(PRELUDE + "n = 7\nT4 = table(A, B, 4, 6)\nT5 = table(A, B, A * 2, n, 3)\nT6 = table(A, 1, 1, 10, n, TRUE)\nT2 = table(A, B)\nT3 = table(A, B, 2)\n");
    assert.deepEqual(dims(a), { n: "scalar 7", T4: "4 x 6", T5: "7 x 3", T6: "10 x 7", T2: "? x ?", T3: "? x ?" });
    assert.deepEqual(errors(a), []);
    const bad = analyzeText(PRELUDE + "T = table(A, B, -2, 3)\n");
    assert.deepEqual(errors(bad), ["5 bad-dimension: table(...): odim1 must be a non-negative integer, found -2"]);
  });

  it("table's nnz is at most one per entry of its first argument", () => {
    const a = analyzeText(PRELUDE + "T = table(A, B, 100, 100)\nS = table(A, B, 2, 2)\n");
    const block = a.dags.blocks.filter((b) => !b.functionName).at(-1)!;
    const sizes = a.sizes.blocks.get(block.block)!;
    assert.equal(formatStats(sizes.nodes[block.dag.outputs.get("T")!]!), "100 x 100, nnz ~50");
    assert.equal(formatStats(sizes.nodes[block.dag.outputs.get("S")!]!), "2 x 2, nnz ~4");
  });

  it("sample(range, size[, replace][, seed]) is size x 1; an unknown size gives ? x 1", () => {
    const a = analyzeText(PRELUDE + "k = nrow(X) / 2\nS1 = sample(100, 10)\nS2 = sample(100, 30, TRUE)\nS3 = sample(1000, k, FALSE, 42)\nS4 = sample(100, sum(A))\n");
    assert.deepEqual(dims(a), { k: "scalar 10", S1: "10 x 1", S2: "30 x 1", S3: "10 x 1", S4: "? x 1" });
  });

  it("rowIndexMax / rowIndexMin are nrow x 1; cumsum, cumprod, cummin, cummax keep dims; cumsumprod one column", () => {
    const a = analyzeText(PRELUDE + "I = rowIndexMax(X)\nJ = rowIndexMin(target=t(X))\nC1 = cumsum(X)\nC2 = cumprod(t(X))\nC3 = cummin(X)\nC4 = cummax(X)\nC5 = cumsumprod(X[, 1:2])\n");
    assert.deepEqual(dims(a), { I: "20 x 1", J: "8 x 1", C1: "20 x 8", C2: "8 x 20", C3: "20 x 8", C4: "20 x 8", C5: "20 x 1" });
  });

  it("a single index selects one row or column whatever its value; bounds that differ by a constant select that many", () => {
    const text = [
      "A = rand(rows=20, cols=8)",
      "i = as.scalar(rand(rows=1, cols=1, min=1, max=8))",
      "k = 4",
      "while (FALSE) {}",
      "c = A[, i]",
      "r = A[i, ]",
      "e = A[i, i]",
      "c3 = A[, 3]",
      "s = A[, i:(i + 2)]",
      "b = A[(k * (i - 1) + 1):(k * i), ]",
      "u = A[i:nrow(A), ]",
      "",
    ].join("\n");
    const a = analyzeText(text);
    assert.deepEqual(dims(a), { c: "20 x 1", r: "1 x 8", e: "1 x 1", c3: "20 x 1", s: "20 x 3", b: "4 x 8", u: "? x 8" });
    assert.deepEqual(errors(a), []);
  });

  it("seq whose bounds differ by a constant has a known length whatever they are", () => {
    const a = analyzeText("i = as.scalar(rand(rows=1, cols=1, min=1, max=8))\nk = 5\nr = 4\nwhile (FALSE) {}\ns1 = seq(i, k * (r - 1) + i, k)\ns2 = seq(i, i + 9)\ns3 = seq(i, 2 * i)\n");
    assert.deepEqual(dims(a), { s1: "4 x 1", s2: "10 x 1", s3: "? x 1" });
  });

  it("a loop variable as an index (unknown value) still selects one column", () => {
    const a = analyzeText("X = rand(rows=30, cols=5)\nS = matrix(0, rows=30, cols=1)\nfor (j in 1:ncol(X)) {\n  S = S + X[, j]\n}\nwhile (FALSE) {}\nT = S\n");
    assert.deepEqual(dims(a), { T: "30 x 1" });
  });

  it("eigen, svd, qr and lu give each result its dims", () => {
    const a = analyzeText(PRELUDE + "[v, V] = eigen(t(X) %*% X)\n[U, S, W] = svd(X)\n[Q, R] = qr(X)\n[P, L, Up] = lu(t(X) %*% X)\n");
    assert.deepEqual(dims(a), { v: "8 x 1", V: "8 x 8", U: "20 x 8", S: "8 x 8", W: "8 x 8", Q: "20 x 8", R: "20 x 8", P: "8 x 8", L: "8 x 8", Up: "8 x 8" });
  });

  it("solve, outer, rev, order", () => {
    const a = analyzeText(PRELUDE + "G = solve(t(X) %*% X, t(X) %*% A[1:20, ])\nO = outer(A, t(B), \"*\")\nR = rev(X)\nI = order(target=X, by=1, index.return=TRUE)\nS = order(target=X, by=2)\n");
    assert.deepEqual(dims(a), { G: "8 x 1", O: "50 x 50", R: "20 x 8", I: "20 x 1", S: "20 x 8" });
  });

  it("read() in a sourced file gets its metadata as in the main script (.mtd, paths relative to where the script runs)", () => {
    const fs = memoryFileSystem({
      "/w/data/X.csv.mtd": '{"data_type": "matrix", "value_type": "double", "rows": 2000, "cols": 30, "nnz": 6000, "format": "csv"}',
      "/w/lib/io.dml": 'load = function(String f) return (matrix[double] X) {\n  X = read(f)\n}\nloadFixed = function() return (matrix[double] Y) {\n  Y = read("data/X.csv")\n}\n',
    });
    const text = 'source("lib/io.dml") as io\nwhile (FALSE) {}\nX = io::load("data/X.csv")\nY = io::loadFixed()\nG = t(X) %*% Y\n';
    const a = analyzeText(text, { scriptPath: "/w/main.dml", workspaceRoot: "/w", fs });
    assert.deepEqual(dims(a), { X: "2000 x 30", Y: "2000 x 30", G: "30 x 30" });
  });
});
