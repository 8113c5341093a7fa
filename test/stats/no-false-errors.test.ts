/**
 * Classes of valid SystemDS code that `dml check` used to reject (issue 13,
 * section 1). Each class has several members; every script here runs in
 * SystemDS, so any error on it is a false error.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileSourceReader } from "../../engine/program/source-reader";
import { checkDocument } from "../../engine/analysis/check-document";
import { memoryFileSystem } from "../../engine/files";
import { analyzeText } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

/** `line:col code message` of every error (warnings apart). */
function errors(text: string, readFile?: (path: string) => string | undefined): string[] {
  return checkDocument(text, readFile ? { readFile } : {})
    .filter((d) => d.severity === "error")
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);
}

function warnings(text: string): string[] {
  return checkDocument(text).filter((d) => d.severity === "warning").map((d) => `${d.range.start.line + 1} ${d.message}`);
}

/** The stats of variable `name` as the last block that assigns it leaves it. */
function sizeOf(text: string, name: string): string {
  const analysis = analyzeText(text);
  const blocks = analysis.dags.blocks.filter((b) => !b.functionName && b.dag.outputs.has(name));
  const block = blocks[blocks.length - 1];
  assert.ok(block, `no block assigns ${name}`);
  return formatStats(at(analysis.sizes.blocks.get(block.block)!.nodes, block.dag.outputs.get(name)!));
}

export const VALID_SCRIPTS: Record<string, string> = {};

function valid(name: string, text: string): string {
  VALID_SCRIPTS[name] = text;
  return text;
}

