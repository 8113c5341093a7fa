// .mtd sidecars: the real files of examples/data, malformed files (errors
// with file, line and column), SystemDS's leniencies, and the writer's exact
// key order and format.
import { strict as assert } from "node:assert";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { formatMetadataDiagnostic, formatMtd, parseJson, parseMtd, readMtd } from "../../engine/metadata";
import { memoryFileSystem, nodeFileSystem } from "../../engine/files";
import { repoRoot } from "../repo-root";

const dataDir = path.join(repoRoot, "examples", "data");

function errors(text: string) {
  return parseMtd(text, "/d/x.csv.mtd").diagnostics.filter((d) => d.severity === "error");
}

/** 1-based "line:col" of a diagnostic's start, as printed. */
function at(d: { range: { start: { line: number; character: number } } }): string {
  return `${d.range.start.line + 1}:${d.range.start.character + 1}`;
}

describe(".mtd reader: the shipped examples", () => {
  const files = readdirSync(dataDir).filter((f) => f.endsWith(".mtd"));

  test("there are shipped .mtd files", () => {
    assert.ok(files.length >= 6, files.join(", "));
  });

  for (const file of files) {
    test(`${file} reads without diagnostics and gives a csv matrix with rows, cols and nnz`, () => {
      const result = readMtd(nodeFileSystem, path.join(dataDir, file.replace(/\.mtd$/, "")));
      assert.equal(result.exists, true);
      assert.deepEqual(result.diagnostics, []);
      const m = result.metadata!;
      assert.equal(m.dataType, "matrix");
      assert.equal(m.valueType, "double");
      assert.equal(m.format, "csv");
      assert.equal(m.header, false);
      assert.equal(m.sep, ",");
      assert.ok(Number.isInteger(m.rows) && m.rows! > 0);
      assert.ok(Number.isInteger(m.cols) && m.cols! > 0);
      assert.ok(Number.isInteger(m.nnz) && m.nnz! <= m.rows! * m.cols!);
      assert.equal(typeof m.description, "string");
    });
  }

  test("iris_X.csv.mtd has exactly the documented values", () => {
    const m = readMtd(nodeFileSystem, path.join(dataDir, "iris_X.csv")).metadata!;
    assert.equal(m.rows, 150);
    assert.equal(m.cols, 4);
    assert.equal(m.nnz, 600);
  });

  test("a data file without a sidecar: exists is false and there is nothing to report", () => {
    const result = readMtd(nodeFileSystem, path.join(dataDir, "no-such-file.csv"));
    assert.equal(result.exists, false);
    assert.equal(result.metadata, undefined);
    assert.deepEqual(result.diagnostics, []);
  });
});

describe(".mtd reader: every key of DML_DATA_FORMATS.md", () => {
  test("all accepted keys and their types", () => {
    const text = JSON.stringify({
      data_type: "FRAME",
      value_type: "fp64",
      rows: 10,
      cols: 3,
      nnz: 7,
      format: "CSV",
      rows_in_block: 1000,
      cols_in_block: 1000,
      header: "TRUE",
      sep: ";",
      fill: false,
      default: 1.5,
      naStrings: ["NA", ""],
      indSep: ":",
      schema: "STRING,FP64,INT64",
      dataset: "d",
      description: { note: "any JSON" },
      author: "me",
      created: "2021-02-27 11:33:12 CET",
      privacy: "private-aggregate",
      fine_grained_privacy: { private: [[0, 0]] },
      iofilename: "x.csv",
    });
    const { metadata, diagnostics } = parseMtd(text, "x.mtd");
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(metadata, {
      dataType: "frame",
      valueType: "double",
      rows: 10,
      cols: 3,
      nnz: 7,
      format: "csv",
      rowsInBlock: 1000,
      colsInBlock: 1000,
      header: true,
      sep: ";",
      fill: false,
      default: 1.5,
      naStrings: ["NA", ""],
      indSep: ":",
      schema: "STRING,FP64,INT64",
      dataset: "d",
      description: '{"note":"any JSON"}',
      author: "me",
      created: "2021-02-27 11:33:12 CET",
      privacy: "private-aggregate",
      fineGrainedPrivacy: '{"private":[[0,0]]}',
      iofilename: "x.csv",
    });
  });

  test("value types by any of SystemDS's spellings", () => {
    const types: Record<string, string> = { double: "double", FP32: "double", float: "double", int64: "int", INT: "int", uint8: "int", bool: "boolean", Str: "string", char: "character", hash64: "hash64", unknown: "unknown" };
    for (const [spelled, expected] of Object.entries(types)) {
      assert.equal(parseMtd(`{"value_type": "${spelled}"}`, "x.mtd").metadata!.valueType, expected, spelled);
    }
  });

  test("rows -1 is SystemDS's unknown: absent, no diagnostic", () => {
    const { metadata, diagnostics } = parseMtd('{"rows": -1, "cols": 5, "nnz": -1}', "x.mtd");
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(metadata, { cols: 5 });
  });

  test("a scalar sidecar", () => {
    const { metadata, diagnostics } = parseMtd('{ "data_type": "scalar", "value_type": "double", "format": "text" }', "x.mtd");
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(metadata, { dataType: "scalar", valueType: "double", format: "text" });
  });
});

