// Malformed files of every kind: the exact message, with the file, the line
// (and column) and what was expected; nothing is half-read.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { DataFileError, readDataFile, type ReadParameters } from "../../engine/runtime/io";

/** Reads `files[file]` (with any sidecars given) from memory; returns the error message. */
function errorOf(files: Record<string, string>, file: string, params: ReadParameters = {}): string {
  const result = readDataFile(file, { fs: memoryFileSystem(files), scriptPath: "/w/script.dml", params });
  if (result.ok) assert.fail(`expected an error reading ${file}`);
  assert.ok(result.error instanceof DataFileError);
  return result.error.message;
}

const csvMtd = (rows: number, cols: number, extra = "") => `{"data_type": "matrix", "format": "csv", "rows": ${rows}, "cols": ${cols}${extra}}`;

describe("csv", () => {
  test("a row with too few values", () => {
    const files = { "/w/x.csv": "1,2,3,4\n5,6,7,8\n9,10,11\n", "/w/x.csv.mtd": csvMtd(3, 4) };
    assert.equal(errorOf(files, "x.csv"), "x.csv:3: expected 4 values (as x.csv.mtd declares), found 3");
  });

  test("without a .mtd the first row sets the count", () => {
    const files = { "/w/x.csv": "1,2\n3,4,5\n" };
    assert.equal(errorOf(files, "x.csv", { format: "csv" }), "x.csv:2: expected 2 values, found 3");
  });

  test("an empty line inside the data", () => {
    const files = { "/w/x.csv": "1,2\n\n3,4\n" };
    assert.equal(errorOf(files, "x.csv", { format: "csv" }), "x.csv:2: expected 2 values, found an empty line");
  });

  test("a field that is not a number, with its column", () => {
    const files = { "/w/x.csv": "1,2,3\n4, abc,6\n", "/w/x.csv.mtd": csvMtd(2, 3) };
    assert.equal(errorOf(files, "x.csv"), "x.csv:2:4: expected a number, found 'abc'");
  });

  test("the line counts the header", () => {
    const files = { "/w/x.csv": "a,b\n1,2\n3,x\n", "/w/x.csv.mtd": csvMtd(2, 2, ', "header": true') };
    assert.equal(errorOf(files, "x.csv"), "x.csv:3:3: expected a number, found 'x'");
  });

  test("an empty field with fill=FALSE", () => {
    const files = { "/w/x.csv": "1,,3\n" };
    assert.equal(errorOf(files, "x.csv", { format: "csv", fill: false }), "x.csv:1:3: expected a number, found an empty field (fill is FALSE)");
  });

  test("more rows than the .mtd declares", () => {
    const files = { "/w/x.csv": "1\n2\n3\n", "/w/x.csv.mtd": csvMtd(2, 1) };
    assert.equal(errorOf(files, "x.csv"), "x.csv:3: more rows than the 2 that x.csv.mtd declares");
  });

  test("fewer rows than the .mtd declares", () => {
    const files = { "/w/x.csv": "1\n2\n", "/w/x.csv.mtd": csvMtd(3, 1) };
    assert.equal(errorOf(files, "x.csv"), "x.csv: x.csv.mtd declares 3 rows, but the file has 2");
  });

  test("fewer rows than read() declares", () => {
    const files = { "/w/x.csv": "1\n2\n" };
    assert.equal(errorOf(files, "x.csv", { format: "csv", rows: 3 }), "x.csv: read() declares 3 rows, but the file has 2");
  });

  test("a quote that is never closed (csv-parse's error, at its line)", () => {
    const files = { "/w/x.csv": '1,2\n"3,4\n5,6\n' };
    assert.equal(errorOf(files, "x.csv", { format: "csv" }), "x.csv:3: malformed csv: Quote Not Closed: the parsing is finished with an opening quote");
  });

  test("a value after a closing quote", () => {
    const files = { "/w/x.csv": '1,"2"x\n' };
    assert.match(errorOf(files, "x.csv", { format: "csv" }), /^x\.csv:1: malformed csv: Invalid Closing Quote: got "x"/);
  });
});

