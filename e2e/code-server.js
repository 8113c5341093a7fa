// Starts code-server (VS Code 1.100's server and web workbench) on a free
// loopback port with its own user data, extensions and XDG folders, and
// headless Chromium to show it: what the test shim (code-shim.js) and the
// UI test (ui.js) share. `untrusted` turns Workspace Trust on with no
// prompt, so a folder opens in restricted mode.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startCodeServer({ untrusted = false, userData, extensions } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dml-e2e-"));
  userData ??= path.join(tmp, "user");
  // The extensions folder must exist, or the development extension silently does not load.
  extensions ??= path.join(tmp, "extensions");
  for (const dir of [userData, extensions, path.join(userData, "User")]) fs.mkdirSync(dir, { recursive: true });
  const trust = untrusted
    ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.emptyWindow": false }
    : { "security.workspace.trust.enabled": false };
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({ ...trust, "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off" }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "config"), XDG_DATA_HOME: path.join(tmp, "data"), XDG_CACHE_HOME: path.join(tmp, "cache") };
  const entry = process.env.CODE_SERVER_BIN || require.resolve("code-server/out/node/entry.js");
  const args = ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", "--user-data-dir", userData, "--extensions-dir", extensions];
  if (!untrusted) args.push("--disable-workspace-trust");
  // Detached, so the whole process group (file watchers included) can be stopped at the end.
  const server = spawn(process.execPath, [entry, ...args], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  server.stdout.on("data", (d) => (log += d));
  server.stderr.on("data", (d) => (log += d));
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/healthz`);
      break;
    } catch {
      if (i > 600) throw new Error(`code-server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const host = `127.0.0.1:${port}`;
  return {
    base,
    browser,
    log: () => log,
    /** A path on this machine as the workbench names it. */
    remote: (p) => `vscode-remote://${host}${path.resolve(p)}`,
    /** The workbench URL for `folder` with a payload (extensionDevelopmentPath, openFile, ...). */
    url: (folder, payload) => `${base}/?folder=${encodeURIComponent(path.resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    async stop() {
      await browser.close().catch(() => undefined);
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

module.exports = { startCodeServer };
