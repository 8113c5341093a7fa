// `dml check` through the built command line (bin/dml.js → dist/cli.js):
// exit codes 0 / 1 / 2 and the --json shape of the ARCHITECTURE.md contract.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot } from "../repo-root";

const root = repoRoot;
const bin = path.join(root, "bin", "dml.js");
const examples = path.join(root, "examples");

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function assertPosition(p: unknown): void {
  assert.equal(typeof p, "object");
  const { line, character } = p as { line: unknown; character: unknown };
  assert.ok(Number.isInteger(line) && (line as number) >= 0, `line ${String(line)}`);
  assert.ok(Number.isInteger(character) && (character as number) >= 0, `character ${String(character)}`);
}

/** Checks the `dml check --json` contract and returns the parsed reports. */
function assertCheckJson(stdout: string): { file: string; diagnostics: { severity: string; message: string; range: unknown }[] }[] {
  const reports = JSON.parse(stdout) as unknown;
  assert.ok(Array.isArray(reports), "top level is an array");
  for (const report of reports) {
    assert.equal(typeof report.file, "string");
    assert.ok(Array.isArray(report.diagnostics));
    for (const d of report.diagnostics) {
      assert.ok(["error", "warning", "information", "hint"].includes(d.severity), `severity ${d.severity}`);
      assert.equal(typeof d.message, "string");
      assert.ok(d.message.length > 0);
      assertPosition(d.range.start);
      assertPosition(d.range.end);
    }
  }
  return reports;
}

let dir = "";
let broken = "";

before(() => {
  assert.ok(existsSync(path.join(root, "dist", "cli.js")), "dist/cli.js is missing: run `npm run build` first");
  dir = mkdtempSync(path.join(tmpdir(), "dml-check-"));
  broken = path.join(dir, "broken.dml");
  writeFileSync(broken, "x = 1\ny = (x + \nz = 3\n");
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("dml check", () => {
  test("a good example: exit 0, JSON with no errors", () => {
    const file = path.join(examples, "linreg_cg.dml");
    const { code, stdout } = dml("check", "--json", file);
    assert.equal(code, 0);
    const reports = assertCheckJson(stdout);
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.file, file);
    assert.deepEqual(reports[0]!.diagnostics.filter((d) => d.severity === "error"), []);
  });

  test("every shipped example: exit 0 (--syntax)", () => {
    const files = readdirSync(examples)
      .filter((f) => f.endsWith(".dml"))
      .map((f) => path.join("examples", f));
    assert.ok(files.length >= 10);
    const { code, stdout, stderr } = dml("check", "--syntax", ...files);
    assert.equal(code, 0, stdout + stderr);
  });

  test("a syntax error: exit 1, JSON with an error diagnostic", () => {
    const { code, stdout } = dml("check", "--syntax", "--json", broken);
    assert.equal(code, 1);
    const reports = assertCheckJson(stdout);
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.file, broken);
    assert.ok(reports[0]!.diagnostics.some((d) => d.severity === "error"));
  });

  test("a syntax error: human output is file:line:col: severity: message, 1-based", () => {
    const { code, stdout } = dml("check", broken);
    assert.equal(code, 1);
    const lines = stdout.trim().split("\n");
    assert.ok(lines.length >= 1);
    for (const line of lines) {
      const m = /^(.*):(\d+):(\d+): (error|warning|information|hint): (.+)$/.exec(line);
      assert.ok(m, `line '${line}'`);
      assert.equal(m[1], broken);
      assert.ok(Number(m[2]) >= 1 && Number(m[2]) <= 4);
      assert.ok(Number(m[3]) >= 1);
    }
  });

  test("one good and one broken file: exit 1, one report each", () => {
    const good = path.join(examples, "kmeans.dml");
    const { code, stdout } = dml("check", "--json", good, broken);
    assert.equal(code, 1);
    assert.deepEqual(assertCheckJson(stdout).map((r) => r.file), [good, broken]);
  });

  test("an unreadable file: exit 2", () => {
    const { code, stderr } = dml("check", path.join(dir, "missing.dml"));
    assert.equal(code, 2);
    assert.match(stderr, /cannot read/);
  });

  test("bad usage: exit 2", () => {
    assert.equal(dml("check").code, 2);
    assert.equal(dml("check", "--frobnicate", broken).code, 2);
    assert.equal(dml("frobnicate").code, 2);
    assert.equal(dml().code, 2);
  });
});

describe("dml", () => {
  test("--version prints the package version", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    const { code, stdout } = dml("--version");
    assert.equal(code, 0);
    assert.equal(stdout.split("\n")[0], `DML Lens ${manifest.version}`);
  });

  test("--help lists the commands", () => {
    const { code, stdout } = dml("--help");
    assert.equal(code, 0);
    assert.match(stdout, /dml check FILE\.\.\./);
    assert.match(stdout, /dml bench/);
  });
});
