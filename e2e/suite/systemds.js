// "DML: Run on SystemDS" in real VS Code, with a stand-in SystemDS release
// (its bin/systemds is a shell script that prints its arguments and the
// script it was given, pauses, prints again and exits 3), named by
// SYSTEMDS_ROOT in the extension host: the output streams into the output
// channel, the outcome carries the exit code, the results view opens; the
// variant with the suggested rewrites runs a copy with the quick fixes'
// edits applied and leaves the file unchanged. Run: `node e2e/run.js systemds`.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const vscode = require("vscode");
const { suite, waitFor, waitForTab, open } = require("./harness");

function fixtureRelease() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-systemds-"));
  fs.mkdirSync(path.join(root, "scripts", "builtin"), { recursive: true });
  fs.writeFileSync(path.join(root, "scripts", "builtin", "twice.dml"), "m_twice = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = 2 * X }\n");
  fs.writeFileSync(path.join(root, "systemds-3.2.0.jar"), "");
  fs.mkdirSync(path.join(root, "bin"));
  const launcher = path.join(root, "bin", "systemds");
  fs.writeFileSync(
    launcher,
    '#!/bin/sh\necho "launcher: $*"\nprev=""\nfor a in "$@"; do\n  if [ "$prev" = "-f" ]; then echo "--- script"; cat "$a"; echo "--- end"; fi\n  prev="$a"\ndone\necho "first line"\nsleep 0.5\necho "second line"\necho "warning on stderr" >&2\nexit 3\n',
  );
  fs.chmodSync(launcher, 0o755);
  return root;
}

exports.run = suite("run on SystemDS", [
  [
    "without an installation: refused with how to point to one",
    async () => {
      delete process.env.SYSTEMDS_ROOT;
      const document = await open("params.dml");
      const outcome = await vscode.commands.executeCommand("dmlLens.runOnSystemds", document.uri.toString());
      assert.equal(outcome.status, "refused");
      assert.match(outcome.reason, /no SystemDS installation \(set SYSTEMDS_ROOT or the setting dmlLens\.systemds\.home\)/);
    },
  ],
  [
    "DML: Run on SystemDS streams the launcher's output and passes its exit code on; one run at a time",
    async () => {
      const root = fixtureRelease();
      process.env.SYSTEMDS_ROOT = root;
      const document = await open("params.dml");
      const first = vscode.commands.executeCommand("dmlLens.runOnSystemds", document.uri.toString());
      const second = await vscode.commands.executeCommand("dmlLens.runOnSystemds", document.uri.toString());
      assert.equal(second.status, "refused");
      assert.match(second.reason, /params\.dml is still running on SystemDS/);
      const outcome = await first;
      assert.equal(outcome.status, "ran", outcome.reason);
      assert.equal(outcome.exitCode, 3);
      assert.equal(outcome.stopped, false);
      assert.match(outcome.output[0], new RegExp(`^launcher: ${root}/systemds-3\\.2\\.0\\.jar -f ${document.uri.fsPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      assert.deepEqual(outcome.output.slice(-2), ["first line", "second line"]);
      assert.ok(outcome.output.includes(document.getText().split("\n")[0]), "the script's own text reached the launcher");
      assert.deepEqual(outcome.errors, ["warning on stderr"]);
      await waitForTab("DML Results");
    },
  ],
  [
    "with the suggested rewrites: a copy with the quick fixes applied runs; the file is unchanged",
    async () => {
      process.env.SYSTEMDS_ROOT = fixtureRelease();
      const document = await open("sum_product.dml");
      const before = document.getText();
      const line = before.split("\n").findIndex((l) => l.startsWith("G ="));
      await waitFor("the optimizer's hint on G", () => vscode.languages.getDiagnostics(document.uri).some((d) => d.range.start.line === line && String(d.code) === "cheaper-rewrite"), 120000);
      const outcome = await vscode.commands.executeCommand("dmlLens.runOnSystemdsWithRewrites", document.uri.toString());
      assert.equal(outcome.status, "ran", outcome.reason);
      assert.ok(outcome.output.includes("G = Uk %*% (t(Vk) %*% Vk) - X %*% Vk"), outcome.output.join("\n"));
      assert.ok(!outcome.output[0].includes(document.uri.fsPath), "a copy ran, not the file");
      assert.equal(document.getText(), before);
      assert.equal(fs.readFileSync(document.uri.fsPath, "utf8"), before);
    },
  ],
]);