describe("text (i j v)", () => {
  const mtd = (rows: number, cols: number) => `{"data_type": "matrix", "format": "text", "rows": ${rows}, "cols": ${cols}}`;

  test("an index out of range", () => {
    const files = { "/w/x.ijv": "1 1 2.0\n7 2 1.0\n", "/w/x.ijv.mtd": mtd(5, 3) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:2:1: row index 7 out of range 1..5");
  });

  test("a column index out of range", () => {
    const files = { "/w/x.ijv": "1 4 2.0\n", "/w/x.ijv.mtd": mtd(5, 3) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:1:3: column index 4 out of range 1..3");
  });

  test("index 0 (the file is 1-based)", () => {
    const files = { "/w/x.ijv": "0 1 2.0\n", "/w/x.ijv.mtd": mtd(2, 2) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:1:1: row index 0 out of range 1..2");
  });

  test("a missing value", () => {
    const files = { "/w/x.ijv": "1 1 1\n2 2\n", "/w/x.ijv.mtd": mtd(2, 2) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:2: expected 'row col value', found 2 values");
  });

  test("a value that is not a number", () => {
    const files = { "/w/x.ijv": "1 1 abc\n", "/w/x.ijv.mtd": mtd(2, 2) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:1:5: expected a number, found 'abc'");
  });

  test("an index that is not an integer", () => {
    const files = { "/w/x.ijv": "1.5 1 3\n", "/w/x.ijv.mtd": mtd(2, 2) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:1:1: expected a row index (an integer from 1), found '1.5'");
  });

  test("a cell given twice", () => {
    const files = { "/w/x.ijv": "1 1 1\n2 2 2\n1 1 3\n", "/w/x.ijv.mtd": mtd(2, 2) };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv:3: entry (1, 1) is given twice (also on line 1)");
  });

  test("no dims anywhere", () => {
    const files = { "/w/x.ijv": "1 1 1\n" };
    assert.equal(errorOf(files, "x.ijv"), "x.ijv: the text (i j v) format needs the dims: give rows and cols in x.ijv.mtd or as read() arguments");
  });
});

describe("Matrix Market", () => {
  const header = "%%MatrixMarket matrix coordinate real general\n";

  test("fewer entries than the header's count", () => {
    const entries = [1, 2, 3, 4, 5, 1, 2, 3, 4].map((i, k) => `${i} ${k < 5 ? 1 : 2} 1.5\n`).join("");
    const files = { "/w/m.mtx": `${header}% comment\n5 5 10\n${entries}` };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:3: nnz in header 10 but 9 entries");
  });

  test("more entries than the header's count", () => {
    const files = { "/w/m.mtx": `${header}2 2 1\n1 1 1\n2 2 2\n` };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:4: nnz in header 1 but found more entries");
  });

  test("an index out of range", () => {
    const files = { "/w/m.mtx": `${header}5 3 1\n2 7 1\n` };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:3:3: column index 7 out of range 1..3");
  });

  test("a real value that is not a number", () => {
    const files = { "/w/m.mtx": `${header}2 2 1\n1 1 x1\n` };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:3:5: expected a number, found 'x1'");
  });

  test("an integer field with a fraction", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:3:5: expected an integer (integer field), found '1.5'");
  });

  test("a pattern entry with a value", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:3: expected 'row col', found 3 values");
  });

  test("a bad banner (the metadata stage's message and place)", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix coordinate real sideways\n2 2 0\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:1:39: unknown Matrix Market symmetry 'sideways' (expected general | symmetric | skew-symmetric | hermitian)");
  });

  test("a size line with two numbers in a coordinate file", () => {
    const files = { "/w/m.mtx": `${header}2 2\n` };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:2:1: the size line of a coordinate Matrix Market file is 'rows cols entries' (found 2 numbers)");
  });

  test("an array with a missing value", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:2: expected 4 values (2 x 2 array, column-major), found 3");
  });

  test("an array with a value too many", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:5: more values than the 2 of a 1 x 2 array, column-major");
  });

  test("a symmetric file giving a cell and its mirror", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 5\n1 2 5\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:4: entry (1, 2) is given twice (also on line 3)");
  });

  test("complex values are refused", () => {
    const files = { "/w/m.mtx": "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n" };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:1: complex Matrix Market files cannot be read into a matrix of doubles");
  });

  test("dims that contradict the .mtd", () => {
    const files = { "/w/m.mtx": `${header}2 2 0\n`, "/w/m.mtx.mtd": '{"data_type": "matrix", "format": "mm", "rows": 3, "cols": 2}' };
    assert.equal(errorOf(files, "m.mtx"), "m.mtx:2: the size line says 2 x 2, but m.mtx.mtd declares 3 x 2");
  });
});

