// structure-csv.ts reads through a FileSystem (so the language server's path
// guard and the regular-file rule cover it): files from memory, a folder or a
// missing file as a message, never a throw.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { readCsvStructure } from "../../engine/stats/structure-csv";

describe("readCsvStructure through a FileSystem", () => {
  it("reads the csv and its .mtd from the given file system", () => {
    const fs = memoryFileSystem({ "/d/x.csv": "h1;h2\n1;0\n0;2\n", "/d/x.csv.mtd": '{"header": true, "sep": ";", "nnz": 2}' });
    const result = readCsvStructure("/d/x.csv", fs);
    assert.ok(result.ok);
    assert.equal(result.structure.rows, 2);
    assert.equal(result.structure.cols, 2);
    assert.equal(result.declaredNnz, 2);
  });

  it("says what is wrong with a missing file, a folder and a malformed .mtd", () => {
    const fs = memoryFileSystem({ "/d/sub/a.csv": "1\n", "/d/b.csv": "1\n", "/d/b.csv.mtd": '{"rows": 1' });
    assert.deepEqual(readCsvStructure("/d/none.csv", fs), { ok: false, message: "/d/none.csv: no such file" });
    assert.deepEqual(readCsvStructure("/d/sub", fs), { ok: false, message: "/d/sub: is a folder" });
    const malformed = readCsvStructure("/d/b.csv", fs);
    assert.ok(!malformed.ok);
    assert.match(malformed.message, /JSON/);
  });

  it("reports a folder on disk as a folder", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dml-structure-"));
    assert.deepEqual(readCsvStructure(dir), { ok: false, message: `${dir}: is a folder` });
  });
});
