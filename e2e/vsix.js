#!/usr/bin/env node
// The packaged extension: `npm run package` writes dml-lens.vsix; it must be
// at most 10 MB, hold no sources, source maps or dev files, install into
// code-server with `--install-extension`, and activate on a .dml file (the
// status bar shows the runtime and the optimizer, and the server's hints
// appear) with no development path involved.
"use strict";
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startCodeServer } = require("./code-server");

const root = path.resolve(__dirname, "..");
const vsix = path.join(root, "dml-lens.vsix");
const MAX_BYTES = 10 * 1024 * 1024;

(async () => {
  execFileSync("npm", ["run", "package"], { cwd: root, stdio: "ignore" });
  const bytes = fs.statSync(vsix).size;
  console.log(`dml-lens.vsix: ${(bytes / 1024 / 1024).toFixed(2)} MB (limit 10 MB)`);
  assert.ok(bytes <= MAX_BYTES);
  const listing = execFileSync(path.join(root, "node_modules", ".bin", "vsce"), ["ls", "--no-dependencies"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  const unwanted = listing.filter((f) => /\.(ts|map)$|^(test|e2e|engine|server|client|cli|scripts|examples)\//.test(f));
  assert.deepEqual(unwanted, [], "sources or dev files in the package");

  const extensions = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-vsix-"));
  const entry = require.resolve("code-server/out/node/entry.js");
  const installed = execFileSync(process.execPath, [entry, "--extensions-dir", extensions, "--install-extension", vsix], { encoding: "utf8" });
  assert.match(installed, /dml-lens\.dml-lens.*successfully installed|was successfully installed/i, installed);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-vsix-ws-"));
  fs.cpSync(path.join(__dirname, "workspace"), workspace, { recursive: true });
  const cs = await startCodeServer({ extensions });
  try {
    const page = await cs.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(cs.url(workspace, [["openFile", cs.remote(path.join(workspace, "sum_product.dml"))], ["skipWelcome", "true"]]));
    await page.waitForSelector(".statusbar-item:has-text('DML runtime')", { timeout: 60000 });
    await page.waitForSelector(".monaco-editor .squiggly-info", { timeout: 120000 });
    const status = await page.locator(".statusbar-item:has-text('optimizer')").first().innerText();
    console.log(`installed extension active: status bar "${status.trim()}"`);
    assert.match(status, /optimizer: (idle|budget reached), 5 cheaper rewrites/);
  } finally {
    await cs.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(extensions, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(`vsix test failed: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
});
