// The extension in real VS Code, workspace not trusted (restricted mode):
// Run Cell refuses and says why; diagnostics and hover still work.
"use strict";
const assert = require("node:assert/strict");
const vscode = require("vscode");
const { suite, waitFor, open, hoverText } = require("./harness");

exports.run = suite("untrusted workspace", [
  [
    "the workspace is not trusted and the extension is active in restricted mode",
    async () => {
      assert.equal(vscode.workspace.isTrusted, false);
      await open("cells.dml");
      const extension = vscode.extensions.getExtension("dml-lens.dml-lens");
      await waitFor("activation", () => extension && extension.isActive);
    },
  ],
  [
    "Run Cell refuses, with the reason",
    async () => {
      const document = await open("cells.dml");
      const outcome = await vscode.commands.executeCommand("dmlLens.runCell", document.uri.toString(), 2);
      assert.equal(outcome.status, "refused", JSON.stringify(outcome));
      assert.match(outcome.reason, /does not run scripts in an untrusted workspace/);
    },
  ],
  [
    "diagnostics and hover still work",
    async () => {
      const document = await open("problems.dml");
      await waitFor("diagnostics", () => vscode.languages.getDiagnostics(document.uri).length >= 2);
      const cells = await open("cells.dml");
      const text = await waitFor("a hover", async () => (await hoverText(cells, new vscode.Position(3, 0))) || undefined);
      assert.match(text, /\*\*X\*\*: matrix 3 × 2/);
    },
  ],
]);
