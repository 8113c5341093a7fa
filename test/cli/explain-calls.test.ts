// `dml explain` inside the bodies of called functions, with each call
// site's sizes: suggestions (quick fixes) in the script's own functions,
// read-only fused operators in a builtin script of a fixture installation
// (scripts written for the test: test/stats/builtin-fixture.ts); `--json`
// carries them under "calls" (README: the explain --json shape).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { repoRoot } from "../repo-root";
import { writeInstallation } from "../stats/builtin-fixture";

const bin = path.join(repoRoot, "bin", "dml.js");
const dir = mkdtempSync(path.join(tmpdir(), "dml-explain-calls-"));
const { root } = writeInstallation();
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

function dml(...args: string[]) {
  const env = { ...process.env };
  delete env.SYSTEMDS_ROOT;
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SCRIPT = [
  "chain = function(matrix[double] A, matrix[double] B, matrix[double] v) return (matrix[double] r, double s) {",
  "  r = (A %*% B) %*% v",
  "  s = sum(A * B * 2)",
  "}",
  "A = rand(rows=2000, cols=2000)",
  "B = rand(rows=2000, cols=2000)",
  "v = rand(rows=2000, cols=1)",
  "X = rand(rows=5000, cols=200)",
  "y = rand(rows=5000, cols=1)",
  "[r, s] = chain(A, B, v)",
  "beta = lmCG(X=X, y=y)",
  "print(sum(r) + s + sum(beta))",
  "",
].join("\n");

interface CallJson {
  function: string;
  builtin?: string;
  file?: string;
  editable: boolean;
  calledFrom: { start: { line: number } };
  arguments: string;
  blocks: { range: { start: { line: number } }; variables: { name: string; rows: number | null; cols: number | null }[]; suggestions: { target: string; rewritten: string; range: { start: { line: number } } }[]; fusion: { asWritten: { operators: { template: string; text: string; range?: { start: { line: number } } }[] } } }[];
}

describe("dml explain inside called bodies, with the sizes of each call site", () => {
  const file = path.join(dir, "calls.dml");
  writeFileSync(file, SCRIPT);

  test("text: a suggestion in the script's own function, read-only fused operators in the builtin script, each with its call site", () => {
    const { code, stdout, stderr } = dml("explain", file, "--systemds", root);
    assert.equal(code, 0, stderr);
    const lines = stdout.split("\n");
    const header = lines.findIndex((l) => l.startsWith("== function chain, called from line 10 with A: 2000 x 2000"));
    assert.ok(header > 0, stdout);
    assert.equal(lines[header + 1], "suggestion, line 2: r = A %*% (B %*% v)  (in chain, called from line 10)");
    assert.equal(lines[header + 2], "  instead of (A %*% B) %*% v");
    assert.match(stdout, /\n {2}line 3: sum\(A \* B \* 2\) runs as one fused Cell operator \(full-agg\) over A, B, 2: .* \(called from line 10\)\n/);
    assert.match(stdout, new RegExp(`\\n== builtin lmCG \\(m_lmCG in ${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/scripts/builtin/lmCG.dml\\), called from line 11 with X: 5000 x 200, nnz ~1000000; y: 5000 x 1, nnz ~5000\\n`));
    assert.match(stdout, /\n {2}lmCG line 12: t\(X\) %\*% \(X %\*% p\) runs as one fused Row operator \(col-agg-t\) over X, p: .* \(called from line 11\)\n/);
  });

  test("without an installation the builtin's body is not reached: no lmCG section", () => {
    const { stdout } = dml("explain", file);
    assert.match(stdout, /== function chain, called from line 10/);
    assert.doesNotMatch(stdout, /lmCG line/);
  });

  test("--json: calls[] with the function, its file, the call site, the arguments and per block the variables, suggestions and fusion plan", () => {
    const { code, stdout, stderr } = dml("explain", file, "--json", "--systemds", root);
    assert.equal(code, 0, stderr);
    const calls = (JSON.parse(stdout) as { calls: CallJson[] }).calls;
    assert.deepEqual(calls.map((c) => [c.function, c.builtin ?? null, c.editable, c.calledFrom.start.line]), [["chain", null, true, 9], ["m_lmCG", "lmCG", false, 10]]);
    const chain = calls[0]!;
    assert.equal(chain.file, undefined);
    assert.equal(chain.arguments, "A: 2000 x 2000, nnz ~4000000; B: 2000 x 2000, nnz ~4000000; v: 2000 x 1, nnz ~2000");
    const body = chain.blocks[0]!;
    assert.deepEqual(body.variables.map((v) => [v.name, v.rows, v.cols]), [["r", 2000, 1], ["s", null, null]]);
    assert.deepEqual(body.suggestions.map((s) => [s.range.start.line, s.target, s.rewritten]), [[1, "r", "A %*% (B %*% v)"]]);
    const lmcg = calls[1]!;
    assert.equal(lmcg.file, path.join(root, "scripts/builtin/lmCG.dml"));
    const operators = lmcg.blocks.flatMap((b) => b.fusion.asWritten.operators.map((op) => `${op.range!.start.line + 1} ${op.template} ${op.text}`));
    assert.ok(operators.includes("12 row t(X) %*% (X %*% p)"), operators.join("\n"));
    const loop = lmcg.blocks.find((b) => b.variables.some((v) => v.name === "q"))!;
    assert.deepEqual(loop.variables.find((v) => v.name === "q"), { name: "q", rows: 200, cols: 1, nnz: 200, type: "matrix<double>" });
  });

  test("a function of a sourced file: read-only lines that name the file and its line", () => {
    writeFileSync(path.join(dir, "lib.dml"), "loss = function(matrix[double] X, matrix[double] Y) return (double l) {\n  l = sum((X - Y) ^ 2)\n}\n");
    const script = path.join(dir, "sourced.dml");
    writeFileSync(script, 'source("lib.dml") as lib\nX = rand(rows=3000, cols=300)\nY = rand(rows=3000, cols=300)\nl = lib::loss(X, Y)\nprint(l)\n');
    const { code, stdout, stderr } = dml("explain", script);
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`\\n== function loss \\(in ${path.join(dir, "lib.dml").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\), called from line 4 with X: 3000 x 300, nnz ~900000; Y: 3000 x 300, nnz ~900000\\n`));
    assert.match(stdout, /\n {2}lib\.dml line 2: sum\(\(X - Y\) \^ 2\) runs as one fused Cell operator \(full-agg\) over X, Y, 2: .* \(called from line 4\)\n/);
  });
});
