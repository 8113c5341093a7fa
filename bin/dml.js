#!/usr/bin/env node
// The `dml` command: a shim over the bundled command line in dist/cli.js.
// Exit codes are those of `main` (see ARCHITECTURE.md, "The `dml` command line"); a crash of
// the command line itself (a bug, not a problem in the user's script) exits 3.
"use strict";
const path = require("node:path");

const cliPath = path.join(__dirname, "..", "dist", "cli.js");
// Loads cliPath with V8's code cache (cli/startup.ts); the cache is written when the process exits.
const startupPath = path.join(__dirname, "..", "dist", "startup.js");

function crash(error) {
  process.stderr.write(`dml: internal error: ${error && error.stack ? error.stack : error}\n`);
  process.exitCode = 3;
}

let cli;
try {
  cli = require(startupPath).loadCommandLine(cliPath);
} catch (error) {
  const notFound = error && (error.code === "MODULE_NOT_FOUND" || error.code === "ENOENT");
  const missing = notFound ? [startupPath, cliPath].find((file) => String(error.message).includes(file)) : undefined;
  if (missing) {
    process.stderr.write(
      `dml: ${path.relative(process.cwd(), missing) || missing} is missing; run \`npm run build\` first.\n`,
    );
    process.exit(2);
  }
  crash(error);
}

if (cli) {
  cli.main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, crash);
}
