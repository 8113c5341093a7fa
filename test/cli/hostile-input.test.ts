// Regression tests for what the command-line fuzz harness (test/fuzz/cli.harness.ts) and issue 14 found:
// each used to end in "dml: internal error" with a stack trace, a hang or a silent "0 errors".
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { check } from "../../cli/check";
import { lsp } from "../../cli/lsp";
import { captureOutput } from "../../cli/output";
import { run } from "../../cli/run";
import { UsageError } from "../../cli/usage";
import { repoRoot } from "../repo-root";

const folder = mkdtempSync(path.join(tmpdir(), "dml-hostile-"));

function script(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

async function dml(command: (args: readonly string[]) => Promise<number>, args: string[]) {
  const { value, stdout, stderr } = await captureOutput(() => command(args));
  assert.doesNotMatch(stdout + stderr, /internal error|\n\s+at /);
  return { code: value, stdout, stderr };
}

describe("hostile input to the command line", () => {
  it("dims that are not non-negative integers are located errors of check (no crash)", async () => {
    const file = script("dims.dml", "A = matrix(0, rows=-5, cols=3)\nB = matrix(0, rows=5, cols=1e-308)\nC = rand(rows=-1, cols=2)\nprint(sum(A) + sum(B) + sum(C))\n");
    const { code, stdout } = await dml(check, [file]);
    assert.equal(code, 1);
    assert.deepEqual(stdout.trim().split("\n"), [
      `${file}:1:5: error: matrix(...): rows must be a non-negative integer, found -5`,
      `${file}:2:5: error: matrix(...): cols must be a non-negative integer, found 1e-308`,
      `${file}:3:5: error: rand(...): rows must be a non-negative integer, found -1`,
    ]);
  });

  it("3,000 operands, 10,000 brackets and 10,000 nested blocks: one located 'nested too deeply' error each", async () => {
    const cases: [string, string, RegExp][] = [
      ["chain.dml", "x = 1\ny = " + Array.from({ length: 3000 }, () => "x").join(" + ") + "\nprint(y)\n", /:2:\d+: error: expression nested too deeply \(3001 levels; limit 1000\)/],
      ["brackets.dml", "x = " + "(".repeat(10000) + "1" + ")".repeat(10000) + "\n", /:1:155: error: expression nested too deeply \(10000 levels of brackets; limit 150\)/],
      ["blocks.dml", "x = 1\n" + "if (x > 0) {\n".repeat(10000) + "x = 2\n" + "}\n".repeat(10000), /:152:4: error: expression nested too deeply \(10000 levels of brackets; limit 150\)/],
    ];
    for (const [name, text, expected] of cases) {
      for (const command of [check, run]) {
        const { code, stdout, stderr } = await dml(command, [script(name, text)]);
        assert.equal(code, 1, name);
        assert.match(stdout + stderr, expected, name);
      }
    }
  });

  it("a call tree of 25 levels with 3 calls each is checked within its work bound, with a located warning", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 25; i++) lines.push(`f${i} = function(double x) return (double y) {\n  y = f${i + 1}(x * 3 + 1) + f${i + 1}(x * 3 + 2) + f${i + 1}(x * 3 + 3)\n}`);
    lines.push("f25 = function(double x) return (double y) { y = x }", "y = f0(1)", "print(y)", "");
    const file = script("tree.dml", lines.join("\n"));
    const started = Date.now();
    const { code, stdout } = await dml(check, [file]);
    assert.equal(code, 0);
    assert.match(stdout, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:77:5: warning: some function results are sized as unknown from this call on`));
    assert.ok(Date.now() - started < 60_000);
  });

  it("broken source() targets are errors of check at the statement; the check of a source cycle is a warning", async () => {
    mkdirSync(path.join(folder, "lib.dml"), { recursive: true });
    const cases: [string, RegExp][] = [
      ['source("lib.dml") as l\n', /:1:1: error: cannot read source file 'lib.dml' \(.*\): it is a folder, not a file/],
      ['source("/dev/zero") as z\n', /:1:1: error: cannot read source file '\/dev\/zero': it is a device, not a regular file/],
      ['source("nowhere.dml") as n\n', /:1:1: error: cannot read source file 'nowhere.dml': no such file/],
    ];
    for (const [text, expected] of cases) {
      const { code, stdout } = await dml(check, [script("src.dml", text + "print(1)\n")]);
      assert.equal(code, 1, text);
      assert.match(stdout, expected);
    }
    const { code, stdout } = await dml(check, [script("self.dml", 'source("self.dml") as me\nprint(1)\n')]);
    assert.equal(code, 0);
    assert.match(stdout, /self.dml:1:1: warning: source cycle: self.dml → self.dml/);
  });

  it("run --time-limit stops an endless loop with a located error, exit 1", async () => {
    const file = script("endless.dml", "i = 0\nwhile (TRUE) {\n  i = i + 1\n}\n");
    const { code, stderr } = await dml(run, [file, "--time-limit", "0.5"]);
    assert.equal(code, 1);
    assert.equal(stderr.trim(), `${file}:2:1: error: interrupted: the --time-limit of 0.5 s was reached`);
    await assert.rejects(run([file, "--time-limit", "0"]), /--time-limit needs a positive number of seconds/);
  });

  it("dml lsp with a bad --socket or --pipe is a usage error (exit 2), not an internal error", async () => {
    for (const transport of ["--socket=abc", "--socket=", "--socket=70000", "--pipe="]) {
      await assert.rejects(lsp([transport]), (e: unknown) => e instanceof UsageError && /^dml lsp: --(socket|pipe) needs/.test(e.message));
    }
    const cli = path.join(repoRoot, "dist", "cli.js");
    assert.ok(existsSync(cli), "dist/cli.js is missing: run `npm run build` first");
    const result = spawnSync(process.execPath, [cli, "lsp", "--socket=abc"], { encoding: "utf8", timeout: 30_000 });
    assert.equal(result.status, 2);
    assert.equal(result.stderr, "dml lsp: --socket needs a port number from 1 to 65535, found 'abc'\nRun 'dml --help' for usage.\n");
  });
});