describe(".mtd reader: malformed files give errors with file, line and column", () => {
  test("bad JSON: a missing comma, at the next key", () => {
    const [e, ...rest] = errors('{\n "rows": 10\n "cols": 5\n}');
    assert.equal(rest.length, 0);
    assert.equal(at(e!), "3:2");
    assert.match(e!.message, /malformed \.mtd: expected ',' or '}'/);
    assert.equal(formatMetadataDiagnostic(e!), `/d/x.csv.mtd:3:2: error: ${e!.message}`);
  });

  test("bad JSON: an unclosed string, a trailing comma, garbage after the object, an empty file", () => {
    assert.equal(at(errors('{\n  "rows": "10\n}')[0]!), "2:11");
    assert.match(errors('{"rows": 10,}')[0]!.message, /',' before '}'/);
    assert.equal(at(errors('{"rows": 10,}')[0]!), "1:13");
    assert.match(errors('{"rows": 10} x')[0]!.message, /after the end/);
    assert.match(errors("  \n")[0]!.message, /empty/);
    assert.match(errors("[1, 2]")[0]!.message, /one JSON object, not an array/);
  });

  test("wrong types: each at the value's position", () => {
    const text = '{\n  "rows": "many",\n  "cols": 2.5,\n  "header": 3,\n  "format": "xml",\n  "data_type": "vector",\n  "sep": ""\n}';
    const found = errors(text).map((e) => `${at(e)} ${e.message}`);
    assert.deepEqual(found, [
      '2:11 "rows" must be an integer, not the string "many"',
      '3:11 "cols" must be an integer, not the number 2.5',
      '4:13 "header" must be true or false, not the number 3',
      '5:13 "format" must be a format: "text", "mm", "csv", "libsvm", "binary", ..., not the string "xml"',
      '6:16 "data_type" must be "matrix", "frame", "scalar", "list" or "tensor", not the string "vector"',
      '7:10 "sep" cannot be empty',
    ]);
  });

  test("an integer SystemDS cannot read (1e3, \"12\") is an error, and the value is still used", () => {
    const { metadata, diagnostics } = parseMtd('{"rows": 1e3, "cols": "12"}', "x.mtd");
    assert.equal(metadata!.rows, 1000);
    assert.equal(metadata!.cols, 12);
    assert.equal(diagnostics.length, 2);
    assert.match(diagnostics[0]!.message, /plain integer: SystemDS reads the number 1e3 as a double and fails/);
  });

  test("negative counts other than -1 are errors", () => {
    assert.match(errors('{"nnz": -5}')[0]!.message, /cannot be negative/);
  });

  test("an unknown key is an error (SystemDS rejects the file), with a hint for na.strings and case slips", () => {
    const [naStrings, rowsCase, other] = errors('{"na.strings": ["NA"], "Rows": 3, "colour": 1}');
    assert.match(naStrings!.message, /"na.strings" is not a metadata key .*the accepted key is "naStrings"/);
    assert.equal(at(naStrings!), "1:2");
    assert.match(rowsCase!.message, /did you mean "rows"\?/);
    assert.match(other!.message, /"colour" is not a metadata key/);
  });

  test("duplicate keys: a warning, the last value counts", () => {
    const { metadata, diagnostics } = parseMtd('{"rows": 3, "rows": 4}', "x.mtd");
    assert.equal(metadata!.rows, 4);
    assert.equal(diagnostics[0]!.severity, "warning");
  });

  test("what SystemDS's lenient JSON reader accepts is a warning, not an error", () => {
    const text = "// generated\n{ rows: 3, 'cols': 4, \"format\": csv, /* note */ \"nnz\": 010 }";
    const { metadata, diagnostics } = parseMtd(text, "x.mtd");
    assert.deepEqual(metadata, { rows: 3, cols: 4, format: "csv", nnz: 8 });
    assert.ok(diagnostics.length >= 5);
    assert.ok(diagnostics.every((d) => d.severity === "warning"), JSON.stringify(diagnostics));
  });

  test("a .mtd that exists but cannot be read as a file (a folder of part files) is a warning", () => {
    const fs = memoryFileSystem({ "/d/x.csv.mtd/part-0": "{}" });
    const result = readMtd(fs, "/d/x.csv");
    assert.equal(result.exists, true);
    assert.equal(result.diagnostics[0]!.severity, "warning");
  });

  test("the JSON parser reports positions of keys and values", () => {
    const parsed = parseJson('{\n  "a": [1, true, null]\n}');
    assert.ok(parsed.ok);
    if (!parsed.ok || parsed.value.kind !== "object") return;
    const member = parsed.value.members[0]!;
    assert.deepEqual(member.keyRange, { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } });
    assert.deepEqual(member.value.range, { start: { line: 1, character: 7 }, end: { line: 1, character: 22 } });
  });
});

