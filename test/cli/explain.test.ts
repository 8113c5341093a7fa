// `dml explain` through the built command line: summary first (per block the
// variables with dims and nnz), the DAG of each block behind --dag, and the
// --json contract of ARCHITECTURE.md.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

const bin = path.join(repoRoot, "bin", "dml.js");
const dir = mkdtempSync(path.join(tmpdir(), "dml-explain-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("dml explain", () => {
  const script = path.join(dir, "s.dml");
  writeFileSync(script, "X = read($X)\nw = rand(rows=ncol(X), cols=1, seed=3)\nwhile (FALSE) {}\ny = X %*% w\n");

  test("summary first: per block the assigned variables with dims and nnz, using $params for read paths; no DAG", () => {
    const r = dml("explain", script, `X=${path.join(repoRoot, "examples", "data", "iris_X.csv")}`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "s.dml: 2 blocks\n\n== block, lines 1-2\n  X: 150 x 4, nnz 600\n  w: 4 x 1, nnz ~4\n\n== block, line 4\n  y: 150 x 1, nnz ~150\n");
  });

  test("--dag adds every block's DAG with dims and nnz per node, after the summary", () => {
    const r = dml("explain", script, "--dag", `X=${path.join(repoRoot, "examples", "data", "iris_X.csv")}`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /== block, lines 1-2\n  X: 150 x 4, nnz 600\n  w: 4 x 1, nnz ~4\ndag:\n%0 = /);
    assert.match(r.stdout, /%\d+ = read\(%\d+\) : matrix<double>  150 x 4, nnz 600/);
    assert.match(r.stdout, /%\d+ = matmul\(%\d+, %\d+\) : matrix<double>  150 x 1, nnz ~150/);
  });

  test("scalars show their type and constant value; a block that assigns nothing says so", () => {
    const file = path.join(dir, "scalars.dml");
    writeFileSync(file, 'n = 3 + 4\nname = "a" + "b"\nprint(n)\n');
    const r = dml("explain", file);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /  n: scalar<int> = 7\n  name: scalar<string> = "ab"\n/);
    assert.doesNotMatch(r.stdout, /%\d+ = /);
  });

  test("--json follows the contract: file, blocks with range, variables and suggestions", () => {
    const r = dml("explain", script, "--json", `X=${path.join(repoRoot, "examples", "data", "iris_X.csv")}`);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { file: string; blocks: { range: { start: { line: number } }; variables: { name: string; rows: number | null; cols: number | null; nnz: number | null }[]; suggestions: unknown[] }[] };
    assert.equal(json.file, script);
    assert.equal(json.blocks.length, 2);
    const [first, second] = json.blocks;
    assert.ok(first && second);
    assert.equal(first.range.start.line, 0);
    assert.deepEqual(first.variables.find((v) => v.name === "X"), { name: "X", rows: 150, cols: 4, nnz: 600, type: "matrix<double>" });
    assert.deepEqual(second.variables, [{ name: "y", rows: 150, cols: 1, nnz: 150, type: "matrix<double>" }]);
    assert.deepEqual(second.suggestions, []);
  });

  test("unknown inputs stay unknown", () => {
    const r = dml("explain", script, "--json");
    const json = JSON.parse(r.stdout) as { blocks: { variables: { name: string; rows: number | null }[] }[] };
    assert.equal(at(json.blocks, 0).variables.find((v) => v.name === "X")?.rows, null);
  });

  test("exit 2 on a missing file or bad usage", () => {
    assert.equal(dml("explain", path.join(dir, "missing.dml")).code, 2);
    assert.equal(dml("explain").code, 2);
    assert.equal(dml("explain", script, "--budget-ms", "x").code, 2);
  });

  test("constant scalars print as DML prints them: NaN and infinities, not null; strings quoted", () => {
    const constants = path.join(dir, "constants.dml");
    writeFileSync(constants, 'x = 0/0\ny = 1/0\nz = -1/0\ns = "a"\nprint(x + y + z)\nprint(s)\n');
    const r = dml("explain", constants);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /x: scalar<double> = NaN\n  y: scalar<double> = Infinity\n  z: scalar<double> = -Infinity\n  s: scalar<string> = "a"/);
  });
});
