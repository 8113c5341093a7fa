import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { fileSourceReader, MAX_SOURCE_BYTES, readSourceText, type SourceFileAccess, SourceFiles, sourceProblemMessage } from "../../engine/program/source-reader";
import { checkDocument } from "../../engine/analysis/check-document";
import { createSession } from "../../engine/runtime/interpreter";

function folder(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), "dml-source-safety-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

function checkAt(root: string, text: string): string[] {
  const scriptPath = path.join(root, "main.dml");
  writeFileSync(scriptPath, text);
  return checkDocument(text, { scriptPath, workspaceRoot: root, readFile: fileSourceReader(scriptPath, root) })
    .filter((d) => d.code?.startsWith("source"))
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.message}`);
}

function runAt(root: string, text: string): { ok: boolean; errors: string[]; lines: string[] } {
  const lines: string[] = [];
  const result = createSession({ scriptPath: path.join(root, "main.dml"), workspaceRoot: root, print: (l) => lines.push(l) }).runScript(text);
  return { ok: result.ok, errors: result.errors, lines };
}

describe("source() reads only small regular text files", () => {
  test("a device, a folder, a FIFO, a binary and an oversized file are refused with the reason, without reading them", () => {
    const root = folder({ "bin.dml": Buffer.from([0x66, 0x00, 0x01, 0x02]), "latin1.dml": Buffer.from([0x78, 0x3d, 0xe9, 0x0a]), "big.dml": "#".repeat(MAX_SOURCE_BYTES + 1) });
    mkdirSync(path.join(root, "dir.dml"));
    const fifo = path.join(root, "pipe.dml");
    execFileSync("mkfifo", [fifo]);
    assert.deepEqual(readSourceText("/dev/zero"), { problem: "it is a device, not a regular file" });
    assert.deepEqual(readSourceText(path.join(root, "dir.dml")), { problem: "it is a folder, not a file" });
    assert.deepEqual(readSourceText(fifo), { problem: "it is a named pipe (FIFO), not a regular file" });
    assert.deepEqual(readSourceText(path.join(root, "bin.dml")), { problem: "it is not a text file (it contains NUL bytes)" });
    assert.deepEqual(readSourceText(path.join(root, "latin1.dml")), { problem: "it is not UTF-8 text" });
    assert.deepEqual(readSourceText(path.join(root, "big.dml")), { problem: `it is ${MAX_SOURCE_BYTES + 1} bytes; source files are read up to ${MAX_SOURCE_BYTES} bytes (4 MB)` });
    assert.deepEqual(readSourceText(path.join(root, "none.dml")), { problem: "no such file" });
    assert.deepEqual(readSourceText(path.join(root, "big.dml"), 10 * MAX_SOURCE_BYTES), { text: "#".repeat(MAX_SOURCE_BYTES + 1) });
    const exe = readSourceText("/proc/self/exe");
    assert.ok("problem" in exe && /bytes; source files are read up to|NUL bytes/.test(exe.problem), JSON.stringify(exe));
  });

  test("a BOM is dropped; CRLF and unicode text are read as they are", () => {
    const root = folder({ "bom.dml": "\uFEFFf = function() return (double y) {\r\n  y = 1 # ü → ∑\r\n}\r\n" });
    assert.deepEqual(readSourceText(path.join(root, "bom.dml")), { text: "f = function() return (double y) {\r\n  y = 1 # ü → ∑\r\n}\r\n" });
  });

  test("check reports each broken target at its source() statement, in the runtime's words; run fails there too", () => {
    const root = folder({ "bad.dml": "f = function( return (double y) { y = 1 }\n", "via.dml": 'source("bad.dml") as b\ng = function() return (double y) { y = 1 }\n', "gone.dml": 'source("nowhere.dml") as n\n' });
    mkdirSync(path.join(root, "dir.dml"));
    const cases: [string, RegExp][] = [
      ['source("/dev/zero") as z\n', /^1:1 error cannot read source file '\/dev\/zero': it is a device, not a regular file$/],
      ['source("dir.dml") as d\n', /^1:1 error cannot read source file 'dir.dml' \(.*dir.dml\): it is a folder, not a file$/],
      ['source("bad.dml") as b\n', /^1:1 error source file 'bad.dml' has a syntax error: .*bad.dml:1:15: /],
      ['source("via.dml") as v\n', /^1:1 error source file 'via.dml', through bad.dml, has a syntax error: .*bad.dml:1:15: /],
      ['source("gone.dml") as g\n', /^1:1 error source file 'gone.dml' sources a file that cannot be used: cannot read source file 'nowhere.dml': no such file/],
    ];
    for (const [text, expected] of cases) {
      const found = checkAt(root, text + "print(1)\n");
      assert.equal(found.length, 1, `${text}: ${found.join("\n")}`);
      assert.match(found[0]!, expected);
      const run = runAt(root, text + "print(1)\n");
      assert.equal(run.ok, false, text);
      assert.deepEqual(run.lines, []);
    }
  });

  test("a cycle of sources is a warning naming it; the runtime loads each file once and runs", () => {
    const root = folder({
      "a.dml": 'source("b.dml") as b\nf = function(double x) return (double y) { y = x + 1 }\n',
      "b.dml": 'source("a.dml") as a\ng = function(double x) return (double y) { y = x * 2 }\n',
    });
    assert.deepEqual(checkAt(root, 'source("a.dml") as a\nprint(a::f(1))\n'), ["1:1 warning source cycle: a.dml → b.dml → a.dml (each file is loaded once)"]);
    const run = runAt(root, 'source("a.dml") as a\nsource("b.dml") as b\nprint(a::f(1) + b::g(3))\n');
    assert.deepEqual(run, { ok: true, errors: [], lines: ["8.0"] });
    // The script sourcing itself.
    assert.deepEqual(checkAt(root, 'source("main.dml") as m\nh = function() return (double y) { y = 1 }\n'), ["1:1 warning source cycle: main.dml → main.dml (each file is loaded once)"]);
  });

  test("a diamond of sources reads and parses each file once", () => {
    const root = folder({
      "top.dml": 'source("left.dml") as l\nsource("right.dml") as r\n',
      "left.dml": 'source("base.dml") as base\n',
      "right.dml": 'source("base.dml") as base\n',
      "base.dml": "one = function() return (double y) { y = 1 }\n",
    });
    const reads = new Map<string, number>();
    const counting: SourceFileAccess = {
      exists: (file) => readSourceText(file).hasOwnProperty("text"),
      read: (file) => {
        reads.set(path.basename(file), (reads.get(path.basename(file)) ?? 0) + 1);
        return readSourceText(file);
      },
    };
    const files = new SourceFiles([root], counting);
    const script = path.join(root, "main.dml");
    for (let i = 0; i < 3; i++) {
      for (const name of ["top.dml", "left.dml", "right.dml", "base.dml", "base.dml"]) assert.equal(files.load(script, name).kind, "file");
    }
    assert.deepEqual(Object.fromEntries(reads), { "top.dml": 1, "left.dml": 1, "right.dml": 1, "base.dml": 1 });
    assert.deepEqual(checkAt(root, 'source("top.dml") as t\nprint(1)\n'), []);
    assert.deepEqual(runAt(root, 'source("top.dml") as t\nsource("left.dml") as l\nsource("base.dml") as b\nprint(b::one())\n'), { ok: true, errors: [], lines: ["1.0"] });
  });

  test("the message names the file found when it differs from the path written", () => {
    assert.equal(sourceProblemMessage("/dev/zero", { kind: "unreadable", file: "/dev/zero", problem: "it is a device, not a regular file" }), "cannot read source file '/dev/zero': it is a device, not a regular file");
    assert.equal(sourceProblemMessage("x.dml", { kind: "unreadable", file: "/w/x.dml", problem: "it is a folder, not a file" }), "cannot read source file 'x.dml' (/w/x.dml): it is a folder, not a file");
  });
});