describe(".mtd writer: SystemDS's key order and format", () => {
  const created = "2021-02-27 11:33:12 CET";

  test("a text matrix, as in the SystemDS documentation", () => {
    const text = formatMtd({ dataType: "matrix", rows: 300, cols: 300, nnz: 90000, format: "text", created });
    assert.equal(
      text,
      '{\n    "data_type": "matrix",\n    "value_type": "double",\n    "rows": 300,\n    "cols": 300,\n    "nnz": 90000,\n    "format": "text",\n    "author": "SystemDS",\n    "created": "2021-02-27 11:33:12 CET"\n}',
    );
  });

  test("csv: header and sep after author; binary: block sizes before nnz; unknown dims are -1", () => {
    const csv = formatMtd({ dataType: "matrix", rows: 748, cols: 5, nnz: null, format: "csv", header: true, created });
    assert.deepEqual(Object.keys(JSON.parse(csv)), ["data_type", "value_type", "rows", "cols", "nnz", "format", "author", "header", "sep", "created"]);
    assert.equal(JSON.parse(csv).nnz, -1);
    const binary = formatMtd({ dataType: "matrix", rows: 10, cols: 10, nnz: 5, format: "binary", created });
    assert.deepEqual(Object.keys(JSON.parse(binary)), ["data_type", "value_type", "rows", "cols", "rows_in_block", "cols_in_block", "nnz", "format", "author", "created"]);
  });

  test("a scalar has no dims; a frame with a schema has no value_type and no nnz", () => {
    assert.deepEqual(Object.keys(JSON.parse(formatMtd({ dataType: "scalar", format: "text", created }))), ["data_type", "value_type", "format", "author", "created"]);
    const frame = JSON.parse(formatMtd({ dataType: "frame", schema: ["STRING", "FP64"], rows: 2, cols: 2, format: "csv", created }));
    assert.deepEqual(Object.keys(frame), ["data_type", "schema", "rows", "cols", "format", "author", "header", "sep", "created"]);
    assert.equal(frame.schema, "STRING,FP64,");
  });

  test("strings are escaped as JSON4J does ('/' as '\\/', non-ASCII as \\u)", () => {
    const text = formatMtd({ dataType: "matrix", rows: 1, cols: 1, nnz: 1, format: "text", author: "a/b", created: "x", privacy: "private" });
    assert.match(text, /"author": "a\\\/b",/);
    assert.match(text, /"privacy": "private"\n}$/);
  });

  test("round trip: what the writer writes, the reader reads back without diagnostics", () => {
    const text = formatMtd({ dataType: "matrix", valueType: "int", rows: 7, cols: 3, nnz: 12, format: "csv", header: true, sep: ";", created });
    const { metadata, diagnostics } = parseMtd(text, "x.mtd");
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(metadata, { dataType: "matrix", valueType: "int", rows: 7, cols: 3, nnz: 12, format: "csv", author: "SystemDS", header: true, sep: ";", created });
  });
});
