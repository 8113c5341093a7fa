// Frames from csv with a schema (string, double, int, boolean), printed as
// SystemDS prints them, and written back with their .mtd.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import {
  type FrameData,
  formatDecimal,
  formatFrame,
  frameCell,
  memoryDataSink,
  parseCsvFrame,
  readFrameFile,
  writeDataFile,
} from "../../engine/runtime/io";

const people = "name,age,height,member\nann,41,1.68,TRUE\nbob,37,1.8,false\n,29,,t\n";
const mtd = '{"data_type": "frame", "format": "csv", "header": true, "rows": 3, "cols": 4, "schema": "STRING,INT64,FP64,BOOLEAN,"}';

function cells(frame: FrameData): (string | number | boolean | null)[][] {
  return Array.from({ length: frame.rows }, (_, i) => Array.from({ length: frame.cols }, (_, j) => frameCell(frame, i, j)));
}

describe("csv frames", () => {
  test("a schema from the .mtd (with SystemDS's trailing comma) types each column", () => {
    const result = readFrameFile("people.csv", { fs: memoryFileSystem({ "/w/people.csv": people, "/w/people.csv.mtd": mtd }), scriptPath: "/w/s.dml" });
    assert.ok(result.ok, result.ok ? "" : result.error.message);
    const frame = result.value.value.frame;
    assert.deepEqual(frame.names, ["name", "age", "height", "member"]);
    assert.deepEqual(frame.columns.map((c) => c.type), ["string", "int", "double", "boolean"]);
    assert.deepEqual(cells(frame), [
      ["ann", 41, 1.68, true],
      ["bob", 37, 1.8, false],
      [null, 29, 0, true],
    ]);
  });

  test("printed as SystemDS's toString prints a frame", () => {
    const frame = parseCsvFrame(people, { file: "people.csv", header: true, schema: ["string", "int", "double", "boolean"] });
    assert.equal(
      formatFrame(frame),
      ["# FRAME: nrow = 3, ncol = 4", "# name age height member", "# STRING INT64 FP64 BOOLEAN", "ann 41 1.680 TRUE", "bob 37 1.800 FALSE", "null 29 0.000 TRUE", ""].join("\n"),
    );
  });

  test("without a schema every column is STRING; without a header the names are C1, C2, ...", () => {
    const frame = parseCsvFrame("a,1\nb,2\n", { file: "f.csv" });
    assert.deepEqual(frame.names, ["C1", "C2"]);
    assert.deepEqual(frame.columns.map((c) => c.type), ["string", "string"]);
    assert.deepEqual(cells(frame), [
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  test("one schema type applies to every column", () => {
    const frame = parseCsvFrame("1,2\n3,4\n", { file: "f.csv", schema: ["double"] });
    assert.deepEqual(frame.columns.map((c) => c.type), ["double", "double"]);
  });

  test("missing values: fill with a non-zero default, naStrings", () => {
    const frame = parseCsvFrame("x,NA\n,3\n", { file: "f.csv", schema: ["string", "double"], default: 5, naStrings: ["NA"] });
    assert.deepEqual(cells(frame), [
      ["x", 5],
      ["5.0", 3],
    ]);
  });

  test("a value that does not fit its column's type", () => {
    assert.throws(() => parseCsvFrame("a,1\nb,x\n", { file: "f.csv", schema: ["string", "int"] }), { message: "f.csv:2:3: expected an integer, found 'x'" });
    assert.throws(() => parseCsvFrame("a,1.5\n", { file: "f.csv", schema: ["string", "int"] }), { message: "f.csv:1:3: expected an integer, found '1.5'" });
    assert.throws(() => parseCsvFrame("yes\n", { file: "f.csv", schema: ["boolean"] }), { message: "f.csv:1:1: expected a boolean (TRUE or FALSE), found 'yes'" });
    assert.throws(() => parseCsvFrame("a,1\nb\n", { file: "f.csv" }), { message: "f.csv:2: expected 2 values, found 1" });
  });

  test("an unknown schema type in the .mtd", () => {
    const files = { "/w/f.csv": "1\n", "/w/f.csv.mtd": '{"data_type": "frame", "format": "csv", "schema": "FP64,DATE"}' };
    const result = readFrameFile("f.csv", { fs: memoryFileSystem(files), scriptPath: "/w/s.dml" });
    assert.ok(!result.ok);
    assert.equal(result.error.message, "f.csv.mtd: unknown value type 'DATE' in the schema (STRING, FP64, INT64 or BOOLEAN)");
  });

  test("written as csv with a schema .mtd, and read back the same", () => {
    const frame = parseCsvFrame('name,score,ok\n"Smith, J",2.5,true\n,-1,false\n', { file: "f.csv", header: true, schema: ["string", "double", "boolean"] });
    const files = new Map<string, string>();
    writeDataFile("/w/out.csv", { kind: "frame", frame }, { format: "csv", header: true, sink: memoryDataSink(files), created: "2024-01-02 03:04:05 UTC" });
    assert.equal(files.get("/w/out.csv"), 'name,score,ok\n"Smith, J",2.5,true\n,-1.0,false\n');
    assert.equal(
      files.get("/w/out.csv.mtd"),
      '{\n    "data_type": "frame",\n    "schema": "STRING,FP64,BOOLEAN,",\n    "rows": 2,\n    "cols": 3,\n    "format": "csv",\n    "author": "SystemDS",\n    "header": true,\n    "sep": ",",\n    "created": "2024-01-02 03:04:05 UTC"\n}',
    );
    const back = readFrameFile("/w/out.csv", { fs: memoryFileSystem(files) });
    assert.ok(back.ok, back.ok ? "" : back.error.message);
    assert.deepEqual(cells(back.value.value.frame), cells(frame));
    assert.deepEqual(back.value.value.frame.names, frame.names);
  });
});

describe("DecimalFormat of FP64 cells", () => {
  test("three fraction digits, half-even on exact ties, NaN and Infinity", () => {
    assert.equal(formatDecimal(1), "1.000");
    assert.equal(formatDecimal(1 / 3), "0.333");
    assert.equal(formatDecimal(2 / 3), "0.667");
    assert.equal(formatDecimal(0.0625), "0.062"); // an exact tie: to even
    assert.equal(formatDecimal(0.1875), "0.188");
    assert.equal(formatDecimal(0.0005), "0.001"); // not an exact tie in binary (slightly above)
    assert.equal(formatDecimal(-2.5), "-2.500");
    assert.equal(formatDecimal(1e20), "100000000000000000000.000");
    assert.equal(formatDecimal(Number.NaN), "NaN");
    assert.equal(formatDecimal(-Infinity), "-Infinity");
  });
});
