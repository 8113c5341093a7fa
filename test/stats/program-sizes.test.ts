import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

/** `name: dims` of every variable the last basic block of the main program (or of `line`) assigns. */
function sizesAt(analysis: ProgramAnalysis, line?: number): Record<string, string> {
  const blocks = analysis.dags.blocks.filter((b) => !b.functionName);
  const block = line === undefined ? blocks[blocks.length - 1] : blocks.find((b) => b.block.range.start.line + 1 <= line && line <= b.block.range.end.line + 1);
  assert.ok(block, "no block");
  const sizes = analysis.sizes.blocks.get(block.block)!;
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => [name, formatStats(at(sizes.nodes, id))]));
}

function errors(analysis: ProgramAnalysis): string[] {
  return analysis.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);
}

describe("sizes over a program", () => {
  it("flow from block to block through constructors, products and constant folding", () => {
    const a = analyzeText("m = 100\nn = m / 4\nX = rand(rows=m, cols=n, sparsity=0.1, seed=1)\nwhile (FALSE) {}\nY = t(X) %*% X\nv = X[1:10, ]\nk = nrow(v) * 2\n");
    assert.deepEqual(sizesAt(a), { Y: "25 x 25, nnz ~396", v: "10 x 25, nnz ~25", k: "scalar 20" });
  });

  it("join at if: what differs becomes unknown", () => {
    const a = analyzeText("X = rand(rows=10, cols=5)\nif (sum(X) > 1) { Y = X; Z = X }\nelse { Y = t(X); Z = X * 2 }\nwhile (FALSE) {}\nA = Y\nB = Z\n");
    assert.deepEqual(sizesAt(a), { A: "? x ?, nnz ~50", B: "10 x 5, nnz ~50" });
  });

  it("loops reach a fixpoint: kept dims stay, growing ones become unknown", () => {
    const a = analyzeText("X = rand(rows=10, cols=5)\nA = rand(rows=5, cols=5)\nG = matrix(0, rows=0, cols=5)\nfor (i in 1:3) {\n  X = X %*% A\n  G = rbind(G, X[1, ])\n}\nP = X\nQ = G\n");
    assert.deepEqual(sizesAt(a), { P: "10 x 5, nnz ~50", Q: "? x 5, nnz ?" });
    assert.deepEqual(errors(a), []);
  });

  it("flow into user functions per call site (inter-procedural), through nested calls", () => {
    const text = [
      "inner = function(matrix[double] A) return (matrix[double] B) { B = t(A) %*% A }",
      "outer = function(matrix[double] A, int k = 2) return (matrix[double] C, int r) {",
      "  C = inner(A) * k",
      "  r = nrow(C)",
      "}",
      "X = rand(rows=100, cols=7)",
      "Y = rand(rows=30, cols=3)",
      "[C1, r1] = outer(X)",
      "[C2, r2] = outer(Y, k=3)",
      "D = inner(C1)",
      "",
    ].join("\n");
    const a = analyzeText(text);
    assert.deepEqual(sizesAt(a, 8), { C1: "7 x 7, nnz ~49", r1: "scalar 7" });
    assert.deepEqual(sizesAt(a, 9), { C2: "3 x 3, nnz ~9", r2: "scalar 3" });
    assert.deepEqual(sizesAt(a, 10), { D: "7 x 7, nnz ~49" });
  });

  it("flow into functions of source()d files, through their own sourced namespaces", () => {
    const fs = memoryFileSystem({
      "/w/lib/algebra.dml": 'source("lib/basics.dml") as basics\ngram = function(matrix[double] A) return (matrix[double] G) {\n  G = basics::tr(A) %*% A\n}\n',
      "/w/lib/basics.dml": "tr = function(matrix[double] A) return (matrix[double] T) { T = t(A) }\n",
    });
    const text = 'source("lib/algebra.dml") as alg\nX = rand(rows=50, cols=8)\nG = alg::gram(X)\nH = alg::missing(X)\n';
    const a = analyzeText(text, { scriptPath: "/w/main.dml", workspaceRoot: "/w", fs });
    assert.deepEqual(sizesAt(a, 3), { G: "8 x 8, nnz ~64" });
    assert.deepEqual(sizesAt(a, 4), { H: "unknown" });
  });

  it("a size-assumptions file named in the settings replaces the workspace's dml-lens.json; a missing one is reported", () => {
    const fs = memoryFileSystem({
      "/w/dml-lens.json": '{"inputs": {"X": {"rows": 10, "cols": 10, "nnz": 100}}}',
      "/w/what-if/large.json": '{"inputs": {"X": {"rows": 1000000, "cols": 2000, "sparsity": 0.01}}}',
    });
    const text = 'X = read("X.csv")\nwhile (FALSE) {}\nY = t(X) %*% X\n';
    const base = analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs });
    assert.equal(sizesAt(base, 1).X, "10 x 10, nnz 100");
    const large = analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", workspaceFile: "what-if/large.json", fs });
    assert.equal(sizesAt(large, 1).X, "1000000 x 2000, nnz 20000000");
    assert.match(sizesAt(large, 3).Y!, /^2000 x 2000, /);
    const missing = analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", workspaceFile: "nope.json", fs });
    assert.equal(sizesAt(missing, 1).X, "? x ?, nnz ?");
    const warning = missing.diagnostics.find((d) => d.code === "workspace-config");
    assert.match(warning?.message ?? "", /size-assumptions file '\/w\/nope\.json' cannot be read/);
    assert.deepEqual(warning?.range.start, { line: 0, character: 0 });
  });

  it("recursion does not hang: its result is unknown (unless constant conditions end it)", () => {
    const f = "f = function(matrix[double] A, int n) return (matrix[double] B) {\n  if (n > 0) { B = f(A, n - 1) } else { B = A }\n}\nX = rand(rows=4, cols=4)\n";
    assert.equal(sizesAt(analyzeText(f + "Y = f(X, as.integer(sum(X)))\n")).Y, "? x ?, nnz ?");
    // n = 3, 2, 1, 0: each condition folds, the last call takes the else branch.
    assert.equal(sizesAt(analyzeText(f + "Y = f(X, 3)\n")).Y, "4 x 4, nnz ~16");
  });

  it("dimension errors at the right place, also inside functions with call-site sizes", () => {
    const a = analyzeText("X = rand(rows=10, cols=5)\nv = rand(rows=3, cols=1)\ny = X %*% v\nz = X + rand(rows=10, cols=2)\ns = as.scalar(X[1, ])\nf = function(matrix[double] A) return (matrix[double] B) {\n  B = A %*% A\n}\nw = f(X)\n");
    assert.deepEqual(errors(a), ["3:5 dimension-mismatch", "4:5 dimension-mismatch", "5:5 as-scalar-dims", "7:7 dimension-mismatch"]);
    assert.match(at(a.diagnostics, 0).message, /inner dimensions of %\*% do not match: 10 x 5 %\*% 3 x 1/);
  });

  it("reads get their sizes from .mtd sidecars, read() arguments and @size annotations; $params give paths", () => {
    const fs = memoryFileSystem({
      "/w/data/X.csv": "1,0\n0,1\n",
      "/w/data/X.csv.mtd": '{"data_type": "matrix", "value_type": "double", "rows": 2000, "cols": 30, "nnz": 6000, "format": "csv"}',
    });
    const text = "X = read($X)\nY = read(\"data/Y.csv\", rows=50, cols=30, format=\"csv\")\nZ = read(\"big.csv\")  # @size 1e6 x 5e5, sparsity=0.001\nwhile (FALSE) {}\nA = X %*% t(Y)\nB = Z\n";
    const a = analyzeText(text, { scriptPath: "/w/s.dml", fs, parameters: new Map([["X", "data/X.csv"]]) });
    assert.deepEqual(sizesAt(a, 1), { X: "2000 x 30, nnz 6000", Y: "50 x 30, nnz ?", Z: "1000000 x 500000, nnz 500000000" });
    assert.deepEqual(sizesAt(a), { A: "2000 x 50, nnz ?", B: "1000000 x 500000, nnz 500000000" });
  });

  it("@size annotations on any assignment declare its sizes for what follows (\"what if X were 1M x 500k at 0.1%\")", () => {
    const text = "X = rand(rows=10, cols=5, seed=1)  # @size 1e6 x 5e5, sparsity=0.1%\n# @size Q: 1000 x 20\n[Q, R] = qr(X)\nwhile (FALSE) {}\nG = t(X) %*% X\nP = Q\n";
    const a = analyzeText(text);
    assert.deepEqual(sizesAt(a, 1), { X: "1000000 x 500000, nnz 500000000" });
    assert.deepEqual(sizesAt(a), { G: "500000 x 500000, nnz ~158030185695", P: "1000 x 20, nnz ?" });
  });

  it("the shipped examples: no type or size errors, and read() of the shipped data is sized", () => {
    const folder = path.join(repoRoot, "examples");
    for (const file of readdirSync(folder).filter((f) => f.endsWith(".dml"))) {
      const a = analyzeText(readFileSync(path.join(folder, file), "utf8"), { scriptPath: path.join(folder, file) });
      assert.deepEqual(errors(a), [], file);
    }
    const iris = analyzeText(readFileSync(path.join(folder, "iris_tour.dml"), "utf8"), { scriptPath: path.join(folder, "iris_tour.dml") });
    assert.equal(sizesAt(iris).X, "150 x 4, nnz 600");
  });
});
