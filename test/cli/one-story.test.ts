// check, explain and run tell one story: on the same faulty script with the
// same name=value arguments, each prints the same located line
// (`file:line:col: severity: message`) and exits 1 (2 for a script that
// cannot be read). check and explain print problems on standard output, run
// on standard error (its standard output is the script's).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { sourceCandidates } from "../../engine/program/source-reader";
import { repoRoot } from "../repo-root";

const bin = path.join(repoRoot, "bin", "dml.js");
const dir = mkdtempSync(path.join(tmpdir(), "dml-one-story-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const iris = path.join(repoRoot, "examples", "data", "iris_X.csv");

function dml(...args: string[]) {
  return dmlIn(repoRoot, ...args);
}

function dmlIn(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function script(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Runs the three commands and asserts each reports `expected` (and exits 1); returns their outputs. */
function assertOneStory(file: string, args: string[], expected: string) {
  const check = dml("check", file, ...args);
  const explain = dml("explain", file, ...args);
  const run = dml("run", file, ...args);
  const line = `${file}:${expected}`;
  assert.ok(check.stdout.split("\n").includes(line), `check:\n${check.stdout}\nwanted:\n${line}`);
  assert.ok(explain.stdout.split("\n").includes(line), `explain:\n${explain.stdout}\nwanted:\n${line}`);
  assert.ok(run.stderr.split("\n").includes(line), `run:\n${run.stderr}\nwanted:\n${line}`);
  assert.deepEqual([check.code, explain.code, run.code], [1, 1, 1]);
  return { check, explain, run };
}

describe("check, explain and run report the same problem the same way", () => {
  test("a misspelt variable: the same 'did you mean', and run runs nothing", () => {
    const file = script("typo.dml", 'lambda = 0.5\nprint("start")\nX = rand(rows=10, cols=3, seed=1)\ny = X * lamda\nprint(sum(y))\n');
    const { run } = assertOneStory(file, [], "4:9: error: 'lamda' is not defined: it is never assigned; did you mean 'lambda'?");
    assert.equal(run.stdout, "", "nothing runs before the error is reported");
  });

  test("a syntax error", () => {
    const file = script("syntax.dml", "x = 1\ny = (x + \nz = 3\n");
    const { explain } = assertOneStory(file, [], "3:3: error: expected ')' but found '='");
    const json = JSON.parse(dml("explain", file, "--json").stdout) as { blocks: unknown[]; diagnostics: { message: string }[] };
    assert.deepEqual(json.blocks, []);
    assert.deepEqual(json.diagnostics.map((d) => d.message), ["expected ')' but found '='"]);
    assert.match(explain.stdout, /^syntax\.dml: 0 blocks\n/);
  });

  test("a misspelt function and argument name", () => {
    const file = script("calls.dml", "twice = function(double a) return (double b) { b = 2 * a }\nx = twicee(3)\ny = twice(aa=3)\n");
    assertOneStory(file, [], "2:5: error: unknown function 'twicee'; did you mean 'twice'?");
    assertOneStory(file, [], "3:11: error: function 'twice' has no parameter 'aa'; did you mean 'a'?");
  });

  test("wrong dims in a matrix multiply, with sizes from the script", () => {
    const file = script("dims.dml", "A = rand(rows=10, cols=3, seed=1)\nB = rand(rows=4, cols=2, seed=2)\nC = A %*% B\nprint(sum(C))\n");
    assertOneStory(file, [], "3:5: error: the inner dimensions of %*% do not match: 10 x 3 %*% 4 x 2");
  });

  test("wrong dims that only the name=value data file reveals (check sizes with the parameters)", () => {
    const file = script("data-dims.dml", "X = read($X)\nw = matrix(1, rows=3, cols=1)\ny = X %*% w\nprint(sum(y))\n");
    assertOneStory(file, [`X=${iris}`], "3:5: error: the inner dimensions of %*% do not match: 150 x 4 %*% 3 x 1");
    const unsized = dml("check", file);
    assert.equal(unsized.code, 0, unsized.stdout);
    assert.doesNotMatch(unsized.stdout, /inner dimensions/);
  });

  test("a missing data file, named in the script or by a parameter, at the read() call", () => {
    const literal = script("missing-data.dml", 'n = 3\nprint(n)\nX = read("nothere.csv")\nprint(sum(X))\n');
    const looked = `(looked in ${path.join(dir, "nothere.csv")}, ${path.join(repoRoot, "nothere.csv")})`;
    const { run } = assertOneStory(literal, [], `3:5: error: cannot read data file 'nothere.csv': no such file ${looked}`);
    assert.doesNotMatch(run.stderr, /ENOENT|\n\s+at /);
    const byParameter = script("missing-data-param.dml", "X = read($X)\nprint(sum(X))\n");
    const missing = path.join(dir, "gone.csv");
    assertOneStory(byParameter, [`X=${missing}`], `1:5: error: cannot read data file '${missing}': no such file (looked in ${missing})`);
  });

  test("a data file whose .mtd cannot be parsed, at the read() call, naming the .mtd position", () => {
    writeFileSync(path.join(dir, "m.csv"), "1,2\n3,4\n");
    writeFileSync(path.join(dir, "m.csv.mtd"), '{"data_type": "matrix", "rows": 2, "cols": 2, "format": "csv", "header": }');
    const file = script("broken-mtd.dml", 'X = read("m.csv")\nprint(sum(X))\n');
    const { check } = assertOneStory(file, [], "1:5: error: m.csv.mtd:1:74: malformed .mtd: expected a value, found '}'");
    assert.equal(check.stdout.trim().split("\n").length, 1, "no guesses about the sizes or format of a read that cannot work");
  });

  test("a missing source() file, at the source statement, with the places looked at", () => {
    const file = script("missing-source.dml", 'source("nothere_lib.dml") as L\nx = L::f(1)\nprint(x)\n');
    const looked = sourceCandidates(file, "nothere_lib.dml", [repoRoot]);
    assert.deepEqual(looked.slice(0, 3), [path.join(dir, "nothere_lib.dml"), path.join(dir, "scripts", "nothere_lib.dml"), path.join(repoRoot, "nothere_lib.dml")]);
    const message = `cannot read source file 'nothere_lib.dml': no such file (looked in ${path.join(dir, "nothere_lib.dml")}, ${path.join(repoRoot, "nothere_lib.dml")} and ${looked.length - 2} more places: scripts/ in each, and the folders above the script)`;
    assertOneStory(file, [], `1:1: error: ${message}`);
    const run = dml("run", file, "--no-check");
    assert.equal(run.stderr, `${file}:1:1: error: ${message}\n`);
  });

  test("a missing $parameter, when the command gives parameters", () => {
    const file = script("param.dml", "X = read($X)\nn = $N\nk = ifdef($k, 2)\nprint(nrow(X) * n * k)\n");
    assertOneStory(file, ["N=3"], "1:10: error: parameter $X has no value: pass X=value, or give a default with ifdef($X, ...)");
    const given = dml("run", file, "N=3", `X=${iris}`);
    assert.equal(given.code, 0, given.stderr);
    assert.equal(given.stdout, "900\n");
  });

  test("a missing script file: one line naming the command and the file, exit 2", () => {
    for (const command of ["check", "explain", "run"]) {
      const r = dml(command, "nothere.dml");
      assert.equal(r.code, 2, command);
      assert.equal(r.stdout, "", command);
      assert.equal(r.stderr, `dml ${command}: cannot read nothere.dml: no such file\n`);
    }
  });
});

describe("dml check with name=value", () => {
  test("several files and parameters in any order; a name=value is never taken for a file", () => {
    const a = script("a.dml", "X = read($X)\nprint(nrow(X))\n");
    const b = script("b.dml", "Y = read($X)\nv = matrix(1, rows=5, cols=1)\nz = Y %*% v\n");
    const r = dml("check", a, `X=${iris}`, b);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stdout, `${b}:3:5: error: the inner dimensions of %*% do not match: 150 x 4 %*% 5 x 1\n`);
    assert.equal(r.stderr, "checked 2 files: 1 error, 0 warnings\n");
    const dollar = dml("check", a, `$X=${iris}`, "--json");
    assert.equal(dollar.code, 0, dollar.stdout);
  });

  test("without any name=value, an unset $parameter is not a problem of the script", () => {
    const file = script("unset.dml", "X = read($X)\nprint(nrow(X))\n");
    const r = dml("check", file);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
  });

  test("explain and run: an argument after FILE that is not name=value is a usage error", () => {
    const file = script("ok.dml", "print(1)\n");
    for (const command of ["explain", "run"]) {
      const r = dml(command, file, "other.dml");
      assert.equal(r.code, 2, command);
      assert.match(r.stderr, new RegExp(`dml ${command}: expected name=value`));
    }
  });
});

describe("data kept elsewhere and the workspace file", () => {
  test("a missing data file whose sizes are declared is analyzed by check and explain, and an error for run", () => {
    const workspace = mkdtempSync(path.join(dir, "ws-"));
    writeFileSync(path.join(workspace, "dml-lens.json"), JSON.stringify({ inputs: { "far/big.csv": { rows: 1000, cols: 20, nnz: 20000 } } }));
    const file = path.join(workspace, "far.dml");
    writeFileSync(file, 'X = read("far/big.csv")\nY = read("far/other.csv")  # @size 20 x 3\nZ = X %*% Y\nprint(sum(Z))\n');
    const check = dmlIn(workspace, "check", file);
    assert.equal(check.code, 0, check.stdout);
    assert.equal(check.stdout, "");
    const explain = dmlIn(workspace, "explain", file);
    assert.equal(explain.code, 0, explain.stdout);
    assert.match(explain.stdout, /  Z: 1,000 x 3, nnz /);
    const run = dmlIn(workspace, "run", file);
    assert.equal(run.code, 1);
    const looked = (name: string) => `(looked in ${path.join(workspace, name)})`;
    assert.equal(
      run.stderr,
      `${file}:1:5: error: cannot read data file 'far/big.csv': no such file ${looked("far/big.csv")}\n` +
        `${file}:2:5: error: cannot read data file 'far/other.csv': no such file ${looked("far/other.csv")}\n`,
    );
  });

  test("run takes $name values from the workspace file's params, as check and explain size with them", () => {
    const workspace = mkdtempSync(path.join(dir, "ws-"));
    writeFileSync(path.join(workspace, "dml-lens.json"), JSON.stringify({ params: { N: 4, M: 1 } }));
    const file = path.join(workspace, "params.dml");
    writeFileSync(file, "print($N * 2 + $M)\n");
    const run = dmlIn(workspace, "run", file);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "9\n");
    const overridden = dmlIn(workspace, "run", file, "M=10");
    assert.equal(overridden.stdout, "18\n");
  });
});

describe("dml run: the checks before running", () => {
  test("a read inside a branch whose condition folds to false is dead: check is silent, and run runs", () => {
    const file = script("branch.dml", 'x = 1\nif (x > 5) {\n  X = read("gone.csv")\n  print(sum(X))\n}\nprint("done")\n');
    const check = dml("check", file);
    assert.equal(check.code, 0);
    assert.doesNotMatch(check.stdout, /gone\.csv/);
    const run = dml("run", file);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "done\n");
  });

  test("a read inside a branch that may not run is a warning for check, and run runs when it is not taken", () => {
    const file = script("branch-unknown.dml", 'x = as.scalar(rand(rows=1, cols=1, min=0, max=1, seed=3))\nif (x > 5) {\n  X = read("gone.csv")\n  print(sum(X))\n}\nprint("done")\n');
    const check = dml("check", file);
    assert.equal(check.code, 0);
    assert.match(check.stdout, /:3:7: warning: cannot read data file 'gone\.csv': no such file/);
    const run = dml("run", file);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "done\n");
  });

  test("--cell N checks only the cells that run", () => {
    const file = script("cells.dml", "# %% one\nx = 2\nprint(x)\n# %% two\ny = x %*% undefinedThing\n");
    const first = dml("run", file, "--cell", "1");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "2\n");
    const both = dml("run", file, "--cell", "2");
    assert.equal(both.code, 1);
    assert.match(both.stderr, /:5:11: error: 'undefinedThing' is not defined/);
  });

  test("--no-check runs anyway; the runtime's error carries the same 'did you mean'", () => {
    const file = script("typo-run.dml", 'lambda = 0.5\nprint("start")\ny = 2 * lamda\n');
    const r = dml("run", file, "--no-check");
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "start\n");
    assert.equal(r.stderr, `${file}:3:9: error: 'lamda' has no value here; did you mean 'lambda'?\n`);
  });

  test("with --no-check, the runtime finds the same problems in the same words as check", () => {
    const cases: [string, string][] = [
      ["A = matrix(1, rows=3, cols=2)\nB = matrix(1, rows=3, cols=2)\nC = A %*% B\n", "3:5: error: the inner dimensions of %*% do not match: 3 x 2 %*% 3 x 2"],
      ["A = matrix(1, rows=3, cols=2)\nB = matrix(1, rows=4, cols=5)\nC = A + B\n", "3:5: error: incompatible dimensions for '+': 3 x 2 and 4 x 5 (not equal, and neither side is a row or column vector that broadcasts)"],
      ["A = matrix(1, rows=3, cols=2)\nB = matrix(1, rows=1, cols=3)\nC = A * B\n", "3:5: error: incompatible dimensions for '*': 3 x 2 and 1 x 3 (not equal, and neither side is a row or column vector that broadcasts)"],
      ["A = matrix(1, rows=3, cols=2)\nB = matrix(1, rows=4, cols=5)\nC = cbind(A, B)\n", "3:5: error: cbind needs the same number of rows: 3 x 2, 4 x 5"],
      ["A = matrix(1, rows=3, cols=2)\nB = matrix(1, rows=4, cols=5)\nC = rbind(A, B)\n", "3:5: error: rbind needs the same number of columns: 3 x 2, 4 x 5"],
      ["A = matrix(1, rows=3, cols=2)\nx = as.scalar(A)\n", "2:5: error: as.scalar needs a 1 x 1 matrix, but this one is 3 x 2"],
      ["twice = function(double a) return (double b) { b = 2 * a }\nx = twicee(3)\n", "2:5: error: unknown function 'twicee'; did you mean 'twice'?"],
      ['X = read("nothere.csv")\n', `1:5: error: cannot read data file 'nothere.csv': no such file (looked in ${path.join(dir, "nothere.csv")}, ${path.join(repoRoot, "nothere.csv")})`],
    ];
    cases.forEach(([text, expected], i) => {
      const file = script(`runtime-${i}.dml`, text);
      const check = dml("check", file);
      const run = dml("run", file, "--no-check");
      assert.equal(check.stdout, `${file}:${expected}\n`);
      assert.equal(run.stderr, `${file}:${expected}\n`);
    });
    const parameter = script("runtime-param.dml", "n = $N + 1\nprint(n)\n");
    const expected = `${parameter}:1:5: error: parameter $N has no value: pass N=value, or give a default with ifdef($N, ...)\n`;
    assert.equal(dml("check", parameter, "M=1").stdout, expected);
    assert.equal(dml("run", parameter, "--no-check", "M=1").stderr, expected);
  });

  test("--json reports the static errors in its errors list", () => {
    const file = script("json.dml", "A = matrix(1, rows=2, cols=3)\nB = A %*% A\n");
    const r = dml("run", file, "--json");
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as { ok: boolean; errors: string[] };
    assert.equal(json.ok, false);
    assert.deepEqual(json.errors, [`${file}:2:5: error: the inner dimensions of %*% do not match: 2 x 3 %*% 2 x 3`]);
  });
});
