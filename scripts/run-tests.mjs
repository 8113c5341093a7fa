// Runs every test/**/*.test.ts with node's test runner (node 20's --test
// takes no globs, so the files are found here). Each test file is bundled
// by esbuild to out/test/*.cjs first: chevrotain and fast-check are ESM-only
// packages and this package is CommonJS, which node 20 cannot mix directly. Extra arguments are passed to
// node before the files, e.g. `node scripts/run-tests.mjs --test-name-pattern=parse`.
// A first argument naming a folder or file under test/ narrows the run to it.
// Output: a line of dots and a summary (scripts/test-summary-reporter.mjs),
// with details only for failing tests; pass `--test-reporter=spec` for
// node's full report.
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { testBundleOptions } from "./test-bundle-options.mjs";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const scopes = [];
const nodeArgs = [];
for (const arg of args) {
  if (!arg.startsWith("-") && existsSync(path.resolve(arg))) scopes.push(path.resolve(arg));
  else nodeArgs.push(arg);
}
if (scopes.length === 0) scopes.push(path.join(root, "test"));

function collect(entry, into) {
  const stat = statSync(entry);
  if (stat.isFile()) {
    if (entry.endsWith(".test.ts")) into.push(entry);
    return;
  }
  for (const name of readdirSync(entry).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    collect(path.join(entry, name), into);
  }
}

const files = [];
for (const scope of scopes) collect(scope, files);
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${scopes.map((s) => path.relative(root, s) || ".").join(", ")}`);
  process.exit(1);
}

const outdir = path.join(root, "out", "test");
await build({
  entryPoints: files,
  outbase: path.join(root, "test"),
  outdir,
  ...testBundleOptions,
  // Fixes fast-check's seed when DML_LENS_FC_SEED is set (CI), see test/fast-check-seed.ts.
  inject: [path.join(root, "test", "fast-check-seed.ts")],
});
const bundles = files.map((f) =>
  path.relative(root, path.join(outdir, path.relative(path.join(root, "test"), f)).replace(/\.ts$/, ".cjs")),
);

const reporter = nodeArgs.some((a) => a.startsWith("--test-reporter"))
  ? []
  : [`--test-reporter=${path.join(root, "scripts", "test-summary-reporter.mjs")}`, "--test-reporter-destination=stdout"];
// The tests' temporary files go to a folder of this run, removed at its end: a test that forgets its own (or stops
// before its cleanup) leaves nothing behind in the system's temp folder.
const temp = mkdtempSync(path.join(os.tmpdir(), "dml-lens-tests-"));
const result = spawnSync(process.execPath, ["--enable-source-maps", "--test", ...reporter, ...nodeArgs, ...bundles], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp },
});
rmSync(temp, { recursive: true, force: true });
if (result.error) {
  console.error(`run-tests: could not start node: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
