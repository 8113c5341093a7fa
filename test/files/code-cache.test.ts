import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { codeCacheDir, requireWithCodeCache } from "../../engine/files";

// Loads in a new process (this test file, run again with $CODE_CACHE_CHILD): V8 keeps compiled scripts per process, so
// only another process shows whether it took the cache file.
const child = process.env["CODE_CACHE_CHILD"];
if (child !== undefined) {
  const { bundle, cache, flags } = JSON.parse(child) as { bundle: string; cache: string; flags: string };
  const loaded = requireWithCodeCache(bundle, cache, flags);
  const answer = (loaded.exports as Exports).answer();
  process.stdout.write(JSON.stringify({ cache: loaded.cache, answer, saved: loaded.save(), file: loaded.file }));
  process.exit(0);
}

type Exports = { answer(): number; base: string; dir: string };

function loadInChild(bundle: string, cache: string, flags = ""): { cache: string; answer: number; saved: unknown; file: string } {
  const run = spawnSync(process.execPath, [__filename], { env: { ...process.env, CODE_CACHE_CHILD: JSON.stringify({ bundle, cache, flags }) }, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** A CommonJS bundle with functions compiled lazily (only when called) and a require of a node module; answer() is `value`. */
function bundleSource(value: number): string {
  const filler = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i % 7}; }`).join("\n");
  return `"use strict";\nconst path = require("node:path");\n${filler}\nfunction answer() { return f3(${value}) - 2 * ${value} - 3 + 0 * f199(1); }\nmodule.exports = { answer, base: path.basename(__filename), dir: __dirname };\n`;
}

function fixture(): { dir: string; bundle: string; cache: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-code-cache-"));
  const bundle = path.join(dir, "bundle.js");
  writeFileSync(bundle, bundleSource(41));
  return { dir, bundle, cache: path.join(dir, "cache") };
}

describe("code cache", () => {
  it("loads the bundle as require does, compiled from its text the first time, and writes the cache", () => {
    const { dir, bundle, cache } = fixture();
    const first = requireWithCodeCache(bundle, cache, "--flag=1");
    assert.equal(first.cache, "none");
    const exports = first.exports as Exports;
    assert.equal(exports.answer(), 41);
    assert.equal(exports.base, "bundle.js", "__filename is the bundle's");
    assert.equal(exports.dir, dir);
    assert.equal(first.save(), "written");
    assert.deepEqual(readdirSync(cache), [path.basename(first.file!)]);
  });

  it("a new process takes the cache, runs the same, and keeps the file when it compiled nothing new", () => {
    const { bundle, cache } = fixture();
    const first = loadInChild(bundle, cache);
    assert.deepEqual([first.cache, first.answer, first.saved], ["none", 41, "written"]);
    const before = statSync(first.file).mtimeMs;
    const second = loadInChild(bundle, cache);
    assert.deepEqual([second.cache, second.answer, second.saved], ["accepted", 41, "unchanged"]);
    assert.equal(statSync(first.file).mtimeMs, before);
  });

  it("does not give a rebuilt bundle the old build's cache, even at the same length, and removes the old file when it writes", () => {
    const { bundle, cache } = fixture();
    const old = loadInChild(bundle, cache);
    const rebuilt = bundleSource(43);
    assert.equal(rebuilt.length, readFileSync(bundle, "utf8").length, "same length: V8's own check would pass");
    writeFileSync(bundle, rebuilt);
    const fresh = loadInChild(bundle, cache);
    assert.deepEqual([fresh.cache, fresh.answer, fresh.saved], ["none", 43, "written"]);
    assert.notEqual(fresh.file, old.file);
    assert.deepEqual(readdirSync(cache), [path.basename(fresh.file)]);
  });

  it("keys the cache by the flags the process set: other flags, another file", () => {
    const { bundle, cache } = fixture();
    assert.notEqual(requireWithCodeCache(bundle, cache, "--max-inlined-bytecode-size-cumulative=300").file, requireWithCodeCache(bundle, cache, "").file);
  });

  it("compiles from the text when V8 rejects a damaged file, and writes it again", () => {
    const { bundle, cache } = fixture();
    const first = loadInChild(bundle, cache);
    writeFileSync(first.file, Buffer.alloc(4096, 7));
    const damaged = loadInChild(bundle, cache);
    assert.deepEqual([damaged.cache, damaged.answer, damaged.saved], ["rejected", 41, "written"]);
    assert.equal(loadInChild(bundle, cache).cache, "accepted");
  });

  it("with the cache off: nothing read or written", () => {
    const { bundle } = fixture();
    const loaded = requireWithCodeCache(bundle, undefined);
    assert.equal(loaded.cache, "off");
    assert.equal(loaded.file, undefined);
    assert.equal(loaded.save(), "off");
    assert.equal((loaded.exports as Exports).answer(), 41);
  });

  it("a cache that cannot be written is reported, not thrown", () => {
    const { dir, bundle } = fixture();
    const blocker = path.join(dir, "not-a-folder");
    writeFileSync(blocker, "");
    const saved = requireWithCodeCache(bundle, path.join(blocker, "cache")).save();
    assert.ok(typeof saved === "object" && saved.failed.length > 0, JSON.stringify(saved));
  });

  it("the folder: $DML_LENS_CODE_CACHE, 0 or off for none, else under $XDG_CACHE_HOME or ~/.cache", () => {
    assert.equal(codeCacheDir({ DML_LENS_CODE_CACHE: "/tmp/x" }, "/home/u"), path.resolve("/tmp/x"));
    assert.equal(codeCacheDir({ DML_LENS_CODE_CACHE: "0" }, "/home/u"), undefined);
    assert.equal(codeCacheDir({ DML_LENS_CODE_CACHE: "off" }, "/home/u"), undefined);
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: "/xdg" }, "/home/u"), path.join("/xdg", "dml-lens", "code-cache"));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: "relative" }, "/home/u"), path.join("/home/u", ".cache", "dml-lens", "code-cache"));
    assert.equal(codeCacheDir({}, "/home/u"), path.join("/home/u", ".cache", "dml-lens", "code-cache"));
  });
});
