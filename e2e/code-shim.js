#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's
// runTests({ vscodeExecutablePath }): it takes the same command-line flags,
// starts code-server (VS Code 1.100's server and web workbench) on a free
// loopback port, opens the workbench in headless Chromium with the
// extensionDevelopmentPath / extensionTestsPath payload, and exits with the
// code the extension-host test runner reports through
// window.codeAutomationExit. The tests themselves are ordinary
// extension-host tests against the public `vscode` API.
//
// DML_E2E_TRUST=untrusted opens the folder with Workspace Trust on and the
// folder not trusted (restricted mode); otherwise trust is off, as
// test-electron asks.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

const args = process.argv.slice(2);
const valuesOf = (name) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const developmentPaths = valuesOf("extensionDevelopmentPath");
const testsPath = valuesOf("extensionTestsPath")[0];
const untrusted = process.env.DML_E2E_TRUST === "untrusted";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-"));
const userData = valuesOf("user-data-dir")[0] || path.join(tmp, "user");
// The extensions folder must exist, or the development extension silently does not load.
const extensions = valuesOf("extensions-dir")[0] || path.join(tmp, "extensions");
for (const dir of [userData, extensions, path.join(userData, "User")]) fs.mkdirSync(dir, { recursive: true });
const folder = args.find((a) => !a.startsWith("-")) || fs.mkdtempSync(path.join(tmp, "workspace-"));
const settings = untrusted
  ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.emptyWindow": false }
  : { "security.workspace.trust.enabled": false };
fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({ ...settings, "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off" }));
const codeServer = process.env.CODE_SERVER_BIN || require.resolve("code-server/out/node/entry.js");
const timeoutMs = Number(process.env.DML_E2E_TIMEOUT_MS || 300000);

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "config"), XDG_DATA_HOME: path.join(tmp, "data"), XDG_CACHE_HOME: path.join(tmp, "cache") };
  const serverArgs = ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", "--user-data-dir", userData, "--extensions-dir", extensions];
  if (!untrusted) serverArgs.push("--disable-workspace-trust");
  // Detached, so the whole process group (file watchers included) can be stopped at the end.
  const server = spawn(process.execPath, [codeServer, ...serverArgs], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let serverLog = "";
  server.stdout.on("data", (d) => (serverLog += d));
  server.stderr.on("data", (d) => (serverLog += d));
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/healthz`);
      break;
    } catch {
      if (i > 600) throw new Error(`code-server did not start:\n${serverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const exited = new Promise((resolve) => page.exposeFunction("codeAutomationExit", (code) => resolve(code)));
  await page.exposeFunction("codeAutomationLog", (_type, parts) => {
    if (!/^\[(Service Worker)|Creating a socket|Resolv/.test(String(parts[0]))) console.log(...parts);
  });
  const host = `127.0.0.1:${port}`;
  const remote = (p) => `vscode-remote://${host}${path.resolve(p)}`;
  const payload = [...developmentPaths.map((p) => ["extensionDevelopmentPath", remote(p)]), ["extensionTestsPath", remote(testsPath)], ["skipWelcome", "true"]];
  await page.goto(`${base}/?folder=${encodeURIComponent(path.resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), timeoutMs))]);
  await browser.close();
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
  if (code !== 0) console.error(`extension tests failed (${code}); code-server log:\n${serverLog.slice(-3000)}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(code === 0 ? 0 : 1);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
