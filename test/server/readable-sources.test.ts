// source() while typing (server/src/readable-folders.ts guardedFileSourceReader):
// a file outside the readable folders is not read and the diagnostic says why;
// the SystemDS installation's scripts are read wherever the installation is.
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { parse } from "../../engine/syntax/parse";
import { folderInstallation } from "../../engine/program/folder-installation";
import { documentCheck } from "../../server/src/document-diagnostics";
import { ReadableFolders } from "../../server/src/readable-folders";

test("a sourced file outside the readable folders is refused; the installation's nn/ layer is read", () => {
  const base = mkdtempSync(path.join(tmpdir(), "dml-readable-"));
  const workspace = path.join(base, "ws");
  const outside = path.join(base, "outside");
  const systemds = path.join(base, "systemds");
  for (const folder of [workspace, outside, path.join(systemds, "scripts/builtin"), path.join(systemds, "scripts/nn/layers")]) mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(outside, "lib.dml"), "helper = function(double a) return (double b) { b = a }\n");
  writeFileSync(path.join(systemds, "scripts/builtin/double.dml"), "m_double = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
  writeFileSync(path.join(systemds, "scripts/nn/layers/twice.dml"), "forward = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X + X }\n");
  const installation = folderInstallation(systemds, "test")!;
  const text = 'source("../outside/lib.dml") as lib\nsource("nn/layers/twice.dml") as twice\nx = lib::helper(1)\nY = twice::forward(matrix(1, rows=2, cols=2))\nZ = twice::backward(Y)\n';
  const uri = pathToFileURL(path.join(workspace, "main.dml")).href;
  const { diagnostics } = documentCheck(uri, text, parse(text, { keepComments: true }), { readable: new ReadableFolders([workspace]), installation, workspaceFolders: [workspace] });
  const refusal = diagnostics.find((d) => d.code === "outside-readable-folders");
  assert.ok(refusal, JSON.stringify(diagnostics));
  assert.equal(refusal.range.start.line, 0);
  assert.match(refusal.message, /^analysis does not read '.*outside\/lib\.dml': it is outside the folders analysis may read/);
  const backward = diagnostics.filter((d) => d.message.includes("'backward' is not defined in 'nn/layers/twice.dml'"));
  assert.equal(backward.length, 1, JSON.stringify(diagnostics));
  assert.equal(backward[0]!.range.start.line, 4);
});
