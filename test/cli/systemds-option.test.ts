// `--systemds PATH`, SYSTEMDS_ROOT and `dml --version` through the built command line (bin/dml.js).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { repoRoot } from "../repo-root";

const bin = path.join(repoRoot, "bin", "dml.js");
const home = mkdtempSync(path.join(tmpdir(), "dml-home-"));
/** No SYSTEMDS_ROOT, no Python environment, a home without packages: only what a test names is found. */
const cleanEnv: NodeJS.ProcessEnv = { PATH: path.dirname(process.execPath), HOME: home };

function dml(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8", env: { ...cleanEnv, ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Scripts written for this test: a builtin and an nn-style layer. */
const SCRIPTS: Record<string, string> = {
  "scripts/builtin/double.dml": "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n",
  "scripts/nn/layers/twice.dml": "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n",
};

function fixtureJar(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "dml-jar-"));
  const jar = path.join(folder, "systemds-3.2.0.jar");
  writeFileSync(jar, zipSync(Object.fromEntries(Object.entries(SCRIPTS).map(([n, t]) => [n, strToU8(t)]))));
  return jar;
}

function fixtureTree(): string {
  const root = mkdtempSync(path.join(tmpdir(), "dml-tree-"));
  for (const [name, text] of Object.entries(SCRIPTS)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  writeFileSync(path.join(root, "pom.xml"), "<project><artifactId>systemds</artifactId><version>3.3.0-SNAPSHOT</version></project>\n");
  return root;
}

describe("dml and the SystemDS installation", () => {
  test("--version names DML Lens's version and the installation: none, SYSTEMDS_ROOT's, or --systemds's (which wins)", () => {
    const none = dml(["--version"]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^DML Lens \d+\.\d+\.\d+\nno SystemDS installation \(set SYSTEMDS_ROOT or --systemds PATH\)\n$/);
    const tree = fixtureTree();
    const fromRoot = dml(["--version"], { SYSTEMDS_ROOT: tree });
    assert.equal(fromRoot.stdout.split("\n")[1], `SystemDS 3.3.0-SNAPSHOT (source-tree ${tree}, from SYSTEMDS_ROOT)`);
    const jar = fixtureJar();
    const fromFlag = dml(["--version", "--systemds", jar], { SYSTEMDS_ROOT: tree });
    assert.equal(fromFlag.code, 0, fromFlag.stderr);
    assert.equal(fromFlag.stdout.split("\n")[1], `SystemDS 3.2.0 (jar ${jar}, from --systemds)`);
  });

  test("a --systemds that names no installation: the message says what was looked for, exit 2, for every command", () => {
    const missing = path.join(home, "no-systemds-here");
    for (const args of [["--version"], ["check", "examples/linreg_cg.dml"], ["explain", "examples/linreg_cg.dml"], ["run", "examples/linreg_cg.dml"]]) {
      const r = dml([...args, "--systemds", missing]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, new RegExp(`^dml ${args[0]!.replace(/^--/, "--")}: --systemds names ${missing}, which does not exist; expected a SystemDS source tree or release \\(a folder with scripts/builtin/\\) or a SystemDS jar\\n$`));
    }
    const notJar = path.join(home, "notes.jar");
    writeFileSync(notJar, "plain text");
    const r = dml(["check", "examples/linreg_cg.dml", `--systemds=${notJar}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a readable jar \(zip\) file/);
  });

  test("a SYSTEMDS_ROOT that names no installation is a warning; the command goes on", () => {
    const r = dml(["check", "examples/linreg_cg.dml"], { SYSTEMDS_ROOT: path.join(home, "missing-root") });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^dml check: warning: SYSTEMDS_ROOT names .*missing-root, which does not exist/);
  });

  test("source(\"nn/...\") finds the layer inside the jar for check and run", () => {
    const jar = fixtureJar();
    const folder = mkdtempSync(path.join(tmpdir(), "dml-driver-"));
    const driver = path.join(folder, "driver.dml");
    writeFileSync(driver, 'source("nn/layers/twice.dml") as twice\nX = matrix(1.5, rows=2, cols=3)\nY = twice::forward(X)\nprint("sum " + sum(Y))\n');
    const checked = dml(["check", driver, "--systemds", jar]);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    const ran = dml(["run", driver, "--systemds", jar]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "sum 18.0\n");
    const withoutLayer = dml(["run", driver, "--no-check"]);
    assert.equal(withoutLayer.code, 1);
    assert.match(withoutLayer.stderr, /cannot read source file 'nn\/layers\/twice\.dml'/);
  });
});
