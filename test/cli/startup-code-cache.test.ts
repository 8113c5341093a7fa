import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../repo-root";

test("dml keeps V8's code cache across runs: the second run of a script with WebAssembly kernels takes the first's file (the flags it sets stay the same) and prints the same", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-startup-cache-"));
  const script = path.join(dir, "product.dml");
  writeFileSync(script, "X = rand(rows=300, cols=300, min=0, max=1, seed=3)\nprint(sum(X %*% X))\n");
  const cache = path.join(dir, "cache");
  const run = () => spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", script], { env: { ...process.env, DML_LENS_CODE_CACHE: cache }, encoding: "utf8", timeout: 60_000 });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  const files = readdirSync(cache);
  assert.equal(files.length, 1, files.join(", "));
  assert.match(files[0]!, /^cli-[0-9a-f]{20}\.bin$/);
  const written = statSync(path.join(cache, files[0]!));
  assert.ok(written.size > 500_000, `${written.size} bytes: the bundle's lazily compiled functions are in it`);
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, first.stdout);
  // A file V8 rejected (other flags) would be written again.
  assert.deepEqual(readdirSync(cache), files);
  assert.equal(statSync(path.join(cache, files[0]!)).mtimeMs, written.mtimeMs, "taken, not written again");
  const off = spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "run", script], { env: { ...process.env, DML_LENS_CODE_CACHE: "0" }, encoding: "utf8", timeout: 60_000 });
  assert.equal(off.stdout, first.stdout);
});
