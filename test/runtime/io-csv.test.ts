// csv matrices: header, sep, fill, default and naStrings as SystemDS reads
// them, quotes through csv-parse, and the .mtd / read() merging.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { type CsvReadOptions, type MatrixData, parseCsvMatrix, readMatrixFile, toDenseMatrixData } from "../../engine/runtime/io";

function rowsOf(data: MatrixData): number[][] {
  const d = toDenseMatrixData(data);
  return Array.from({ length: d.rows }, (_, i) => Array.from(d.values.subarray(i * d.cols, (i + 1) * d.cols)));
}

const csv = (text: string, options: Omit<CsvReadOptions, "file"> = {}) => rowsOf(parseCsvMatrix(text, { file: "x.csv", ...options }));

describe("csv options", () => {
  test("header: the first line is skipped", () => {
    assert.deepEqual(csv("a,b\n1,2\n3,4\n", { header: true }), [
      [1, 2],
      [3, 4],
    ]);
  });

  test("without header a text first line is an error, not skipped", () => {
    assert.throws(() => csv("a,b\n1,2\n"), { message: "x.csv:1:1: expected a number, found 'a'" });
  });

  test("sep: any string, multi-character included", () => {
    assert.deepEqual(csv("1;2\n3;4\n", { sep: ";" }), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(csv("1\t2\n", { sep: "\t" }), [[1, 2]]);
    assert.deepEqual(csv("1::2::3\n", { sep: "::" }), [[1, 2, 3]]);
  });

  test("fill (default TRUE): empty fields are `default`, 0 unless given", () => {
    assert.deepEqual(csv("1,,3\n,5,\n"), [
      [1, 0, 3],
      [0, 5, 0],
    ]);
    assert.deepEqual(csv("1,,3\n", { default: -7.5 }), [[1, -7.5, 3]]);
    assert.deepEqual(csv("1, ,3\n", { default: 2 }), [[1, 2, 3]]);
  });

  test("fill=FALSE: an empty field is an error", () => {
    assert.throws(() => csv("1,2\n3,\n", { fill: false }), { message: "x.csv:2:3: expected a number, found an empty field (fill is FALSE)" });
  });

  test("naStrings are NaN", () => {
    const [row] = csv("1,NA,?\n", { naStrings: ["NA", "?"] });
    assert.equal(row![0], 1);
    assert.ok(Number.isNaN(row![1]!) && Number.isNaN(row![2]!));
  });

  test("Java's number spellings: NaN, Infinity, exponents, d/f suffixes, spaces around fields", () => {
    const [row] = csv(" 1.5e3 ,-Infinity,NaN,2d,.5, +4 \n");
    assert.deepEqual(row!.slice(0, 2), [1500, -Infinity]);
    assert.ok(Number.isNaN(row![2]!));
    assert.deepEqual(row!.slice(3), [2, 0.5, 4]);
  });

  test("quoted fields (csv-parse): quotes removed, a separator inside quotes is not a separator", () => {
    assert.deepEqual(csv('"1","2.5"\n"3", 4\n'), [
      [1, 2.5],
      [3, 4],
    ]);
    assert.throws(() => csv('"1,5",2\n'), { message: "x.csv:1:2: expected a number, found '1,5'" });
  });

  test("\\r\\n endings, a byte order mark, no final newline", () => {
    assert.deepEqual(csv("\uFEFF1,2\r\n3,4"), [
      [1, 2],
      [3, 4],
    ]);
  });

  test("blank lines at the end are not rows, unless the declared rows need them", () => {
    assert.deepEqual(csv("1,2\n3,4\n\n\n"), [
      [1, 2],
      [3, 4],
    ]);
    // A one-column csv written with sparse=TRUE has an empty line for a zero.
    assert.deepEqual(csv("5\n\n", { rows: 2, cols: 1 }), [[5], [0]]);
  });

  test("an empty file is a 0-row matrix (with the declared columns)", () => {
    assert.deepEqual(csv(""), []);
    const data = parseCsvMatrix("", { file: "x.csv", rows: 0, cols: 3 });
    assert.deepEqual([data.rows, data.cols], [0, 3]);
  });

  test("a header-only file has the header's columns", () => {
    const data = parseCsvMatrix("C1,C2,C3\n", { file: "x.csv", header: true });
    assert.deepEqual([data.rows, data.cols], [0, 3]);
  });
});

describe("csv files with .mtd sidecars and read() arguments", () => {
  const fs = memoryFileSystem({
    "/w/a.csv": "x;y\n1;2\n3;\n",
    "/w/a.csv.mtd": '{"data_type": "matrix", "value_type": "double", "format": "csv", "header": true, "sep": ";", "default": 9, "rows": 2, "cols": 2, "nnz": 4}',
    "/w/b.csv": "1,2\n",
    "/w/c.txt": "1|2\n",
  });

  test("header, sep and default come from the .mtd", () => {
    const result = readMatrixFile("a.csv", { fs, scriptPath: "/w/s.dml" });
    assert.ok(result.ok);
    assert.deepEqual(rowsOf(result.value.value.data), [
      [1, 2],
      [3, 9],
    ]);
    assert.deepEqual(result.warnings, []);
    assert.equal(result.value.parameters.sources.sep, "mtd");
  });

  test("read() arguments that agree with the .mtd are fine", () => {
    const result = readMatrixFile("a.csv", { fs, scriptPath: "/w/s.dml", params: { format: "csv", sep: ";", rows: 2 } });
    assert.ok(result.ok);
  });

  test("a wrong nnz in the .mtd is a warning, not an error", () => {
    const files = { "/w/n.csv": "1,0\n0,0\n", "/w/n.csv.mtd": '{"data_type": "matrix", "format": "csv", "rows": 2, "cols": 2, "nnz": 3}' };
    const result = readMatrixFile("n.csv", { fs: memoryFileSystem(files), scriptPath: "/w/s.dml" });
    assert.ok(result.ok);
    assert.deepEqual(result.warnings, [{ file: "n.csv.mtd", message: "nnz 3 is declared, but the data has 1 non-zeros" }]);
  });

  test("a .csv file without .mtd or format is read as csv, with a warning", () => {
    const result = readMatrixFile("b.csv", { fs, scriptPath: "/w/s.dml" });
    assert.ok(result.ok);
    assert.equal(result.value.format, "csv");
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0]!.message, /SystemDS would read this file as text/);
  });

  test("read() arguments alone: format and sep", () => {
    const result = readMatrixFile("c.txt", { fs, scriptPath: "/w/s.dml", params: { format: "csv", sep: "|" } });
    assert.ok(result.ok);
    assert.deepEqual(rowsOf(result.value.value.data), [[1, 2]]);
  });

  test("a relative path is looked up next to the script, then in the workspace root", () => {
    const result = readMatrixFile("b.csv", { fs, scriptPath: "/w/scripts/s.dml", workspaceRoot: "/w", params: { format: "csv" } });
    assert.ok(result.ok);
    assert.equal(result.value.path, "/w/b.csv");
  });

  test("readMatrixFile refuses a frame", () => {
    const files = { "/w/f.csv": "a\n", "/w/f.csv.mtd": '{"data_type": "frame", "format": "csv"}' };
    const result = readMatrixFile("f.csv", { fs: memoryFileSystem(files), scriptPath: "/w/s.dml" });
    assert.ok(!result.ok);
    assert.equal(result.error.message, "f.csv: expected a matrix, but the data is a frame");
  });
});
