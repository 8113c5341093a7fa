#!/usr/bin/env node
// `npm run test:e2e`: the extension-host suites inside real VS Code
// (code-server 4.100.3, VS Code 1.100.3, in headless Chromium; see
// code-shim.js), each on a fresh copy of the workspace folder: `trusted`
// (activation, diagnostics, hover, quick fix, Run Cell) and `untrusted`
// (Workspace Trust on, the folder not trusted: the runtime refuses, the
// analysis still works) and `systemds` ("DML: Run on SystemDS" with a
// stand-in release). Needs `npm run build` and `bash e2e/setup.sh`.
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { runTests } = require("@vscode/test-electron");

const root = path.resolve(__dirname, "..");
const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["trusted", "untrusted", "systemds"];

(async () => {
  for (const suite of suites) {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), `dml-e2e-${suite}-`));
    fs.cpSync(path.join(__dirname, "workspace"), workspace, { recursive: true });
    const started = Date.now();
    console.log(`# e2e suite ${suite}`);
    try {
      await runTests({
        vscodeExecutablePath: path.join(__dirname, "code-shim.js"),
        extensionDevelopmentPath: root,
        extensionTestsPath: path.join(__dirname, "suite", `${suite}.js`),
        launchArgs: [workspace],
        extensionTestsEnv: { DML_E2E_TRUST: suite === "untrusted" ? "untrusted" : "trusted", DML_E2E_WORKSPACE: workspace },
      });
    } catch (error) {
      console.error(`e2e suite ${suite} failed: ${error instanceof Error ? error.message : error}`);
      process.exitCode = 1;
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
    console.log(`# e2e suite ${suite}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
})();
