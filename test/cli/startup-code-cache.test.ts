import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { DidOpenTextDocumentNotification } from "vscode-languageserver-protocol/node";
import { startLspSession } from "../../cli/lsp-session";
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

test("the language server's start (dist/server-startup.js, what VS Code runs) serves as dist/server.js does and keeps its code cache across sessions", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-server-cache-"));
  const cache = path.join(dir, "cache");
  const script = path.join(dir, "unassigned.dml");
  writeFileSync(script, "X = rand(rows=20, cols=5, seed=1)\nprint(sum(X %*% Y))\n");
  const session = async () => {
    const lsp = await startLspSession({ args: [path.join(repoRoot, "dist", "server-startup.js"), "--stdio"], env: { DML_LENS_CODE_CACHE: cache } });
    try {
      const uri = pathToFileURL(script).href;
      await lsp.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "dml", version: 1, text: "X = rand(rows=20, cols=5, seed=1)\nprint(sum(X %*% Y))\n" },
      });
      const published = await lsp.diagnosticsWhere((p) => p.uri === uri && p.diagnostics.some((d) => typeof d.message === "string" && d.message.includes("Y")));
      return published.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);
    } finally {
      await lsp.stop();
    }
  };
  // The optimizer's worker writes its own file (optimizer-worker-*.bin) 5 s after it starts: not counted here.
  const serverFiles = () => readdirSync(cache).filter((file) => file.startsWith("server-"));
  const first = await session();
  assert.ok(first.length > 0);
  const files = serverFiles();
  assert.equal(files.length, 1, files.join(", "));
  assert.match(files[0]!, /^server-[0-9a-f]{20}\.bin$/);
  const written = statSync(path.join(cache, files[0]!)).mtimeMs;
  assert.deepEqual(await session(), first);
  assert.deepEqual(serverFiles(), files);
  assert.equal(statSync(path.join(cache, files[0]!)).mtimeMs, written, "taken, not written again");
});

test("the optimizer's worker start (dist/optimizer-worker-startup.js) writes the worker bundle's cache a few seconds after it starts, though the server ends the thread with terminate()", async () => {
  const cache = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-worker-cache-")), "cache");
  const worker = new Worker(path.join(repoRoot, "dist", "optimizer-worker-startup.js"), { env: { ...process.env, DML_LENS_CODE_CACHE: cache } });
  try {
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const files = existsSync(cache) ? readdirSync(cache) : [];
    assert.equal(files.length, 1, files.join(", "));
    assert.match(files[0]!, /^optimizer-worker-[0-9a-f]{20}\.bin$/);
    assert.ok(statSync(path.join(cache, files[0]!)).size > 100_000);
  } finally {
    await worker.terminate();
  }
});

test("a bundle loaded with the code cache still imports ES modules: dml explain --extraction ilp (glpk.js) prints the same with the cache, taken or not, as without, and nothing on stderr", () => {
  const cache = path.join(mkdtempSync(path.join(os.tmpdir(), "dml-ilp-cache-")), "cache");
  const explain = (codeCache: string) =>
    spawnSync(process.execPath, [path.join(repoRoot, "bin", "dml.js"), "explain", path.join(repoRoot, "examples", "sum_product.dml"), "--extraction", "ilp"], {
      env: { ...process.env, DML_LENS_CODE_CACHE: codeCache },
      encoding: "utf8",
      timeout: 120_000,
    });
  const without = explain("0");
  assert.equal(without.status, 0, without.stderr);
  assert.match(without.stdout, /suggestion/);
  for (const run of [explain(cache), explain(cache)]) {
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(run.stdout, without.stdout);
  }
  assert.equal(readdirSync(cache).length, 1);
});

test("the bundles loaded with the code cache call import() only through importModule (a script compiled from the cache cannot import on node 20)", () => {
  const allowed = [/outside \? outside\(specifier\) : import\(specifier\)/, /\[IMPORT_HOOK\] \?\?= \(specifier\) => import\(specifier\)/, /import\(workerData\.specifier\)/];
  for (const bundle of ["cli.js", "server.js", "optimizer-worker.js"]) {
    const lines = readFileSync(path.join(repoRoot, "dist", bundle), "utf8")
      .split("\n")
      .filter((line) => /(^|[^\w.$])import\(/.test(line) && !/^\s*(\/\/|\*)/.test(line));
    const others = lines.filter((line) => !allowed.some((pattern) => pattern.test(line)));
    assert.deepEqual(others, [], `${bundle}: import() outside importModule (the GLPK worker's own source, run by node, may import)`);
  }
});