describe("as.matrix of a list, a frame, a value of unknown type", () => {
  it("a list of scalars is a column vector, one row per item", () => {
    const text = valid("as-matrix-list", "R = matrix(0, rows=3, cols=2)\nR[1:3, 1] = as.matrix(list(1, 2, 3))\nv = as.matrix(list(4, 5))\nprint(sum(R) + sum(v))\n");
    assert.deepEqual(errors(text), []);
    assert.equal(sizeOf(text, "v"), "2 x 1, nnz ?");
  });

  it("a one-item list gives the item; list slices and appends keep their items", () => {
    const text = valid(
      "as-matrix-list-item",
      [
        "X = rand(rows=10, cols=3)",
        "l = list(X, 2)",
        "l = append(l, t(X))",
        "A = as.matrix(l[1])",
        "B = as.matrix(l[3])",
        "s = as.matrix(list(7))",
        "C = cbind(A, X) %*% rbind(B, B)",
        "print(sum(C) + sum(s))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
    assert.equal(sizeOf(text, "A"), "10 x 3, nnz ~30");
    assert.equal(sizeOf(text, "B"), "3 x 10, nnz ~30");
    assert.equal(sizeOf(text, "s"), "1 x 1, nnz ?");
  });

  it("a list of unknown items, a frame, or an unknown value gives unknown dims, never 1 x 1", () => {
    const text = valid(
      "as-matrix-unknown",
      [
        "X = rand(rows=10, cols=3)",
        "l = list()",
        "for (i in 1:3) { l = append(l, X) }",
        "A = as.matrix(l[2])",
        "Z = cbind(A, X)",
        "F = as.frame(X)",
        "M = as.matrix(F)",
        "Y = M %*% t(X)",
        "print(sum(Z) + sum(Y))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
    assert.equal(sizeOf(text, "A"), "? x ?, nnz ?");
  });
});

describe("append", () => {
  it("of two strings joins them (a string, not a matrix)", () => {
    const text = valid("append-strings", 's = "a"\ns = append(s, "b")\nt = append(s, "c") + "!"\nprint(t)\n');
    assert.deepEqual(errors(text), []);
    assert.equal(sizeOf(text, "s"), "scalar string");
  });

  it("of a list adds the argument as one item; a one-item list adds its item (SystemDS unfolds it)", () => {
    const text = "X = rand(rows=4, cols=2)\nl = list(X)\nl = append(l, list(1, 2))\nn = length(l)\nl = append(l, list(t(X)))\nT = as.matrix(l[3])\n";
    assert.deepEqual(errors(text), []);
    assert.equal(sizeOf(text, "n"), "scalar 2");
    assert.match(sizeOf(text, "T"), /^2 x 4,/);
  });
});

describe("guards: index and size checks use what the branch condition implies", () => {
  it("a branch whose condition folds to false is dead: no errors in it", () => {
    const text = valid(
      "guard-dead-branch",
      [
        "C = matrix(0, rows=10, cols=3)",
        "itr = 1",
        "if (itr %% 100 == 0) { C[itr/100,] = matrix(1, rows=1, cols=3) }",
        "X = rand(rows=5, cols=1)",
        "if (ncol(X) > 1) { Y = X[, 2] } else { Y = X }",
        "if (FALSE) { Z = X %*% X }",
        "print(sum(C) + sum(Y))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
    assert.deepEqual(warnings(text), []);
    // Only the live branch reaches the join.
    assert.equal(sizeOf(text, "Y"), "5 x 1, nnz ~5");
  });

  it("a while loop whose condition folds to false never runs its body", () => {
    const text = valid("guard-dead-while", "X = rand(rows=5, cols=2)\nwhile (FALSE) { Z = X %*% X }\ndone = TRUE\nwhile (!done) { Y = X[7, ] }\nprint(sum(X))\n");
    assert.deepEqual(errors(text), []);
    assert.deepEqual(warnings(text), []);
  });

  it("a branch whose condition folds to true is checked (and errors stay errors)", () => {
    assert.deepEqual(errors("X = rand(rows=5, cols=2)\nif (ncol(X) == 2) { Z = X %*% X }\n").map((e) => e.split(" ")[1]), ["dimension-mismatch"]);
    // Conditions over variables fold too (a predicate does not know their types, the values do).
    assert.deepEqual(errors("X = rand(rows=5, cols=2)\nk = 2\nif (k > 1 & !(k == 3)) { Z = X %*% X }\n").map((e) => e.split(" ")[1]), ["dimension-mismatch"]);
    assert.deepEqual(warnings("X = rand(rows=5, cols=2)\nk = 2\nif (k < 1) { Z = X %*% X }\n"), []);
  });

  it("under an unknown condition, the scalars it reads lose their constant values", () => {
    const text = valid(
      "guard-unknown-condition",
      [
        "C = matrix(0, rows=10, cols=3)",
        "X = rand(rows=5, cols=3)",
        "i = 1",
        "if (sum(X) > 2) { i = 250 }",
        "j = 1",
        "if (j %% 100 == 0 & sum(X) > 1) { C[j/100, ] = X[1, ] }",
        "for (it in 1:20) { if (it %% 10 == 0) { C[it/10, ] = X[2, ] } }",
        "print(sum(C))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
    assert.deepEqual(warnings(text), []);
  });

  it("after the if, a scalar the condition read keeps its value unless a branch assigned it", () => {
    const text = "X = rand(rows=5, cols=3)\nn = 4\nk = 2\nif (sum(X) > n & k > 0) { k = 3 }\nY = matrix(0, rows=n, cols=1)\nZ = matrix(0, rows=k, cols=1)\n";
    assert.equal(sizeOf(text, "Y"), "4 x 1, nnz 0");
    assert.equal(sizeOf(text, "Z"), "? x 1, nnz 0");
  });

  it("a size problem in a branch that may not run is a warning that says why", () => {
    const text = "X = rand(rows=5, cols=1)\nZ = rand(rows=3, cols=3)\nif (sum(Z) > 100) { W = Z %*% X } else { V = cbind(Z, X) }\n";
    assert.deepEqual(errors(text), []);
    const found = warnings(text);
    assert.equal(found.length, 2);
    for (const w of found) assert.match(w, /in a branch that may not run/);
  });
});

describe("diag of a matrix whose column count is unknown", () => {
  it("is not known to extract the diagonal: n x ?, no errors downstream", () => {
    const text = valid(
      "diag-unknown-cols",
      [
        "f = function(matrix[double] v) return (matrix[double] D) {",
        "  D = diag(v)",
        "  Z = D %*% matrix(1, rows=nrow(v), cols=4)",
        "  W = cbind(D, D)",
        "}",
        "X = rand(rows=6, cols=1)",
        "D = f(X)",
        "E = D %*% matrix(1, rows=6, cols=2)",
        "Y = read($Y, rows=5)",
        "G = diag(Y) %*% matrix(1, rows=5, cols=2)",
        "print(sum(E) + sum(G))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
    assert.match(sizeOf(text, "E"), /^6 x 2,/);
    assert.equal(sizeOf("X = read($X, rows=5)\nD = diag(X)\n", "D"), "5 x ?, nnz ?");
  });
});

describe("sizes survive an indirection through constant variables", () => {
  const fs = memoryFileSystem({
    "/w/data/X.csv.mtd": '{"data_type": "matrix", "value_type": "double", "rows": 20, "cols": 4, "nnz": 80, "format": "csv"}',
    "/w/data/X.csv": "",
  });
  const sizeIn = (text: string, name: string, params: Record<string, string> = {}) => {
    const analysis = analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs, parameters: new Map(Object.entries(params)) });
    const block = at(analysis.dags.blocks.filter((b) => b.dag.outputs.has(name)), -1);
    return formatStats(at(analysis.sizes.blocks.get(block.block)!.nodes, block.dag.outputs.get(name)!));
  };

  it("a file name through a variable, in the same block or an earlier one, is read like the name itself", () => {
    assert.equal(sizeIn('X = read("data/X.csv")', "X"), "20 x 4, nnz 80");
    assert.equal(sizeIn('fileX = "data/X.csv"\nX = read(fileX)', "X"), "20 x 4, nnz 80");
    assert.equal(sizeIn('fileX = "data/X.csv"\nif (FALSE) { print("no") }\nX = read(fileX)', "X"), "20 x 4, nnz 80");
    assert.equal(sizeIn("fileX = $X\nwhile (FALSE) {}\nX = read(fileX)", "X", { X: "data/X.csv" }), "20 x 4, nnz 80");
    assert.equal(sizeIn("fileX = $X\nX = read(fileX)", "X", { X: "data/X.csv" }), "20 x 4, nnz 80");
  });

  it("a placeholder name in a dead branch is not looked up (if (fileX != \" \") { read(fileX) })", () => {
    const text = 'fileX = ifdef($X, " ")\nif (fileX != " ") {\n  X = read(fileX)\n  print(sum(X))\n}\n';
    const found = analyzeText(text, { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs }).diagnostics.filter((d) => d.severity !== "hint");
    assert.deepEqual(found.map((d) => d.message), []);
    // A live read of the blank placeholder is a hint, not a "not found" warning.
    const live = analyzeText('fileX = ifdef($X, " ")\nX = read(fileX)\n', { scriptPath: "/w/s.dml", workspaceRoot: "/w", fs }).diagnostics;
    assert.deepEqual(live.filter((d) => d.severity !== "hint").map((d) => d.message), []);
    assert.ok(live.some((d) => /the file name is blank/.test(d.message)));
    // Given a name, the branch runs and the file is read.
    assert.equal(sizeIn(text, "X", { X: "data/X.csv" }), "20 x 4, nnz 80");
  });

  it("also through string concatenation of constants", () => {
    assert.equal(sizeIn('dir = "data/"\nwhile (FALSE) {}\nX = read(dir + "X.csv")', "X"), "20 x 4, nnz 80");
    assert.equal(sizeIn('base = $D + "/"\nwhile (FALSE) {}\nX = read(base + "X" + ".csv")', "X", { D: "data" }), "20 x 4, nnz 80");
    // A name that is not constant stays unknown.
    assert.equal(sizeIn('n = "data/X.csv"\nif (sum(rand(rows=2, cols=2)) > 1) { n = "data/Y.csv" }\nX = read(n)', "X"), "? x ?, nnz ?");
  });
});

describe("a value of unknown type is unknown, not a 0 x 0 scalar", () => {
  it("results of aggregate, Rand, list items, calls into an unreadable source(), unknown builtins", () => {
    const text = valid(
      "unknown-types",
      [
        'source("nn/layers/affine.dml") as affine',
        "X = rand(rows=10, cols=3, seed=1)",
        'A = aggregate(target=X[,1], groups=round(X[,2] * 3) + 1, fn="sum")',
        "B = cbind(A, A) %*% t(cbind(A, A))",
        "R = Rand(rows=3, cols=3)",
        "S = R %*% R",
        "l = list()",
        "l = append(l, X)",
        "Y = l[1]",
        "Z = cbind(as.matrix(Y), X)",
        "[out, c1, c2] = affine::forward(X, matrix(1, rows=3, cols=2), matrix(0, rows=1, cols=2))",
        "W = cbind(out, out) %*% matrix(1, rows=4, cols=1)",
        "s = seq(1, nrow(A))",
        "u = abs(affine::init(3, 2, 1)) + 1",
        "V = rbind(u, u)",
        "print(sum(B) + sum(S) + sum(Z) + sum(W) + sum(s) + sum(V))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text, () => undefined), []);
  });

  it("DML-bodied builtins (lm, kmeans, pca, l2svm, ...) give unknown results that nothing downstream trips on", () => {
    const text = valid(
      "dml-bodied-builtins",
      [
        "X = rand(rows=100, cols=10, seed=1)",
        "y = rand(rows=100, cols=1, seed=2)",
        "B = lm(X=X, y=y, icpt=0, reg=1e-3)",
        "P = X %*% B",
        "[C, Y] = kmeans(X=X, k=3)",
        "[PC, Mo, Cen, Sca] = pca(X=X, K=2)",
        "Z = X %*% Mo",
        "w = l2svm(X=X, Y=y)",
        "yhat = X %*% w",
        "M = cbind(scale(X=X), X)",
        "[Xn, cmin, cmax] = normalize(X)",
        "print(sum(P) + sum(C) + sum(Y) + sum(Z) + sum(yhat) + sum(M) + sum(Xn))",
      ].join("\n"),
    );
    assert.deepEqual(errors(text), []);
  });
});

describe("valid code is clean", () => {
  const errorsIn = (text: string, scriptPath: string) =>
    checkDocument(text, { scriptPath, workspaceRoot: repoRoot, readFile: fileSourceReader(scriptPath, repoRoot) })
      .filter((d) => d.severity === "error")
      .map((d) => `${path.basename(scriptPath)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`);

  it("every script in examples/ checks without errors", () => {
    const folder = path.join(repoRoot, "examples");
    const files = readdirSync(folder).filter((f) => f.endsWith(".dml"));
    assert.ok(files.length >= 10, "examples/ holds the shipped scripts");
    for (const file of files) {
      const full = path.join(folder, file);
      assert.deepEqual(errorsIn(readFileSync(full, "utf8"), full), [], file);
    }
  });

  it("every valid script of these tests checks without errors", () => {
    // Filled by the tests above (node:test runs them first, in order).
    assert.ok(Object.keys(VALID_SCRIPTS).length >= 8, "the class tests registered their scripts");
    for (const [name, text] of Object.entries(VALID_SCRIPTS)) assert.deepEqual(errors(text), [], name);
  });
});
