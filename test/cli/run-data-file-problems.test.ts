// check says what run's data reader would say (issue 14, item 8): for data
// files that are there but cannot be read, `scriptProblems` (shared by check,
// explain and run) reports the reader's own message at the read() call, the
// same text the run fails with; FIFOs are never opened, a file too large to
// read is refused by its size, and a truncated .mtd is malformed, not missing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { scriptProblems } from "../../cli/script-problems";
import { createSession } from "../../engine/runtime/interpreter";

/** The folders `both` made, removed when the file's tests end. */
const folders: string[] = [];
after(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function both(files: Record<string, string>, script: string, prepare?: (dir: string) => void): { check: string[]; run: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dml-data-problems-"));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  prepare?.(dir);
  const scriptPath = path.join(dir, "s.dml");
  const problems = scriptProblems(script, { file: scriptPath, parameters: new Map(), invocation: true });
  const check = problems.diagnostics.filter((d) => d.severity !== "information").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`);
  const result = createSession({ scriptPath, workspaceRoot: dir, print: () => {} }).runScript(script);
  return { check, run: result.errors.map((e) => e.replace(`${scriptPath}:`, "")) };
}

const READ = 'X = read("x.csv")\nprint(sum(X))\n';

describe("check reports the data-file problems run would hit", () => {
  it("a ragged csv: the line, in the reader's words", () => {
    const r = both({ "x.csv": "1,2,3\n4,5\n", "x.csv.mtd": '{"format": "csv", "rows": 2, "cols": 3}' }, READ);
    assert.deepEqual(r.check, ["1:5: error: x.csv:2: expected 3 values (as x.csv.mtd declares), found 2"]);
    assert.deepEqual(r.run, ["1:5: error: x.csv:2: expected 3 values (as x.csv.mtd declares), found 2"]);
  });

  it("a non-numeric csv field: line and column", () => {
    const r = both({ "x.csv": "1,2\n3,INF\n" }, 'X = read("x.csv", format="csv")\nprint(sum(X))\n');
    assert.deepEqual(r.check, ["1:5: error: x.csv:2:3: expected a number, found 'INF'"]);
    assert.deepEqual(r.run, r.check);
  });

  it("a Matrix Market index out of range and a wrong entry count", () => {
    const head = "%%MatrixMarket matrix coordinate real general\n";
    const outOfRange = both({ "x.mtx": `${head}3 3 2\n1 1 1.0\n4 1 2.0\n` }, 'X = read("x.mtx")\nprint(sum(X))\n');
    assert.deepEqual(outOfRange.check, ["1:5: error: x.mtx:4:1: row index 4 out of range 1..3"]);
    assert.deepEqual(outOfRange.run, outOfRange.check);
    const tooFew = both({ "x.mtx": `${head}3 3 3\n1 1 1.0\n` }, 'X = read("x.mtx")\nprint(sum(X))\n');
    assert.deepEqual(tooFew.check, ["1:5: error: x.mtx:2: nnz in header 3 but 1 entry"]);
    assert.deepEqual(tooFew.run, tooFew.check);
  });

  it("an empty csv whose .mtd declares rows", () => {
    const r = both({ "x.csv": "", "x.csv.mtd": '{"format": "csv", "rows": 2, "cols": 2}' }, READ);
    assert.deepEqual(r.check, ["1:5: error: x.csv: x.csv.mtd declares 2 rows, but the file has 0"]);
    assert.deepEqual(r.run, r.check);
  });

  it("a truncated .mtd is malformed (with the JSON error's position), also when the data file is missing", () => {
    const mtd = '{"data_type": "matrix", "format": "csv", "rows": 2';
    const expected = ["1:5: error: x.csv.mtd:1:51: malformed .mtd: expected ',' or '}' after a value, found the end of the file"];
    const withData = both({ "x.csv": "1\n2\n", "x.csv.mtd": mtd }, READ);
    assert.deepEqual(withData.check, expected);
    assert.deepEqual(withData.run, expected);
    const withoutData = both({ "x.csv.mtd": mtd }, READ);
    assert.deepEqual(withoutData.check, expected);
    assert.deepEqual(withoutData.run, expected);
  });

  it("a FIFO is not a regular file (never opened), a folder is a folder", () => {
    const fifo = both({}, 'X = read("x.csv", format="csv")\nprint(sum(X))\n', (dir) => execFileSync("mkfifo", [path.join(dir, "x.csv")]));
    assert.deepEqual(fifo.check, ["1:5: error: x.csv: is not a regular file (a FIFO, device or socket): it is not read"]);
    assert.deepEqual(fifo.run, fifo.check);
    const folder = both({}, 'X = read("x.csv", format="csv")\nprint(sum(X))\n', (dir) => mkdirSync(path.join(dir, "x.csv")));
    assert.deepEqual(folder.check, ["1:5: error: x.csv: is a folder: SystemDS's folders of part files cannot be read here"]);
    assert.deepEqual(folder.run, folder.check);
  });

  it("a 600 MB file is refused by its size without reading it", () => {
    const started = Date.now();
    const r = both({}, 'X = read("x.csv", format="csv")\nprint(sum(X))\n', (dir) => {
      const file = path.join(dir, "x.csv");
      writeFileSync(file, "");
      truncateSync(file, 600 * 1024 * 1024); // sparse: no 600 MB written
    });
    assert.deepEqual(r.check, ["1:5: error: x.csv: the file is 600.0 MiB: files are read whole as text here, at most 512.0 MiB"]);
    assert.deepEqual(r.run, r.check);
    assert.ok(Date.now() - started < 10_000, "refused by its size, not read");
  });

  it("a claimed size beyond the budget is refused up front, at the .mtd", () => {
    const r = both({ "x.csv": "1,2\n", "x.csv.mtd": '{"format": "csv", "rows": 2000000000, "cols": 2}' }, READ);
    assert.deepEqual(r.check, ["1:5: error: x.csv.mtd: the .mtd claims a 2000000000 x 2 matrix: reading it needs 29.8 GiB, above the memory budget of 2.0 GiB"]);
    assert.deepEqual(r.run, r.check);
  });

  it("a read inside an if is a warning in check (it may not run)", () => {
    const r = both({ "x.csv": "1,2\n3\n" }, 'if (1 > 0) {\n  X = read("x.csv", format="csv")\n  print(sum(X))\n}\n');
    assert.deepEqual(r.check, ["2:7: warning: x.csv:2: expected 2 values, found 1"]);
    assert.deepEqual(r.run, ["2:7: error: x.csv:2: expected 2 values, found 1"]);
  });

  it("a read whose format argument is not a constant is not checked (its format is not known)", () => {
    const r = both({ "x.csv": "1,2\n3\n" }, 'f = ifdef($fmt, "csv")\nX = read("x.csv", format=f)\nprint(sum(X))\n');
    assert.ok(!r.check.some((line) => line.includes("expected 2 values")), r.check.join("\n"));
  });
});
