// What is at a path, without opening it: regular files are read, folders,
// FIFOs and devices never are (a FIFO would block, /dev/zero never ends),
// and a .mtd that is not a regular file says which it is.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { readMtd, resolveReadMetadata } from "../../engine/metadata";
import { fileKind, memoryFileSystem, nodeFileSystem } from "../../engine/files";
import { parse } from "../../engine/syntax/parse";

describe("file kinds", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-kind-"));
  const file = path.join(dir, "x.csv");
  writeFileSync(file, "1,2\n");
  mkdirSync(path.join(dir, "parts"));
  const fifo = path.join(dir, "pipe.csv");
  execFileSync("mkfifo", [fifo]);

  it("tells a file, a folder, a FIFO, a device and nothing apart", () => {
    assert.equal(nodeFileSystem.kind!(file), "file");
    assert.equal(nodeFileSystem.kind!(path.join(dir, "parts")), "folder");
    assert.equal(nodeFileSystem.kind!(fifo), "other");
    assert.equal(nodeFileSystem.kind!("/dev/zero"), "other");
    assert.equal(nodeFileSystem.kind!(path.join(dir, "none")), "missing");
  });

  it("never opens a FIFO or a device for reading", () => {
    assert.equal(nodeFileSystem.readFile(fifo), undefined);
    assert.equal(nodeFileSystem.readHead!(fifo, 64), undefined);
    assert.equal(nodeFileSystem.readFile("/dev/zero"), undefined);
    assert.equal(nodeFileSystem.size!(fifo), undefined);
  });

  it("classifies memory files and falls back without a kind()", () => {
    const fs = memoryFileSystem({ "/a/b.csv": "1" });
    assert.equal(fileKind(fs, "/a/b.csv"), "file");
    assert.equal(fileKind(fs, "/a"), "folder");
    assert.equal(fileKind(fs, "/c"), "missing");
    const plain = { readFile: (p: string) => (p === "/f" ? "x" : undefined), exists: (p: string) => p === "/f" || p === "/dir" };
    assert.equal(fileKind(plain, "/f"), "file");
    assert.equal(fileKind(plain, "/dir"), "folder");
  });

  it("reports a .mtd that is a FIFO as an error, not as missing or a folder", () => {
    execFileSync("mkfifo", [`${file}.mtd`]);
    const result = readMtd(nodeFileSystem, file);
    assert.equal(result.exists, true);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.severity, d.message]),
      [["error", "this .mtd is not a regular file (a FIFO, device or socket): it is not read"]],
    );
  });

  it("the analysis does not scan a FIFO and says why (not 'larger than 50 MiB')", () => {
    const program = parse('X = read("pipe.csv", format="csv")').program;
    const statement = program.body[0]!;
    if (statement.kind !== "assign" || statement.value.kind !== "call") throw new Error("expected a read assignment");
    const r = resolveReadMetadata(statement.value, { scriptPath: path.join(dir, "s.dml"), fs: nodeFileSystem, params: new Map() });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code === "read-not-scanned").map((d) => d.message),
      [`${fifo} is not a regular file (a FIFO, device or socket) and is not scanned`],
    );
  });
});
