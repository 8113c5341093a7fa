#!/usr/bin/env node
// The `dml` command: a shim over the bundled command line in dist/cli.js.
// Exit codes are those of `main` (see ARCHITECTURE.md, "The `dml` command line"); a crash of
// the command line itself (a bug, not a problem in the user's script) exits 3.
"use strict";
const path = require("node:path");

const cliPath = path.join(__dirname, "..", "dist", "cli.js");

function crash(error) {
  process.stderr.write(`dml: internal error: ${error && error.stack ? error.stack : error}\n`);
  process.exitCode = 3;
}

let cli;
try {
  cli = require(cliPath);
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes(cliPath)) {
    process.stderr.write(
      `dml: ${path.relative(process.cwd(), cliPath) || cliPath} is missing; run \`npm run build\` first.\n`,
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
