#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's
// runTests({ vscodeExecutablePath }): it takes the same command-line flags,
// starts code-server with headless Chromium (code-server.js), opens the
// workbench with the extensionDevelopmentPath / extensionTestsPath payload,
// and exits with the code the extension-host test runner reports through
// window.codeAutomationExit. The tests themselves are ordinary
// extension-host tests against the public `vscode` API.
//
// DML_E2E_TRUST=untrusted opens the folder with Workspace Trust on and the
// folder not trusted (restricted mode); otherwise trust is off, as
// test-electron asks.
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startCodeServer } = require("./code-server");

const args = process.argv.slice(2);
const valuesOf = (name) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const timeoutMs = Number(process.env.DML_E2E_TIMEOUT_MS || 300000);

(async () => {
  const folder = args.find((a) => !a.startsWith("-")) || fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-workspace-"));
  const cs = await startCodeServer({ untrusted: process.env.DML_E2E_TRUST === "untrusted", userData: valuesOf("user-data-dir")[0], extensions: valuesOf("extensions-dir")[0] });
  const page = await cs.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const exited = new Promise((resolve) => page.exposeFunction("codeAutomationExit", (code) => resolve(code)));
  await page.exposeFunction("codeAutomationLog", (_type, parts) => {
    if (!/^\[(Service Worker)|Creating a socket|Resolv/.test(String(parts[0]))) console.log(...parts);
  });
  const payload = [...valuesOf("extensionDevelopmentPath").map((p) => ["extensionDevelopmentPath", cs.remote(p)]), ["extensionTestsPath", cs.remote(valuesOf("extensionTestsPath")[0])], ["skipWelcome", "true"]];
  await page.goto(cs.url(folder, payload));
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), timeoutMs))]);
  const log = cs.log();
  await cs.stop();
  if (code !== 0) console.error(`extension tests failed (${code}); code-server log:\n${log.slice(-3000)}`);
  process.exit(code === 0 ? 0 : 1);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
