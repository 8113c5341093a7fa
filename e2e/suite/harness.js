// A minimal test runner for the extension host (no mocha): tests run in
// order, each failure is printed with its stack, and `run` rejects when any
// failed, which makes the workbench exit with code 1.
"use strict";
const vscode = require("vscode");

function suite(name, tests) {
  return async () => {
    let failed = 0;
    for (const [title, fn] of tests) {
      const started = Date.now();
      try {
        await fn();
        console.log(`ok - ${name}: ${title} (${Date.now() - started} ms)`);
      } catch (error) {
        failed++;
        console.log(`not ok - ${name}: ${title}\n${error && error.stack ? error.stack : error}`);
      }
    }
    console.log(`# ${name}: ${tests.length - failed} passed, ${failed} failed`);
    if (failed > 0) throw new Error(`${failed} of ${tests.length} tests failed`);
  };
}

/** Polls `probe` until it returns something truthy (returned), or fails after `ms`. */
async function waitFor(what, probe, ms = 60000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

function workspaceFile(name) {
  return vscode.Uri.file(require("node:path").join(process.env.DML_E2E_WORKSPACE, name));
}

async function open(name) {
  const document = await vscode.workspace.openTextDocument(workspaceFile(name));
  await vscode.window.showTextDocument(document);
  return document;
}

async function hoverText(document, position) {
  const hovers = await vscode.commands.executeCommand("vscode.executeHoverProvider", document.uri, position);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
}

/** Waits until a tab with this label is open (a webview panel, say). */
function waitForTab(label, ms = 10000) {
  const labels = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
  return waitFor(`a "${label}" tab (tabs: ${labels().join(", ")})`, () => labels().includes(label), ms);
}

module.exports = { suite, waitFor, waitForTab, workspaceFile, open, hoverText };