describe("libsvm", () => {
  test("a pair without ':'", () => {
    const files = { "/w/d.svm": "1 1:0.5 3:2\n0 2\n" };
    assert.equal(errorOf(files, "d.svm", { format: "libsvm" }), "d.svm:2:3: expected index:value, found '2'");
  });

  test("a label that is not a number", () => {
    const files = { "/w/d.svm": "yes 1:0.5\n" };
    assert.equal(errorOf(files, "d.svm", { format: "libsvm" }), "d.svm:1:1: expected a label (a number), found 'yes'");
  });

  test("a feature index beyond the declared columns (cols counts the label)", () => {
    const files = { "/w/d.svm": "1 1:0.5 7:2\n", "/w/d.svm.mtd": '{"data_type": "matrix", "format": "libsvm", "rows": 1, "cols": 6}' };
    assert.equal(errorOf(files, "d.svm"), "d.svm:1:9: feature index 7 out of range 1..5");
  });

  test("a value that is not a number", () => {
    const files = { "/w/d.svm": "1 1:0.5 3:z\n" };
    assert.equal(errorOf(files, "d.svm", { format: "libsvm" }), "d.svm:1:11: expected a number, found 'z'");
  });

  test("an empty line inside the data", () => {
    const files = { "/w/d.svm": "1 1:1\n\n0 2:1\n" };
    assert.equal(errorOf(files, "d.svm", { format: "libsvm" }), "d.svm:2: expected a label, found an empty line");
  });
});

describe("files and sidecars", () => {
  test("a missing file names every path tried", () => {
    const result = readDataFile("data/none.csv", { fs: memoryFileSystem({}), scriptPath: "/w/s/script.dml", workspaceRoot: "/w" });
    assert.ok(!result.ok);
    assert.equal(result.error.message, "data/none.csv: file not found (looked in /w/s/data/none.csv, /w/data/none.csv)");
    assert.equal(result.error.code, "not-found");
  });

  test("a .mtd without its data file", () => {
    const files = { "/w/x.csv.mtd": csvMtd(1, 1) };
    assert.equal(errorOf(files, "x.csv"), "x.csv: file not found: only its .mtd exists (/w/x.csv.mtd)");
  });

  test("an unknown key in the .mtd, at its line and column", () => {
    const files = { "/w/x.csv": "1\n", "/w/x.csv.mtd": '{\n  "format": "csv",\n  "na.strings": ["NA"]\n}' };
    assert.equal(
      errorOf(files, "x.csv"),
      'x.csv.mtd:3:3: SystemDS rejects this .mtd: "na.strings" is not a metadata key ("MTD file contains invalid parameter name"); the accepted key is "naStrings"',
    );
  });

  test("malformed JSON in the .mtd", () => {
    const files = { "/w/x.csv": "1\n", "/w/x.csv.mtd": '{"format": "csv",, }' };
    assert.match(errorOf(files, "x.csv"), /^x\.csv\.mtd:1:\d+: malformed \.mtd: /);
  });

  test("read() arguments that contradict the .mtd", () => {
    const files = { "/w/x.csv": "1;2\n", "/w/x.csv.mtd": '{"format": "csv", "sep": ","}' };
    assert.equal(errorOf(files, "x.csv", { sep: ";" }), 'x.csv.mtd: conflicting values: read() gives sep=";", but the .mtd says ","');
  });

  test("a format this reader does not handle", () => {
    const files = { "/w/x.bin": "\u0000", "/w/x.bin.mtd": '{"data_type": "matrix", "format": "binary", "rows": 1, "cols": 1}' };
    assert.equal(errorOf(files, "x.bin"), "x.bin: the binary format cannot be read here (csv, mm, text and libsvm can)");
  });

  test("a scalar file that does not hold its value type", () => {
    const files = { "/w/s.txt": "abc\n", "/w/s.txt.mtd": '{"data_type": "scalar", "value_type": "double", "format": "text"}' };
    assert.equal(errorOf(files, "s.txt"), "s.txt:1: expected a number, found 'abc'");
  });
});
