// `dml check` with semantic diagnostics, through the built command line
// (bin/dml.js → dist/cli.js): semantic errors set exit code 1 and keep the
// --json contract; --syntax skips them; sourced files are read from the
// script's folder.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

const bin = path.join(repoRoot, "bin", "dml.js");

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface JsonReport {
  file: string;
  diagnostics: { severity: string; message: string; code?: string; range: { start: { line: number; character: number } } }[];
}

let dir = "";
const file = (name: string) => path.join(dir, name);

before(() => {
  assert.ok(existsSync(path.join(repoRoot, "dist", "cli.js")), "dist/cli.js is missing: run `npm run build` first");
  dir = mkdtempSync(path.join(tmpdir(), "dml-check-semantic-"));
  writeFileSync(file("unknown.dml"), "X = rand(rows=2, cols=2)\ns = colSum(X)\n");
  writeFileSync(file("warning.dml"), "c = 3\nif (c > 1) {\n  y = 1\n}\nprint(y)\n");
  writeFileSync(file("lib.dml"), "helper = function(double a) return (double b) {\n  b = a\n}\n");
  writeFileSync(file("uses-lib.dml"), 'source("lib.dml") as lib\nx = lib::helper(1)\ny = lib::helpr(2)\n');
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("dml check: semantic diagnostics", () => {
  test("an unknown function: exit 1, JSON with the error at its place", () => {
    const { code, stdout } = dml("check", "--json", file("unknown.dml"));
    assert.equal(code, 1);
    const report = at(JSON.parse(stdout) as JsonReport[], 0);
    assert.equal(report.diagnostics.length, 1);
    const d = at(report.diagnostics, 0);
    assert.deepEqual([d.severity, d.code, d.range.start], ["error", "unknown-function", { line: 1, character: 4 }]);
    assert.match(d.message, /did you mean 'colSums'\?/);
  });

  test("--syntax skips the semantic analysis", () => {
    const { code, stdout } = dml("check", "--syntax", "--json", file("unknown.dml"));
    assert.equal(code, 0);
    assert.deepEqual(at(JSON.parse(stdout) as JsonReport[], 0).diagnostics, []);
  });

  test("a warning alone keeps exit 0 and prints file:line:col: warning", () => {
    const { code, stdout } = dml("check", file("warning.dml"));
    assert.equal(code, 0);
    assert.equal(stdout.trim(), `${file("warning.dml")}:5:7: warning: 'y' may be used before it is assigned (it is not assigned when the if condition on line 2 is false)`);
  });

  test("ns::f is checked in the file sourced from the script's folder", () => {
    const { code, stdout } = dml("check", "--json", file("uses-lib.dml"));
    assert.equal(code, 1);
    const report = at(JSON.parse(stdout) as JsonReport[], 0);
    assert.deepEqual(report.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`), ["3:5 unknown-function"]);
  });

  test("every shipped example: exit 0 and no diagnostics at all", () => {
    const examples = readdirSync(path.join(repoRoot, "examples"))
      .filter((f) => f.endsWith(".dml"))
      .map((f) => path.join("examples", f));
    const { code, stdout, stderr } = dml("check", ...examples);
    assert.equal(code, 0, stdout + stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /0 errors, 0 warnings/);
  });
});
