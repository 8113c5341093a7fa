import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { folderInstallation } from "../../engine/program/folder-installation";
import { SourceFiles } from "../../engine/program/source-reader";
import { builtinFunctionNames, describeInstallation } from "../../engine/program/systemds-installation";

/** A SystemDS source tree with two builtin scripts and one nn layer, written for the test. */
function fixtureTree(): string {
  const root = mkdtempSync(path.join(tmpdir(), "dml-systemds-"));
  mkdirSync(path.join(root, "scripts/builtin"), { recursive: true });
  mkdirSync(path.join(root, "scripts/nn/layers"), { recursive: true });
  writeFileSync(path.join(root, "scripts/builtin/double.dml"), "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
  writeFileSync(path.join(root, "scripts/builtin/usesLayer.dml"), 'source("nn/layers/twice.dml") as twice\nm_usesLayer = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = twice::forward(X) }\n');
  writeFileSync(path.join(root, "scripts/nn/layers/twice.dml"), "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n");
  writeFileSync(path.join(root, "scripts/builtin/notes.txt"), "not a script");
  return root;
}

describe("a SystemDS installation's script library", () => {
  test("a folder with scripts/builtin/ is a source tree; its builtin scripts are its .dml files", () => {
    const root = fixtureTree();
    const installation = folderInstallation(root, "test")!;
    assert.equal(installation.kind, "source-tree");
    assert.deepEqual([...installation.builtinScripts].sort(), ["double", "usesLayer"]);
    assert.equal(describeInstallation(installation), `SystemDS (source-tree ${root}, from test)`);
    assert.equal(folderInstallation(path.join(root, "scripts"), "test"), undefined);
  });

  test("source() paths fall back to the installation's scripts/, after the working directory and the folders above the script", () => {
    const root = fixtureTree();
    const installation = folderInstallation(root, "test")!;
    const elsewhere = mkdtempSync(path.join(tmpdir(), "dml-user-"));
    const script = path.join(elsewhere, "driver.dml");
    const without = new SourceFiles([elsewhere]).load(script, "nn/layers/twice.dml");
    assert.equal(without.kind, "missing");
    const files = new SourceFiles([elsewhere], undefined, undefined, installation);
    const loaded = files.load(script, "nn/layers/twice.dml");
    assert.equal(loaded.kind, "file");
    assert.equal(loaded.kind === "file" && loaded.file, path.join(root, "scripts/nn/layers/twice.dml"));
    assert.equal(files.load(script, "scripts/nn/layers/twice.dml").kind, "file");
    // a local copy next to the script wins over the installation's
    writeFileSync(path.join(elsewhere, "local.dml"), "");
    mkdirSync(path.join(elsewhere, "nn/layers"), { recursive: true });
    writeFileSync(path.join(elsewhere, "nn/layers/twice.dml"), "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X }\n");
    const local = new SourceFiles([elsewhere], undefined, undefined, installation).load(script, "nn/layers/twice.dml");
    assert.equal(local.kind === "file" && local.file, path.join(elsewhere, "nn/layers/twice.dml"));
  });

  test("a builtin script is loaded and parsed once, by name; names it does not ship give undefined", () => {
    const installation = folderInstallation(fixtureTree(), "test")!;
    const files = new SourceFiles([tmpdir()], undefined, undefined, installation);
    const loaded = files.loadBuiltinScript("double");
    assert.equal(loaded?.kind, "file");
    assert.equal(loaded?.kind === "file" && loaded.parsed.program.body.length, 1);
    assert.equal(files.loadBuiltinScript("double"), loaded);
    assert.equal(files.loadBuiltinScript("lm"), undefined);
    assert.equal(files.loadBuiltinScript("notes"), undefined);
    assert.equal(new SourceFiles([tmpdir()]).loadBuiltinScript("double"), undefined);
  });

  test("m_/f_/s_ by the first argument's data type (Builtins.getInternalFName), the others as fallbacks", () => {
    assert.deepEqual(builtinFunctionNames("lm", "matrix"), ["m_lm", "s_lm", "f_lm"]);
    assert.deepEqual(builtinFunctionNames("dmv", "frame"), ["f_dmv", "m_dmv", "s_dmv"]);
    assert.deepEqual(builtinFunctionNames("sherlock", "scalar")[0], "s_sherlock");
    assert.deepEqual(builtinFunctionNames("x", "unknown")[0], "m_x");
  });
});

describe("which function a builtin call runs", () => {
  test("m_NAME for a matrix argument; a script without it, or unreadable, is a problem naming the file", async () => {
    const { resolveBuiltinScript } = await import("../../engine/program/builtin-script");
    const root = fixtureTree();
    writeFileSync(path.join(root, "scripts/builtin/broken.dml"), "m_broken = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X +  }\n");
    writeFileSync(path.join(root, "scripts/builtin/misnamed.dml"), "m_misnamedToo = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X }\n");
    // A script defining the function under the builtin's own name: it joins the builtin namespace, and the call finds it there.
    writeFileSync(path.join(root, "scripts/builtin/plain.dml"), "plain = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X }\n");
    const installation = folderInstallation(root, "test")!;
    const files = new SourceFiles([tmpdir()], undefined, undefined, installation);
    const found = resolveBuiltinScript(files, "double", "matrix");
    assert.equal(found?.kind, "function");
    assert.equal(found?.kind === "function" && found.name, "m_double");
    assert.equal(found?.kind === "function" && found.definition.params.length, 1);
    const broken = resolveBuiltinScript(files, "broken", "matrix");
    assert.match(broken?.kind === "problem" ? broken.message : "", /broken\.dml:1:\d+ has a syntax error/);
    const misnamed = resolveBuiltinScript(files, "misnamed", "matrix");
    assert.match(misnamed?.kind === "problem" ? misnamed.message : "", /defines no function m_misnamed or s_misnamed/);
    const plain = resolveBuiltinScript(files, "plain", "matrix");
    assert.equal(plain?.kind === "function" && plain.name, "plain");
    assert.equal(resolveBuiltinScript(files, "lm", "matrix"), undefined);
  });
});
