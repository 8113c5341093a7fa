// The writers' exact text (SystemDS's layouts) and .mtd sidecars; libsvm's
// label column; scalars.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import {
  csvMatrixChunks,
  denseMatrixData,
  joinChunks,
  libsvmChunks,
  matrixMarketChunks,
  memoryDataSink,
  parseLibsvm,
  readDataFile,
  splitLibsvmLabel,
  textCellChunks,
  toCsrMatrixData,
  toDenseMatrixData,
  writeDataFile,
} from "../../engine/runtime/io";

// [[1, 0, 2.5], [0, 0, 0], [-3, 1e-4, 0]]
const m = denseMatrixData(3, 3, Float64Array.of(1, 0, 2.5, 0, 0, 0, -3, 1e-4, 0));

describe("writers' text", () => {
  test("csv: Double.toString values, zeros as 0 (or empty with sparse), C1.. header", () => {
    assert.equal(joinChunks(csvMatrixChunks(m)), "1.0,0,2.5\n0,0,0\n-3.0,1.0E-4,0\n");
    assert.equal(joinChunks(csvMatrixChunks(toCsrMatrixData(m), { header: true, sep: ";", sparse: true })), "C1;C2;C3\n1.0;;2.5\n;;\n-3.0;1.0E-4;\n");
  });

  test("Matrix Market coordinate and array", () => {
    assert.equal(joinChunks(matrixMarketChunks(toCsrMatrixData(m))), "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1.0\n1 3 2.5\n3 1 -3.0\n3 2 1.0E-4\n");
    assert.equal(
      joinChunks(matrixMarketChunks(m)),
      "%%MatrixMarket matrix array real general\n3 3\n1.0\n0.0\n-3.0\n0.0\n0.0\n1.0E-4\n2.5\n0.0\n0.0\n",
    );
  });

  test("text (i j v), and 0 0 0 for an empty matrix", () => {
    assert.equal(joinChunks(textCellChunks(m)), "1 1 1.0\n1 3 2.5\n3 1 -3.0\n3 2 1.0E-4\n");
    assert.equal(joinChunks(textCellChunks(denseMatrixData(2, 2))), "0 0 0\n");
  });

  test("libsvm: the last column is the label, each item followed by the separator", () => {
    assert.equal(joinChunks(libsvmChunks(m)), "2.5 1:1.0 \n0.0 \n0.0 1:-3.0 2:1.0E-4 \n");
  });

  test("large data comes in several chunks", () => {
    const big = denseMatrixData(3000, 10, new Float64Array(30000).fill(1.25));
    const chunks = [...csvMatrixChunks(big)];
    assert.ok(chunks.length > 1);
    assert.equal(chunks.join(""), "1.25,1.25,1.25,1.25,1.25,1.25,1.25,1.25,1.25,1.25\n".repeat(3000));
  });
});

describe("write() with the .mtd sidecar", () => {
  const created = "2024-05-06 07:08:09 UTC";

  test("csv: SystemDS's keys and order", () => {
    const sink = memoryDataSink();
    const written = writeDataFile("out/X.csv", { kind: "matrix", data: m }, { format: "csv", header: true, sink, scriptPath: "/w/s.dml", created });
    assert.deepEqual(written, { path: "/w/out/X.csv", mtdPath: "/w/out/X.csv.mtd" });
    assert.equal(
      sink.files.get("/w/out/X.csv.mtd"),
      '{\n    "data_type": "matrix",\n    "value_type": "double",\n    "rows": 3,\n    "cols": 3,\n    "nnz": 4,\n    "format": "csv",\n    "author": "SystemDS",\n    "header": true,\n    "sep": ",",\n    "created": "2024-05-06 07:08:09 UTC"\n}',
    );
  });

  test("text, mm and libsvm sidecars carry no csv keys; a description is kept", () => {
    const sink = memoryDataSink();
    writeDataFile("/w/X.mtx", { kind: "matrix", data: m }, { format: "mm", sink, created, description: "three by three" });
    assert.equal(
      sink.files.get("/w/X.mtx.mtd"),
      '{\n    "data_type": "matrix",\n    "value_type": "double",\n    "rows": 3,\n    "cols": 3,\n    "nnz": 4,\n    "format": "mm",\n    "description": "three by three",\n    "author": "SystemDS",\n    "created": "2024-05-06 07:08:09 UTC"\n}',
    );
  });

  test("the default format is text", () => {
    const sink = memoryDataSink();
    writeDataFile("/w/X", { kind: "matrix", data: m }, { sink, created });
    assert.equal(sink.files.get("/w/X"), "1 1 1.0\n1 3 2.5\n3 1 -3.0\n3 2 1.0E-4\n");
    assert.match(sink.files.get("/w/X.mtd")!, /"format": "text"/);
  });

  test("a scalar: its text and a scalar sidecar; read back with its type", () => {
    const sink = memoryDataSink();
    writeDataFile("/w/s", { kind: "scalar", scalar: { type: "double", value: 0.5 } }, { sink, created });
    writeDataFile("/w/b", { kind: "scalar", scalar: { type: "boolean", value: true } }, { sink, created });
    assert.equal(sink.files.get("/w/s"), "0.5");
    assert.equal(
      sink.files.get("/w/s.mtd"),
      '{\n    "data_type": "scalar",\n    "value_type": "double",\n    "format": "text",\n    "author": "SystemDS",\n    "created": "2024-05-06 07:08:09 UTC"\n}',
    );
    const fs = memoryFileSystem(sink.files);
    const s = readDataFile("/w/s", { fs });
    const b = readDataFile("/w/b", { fs });
    assert.ok(s.ok && b.ok);
    assert.deepEqual(s.value.value, { kind: "scalar", scalar: { type: "double", value: 0.5 } });
    assert.deepEqual(b.value.value, { kind: "scalar", scalar: { type: "boolean", value: true } });
  });

  test("formats and shapes that cannot be written are errors", () => {
    const sink = memoryDataSink();
    assert.throws(() => writeDataFile("/w/X", { kind: "matrix", data: m }, { format: "binary", sink }), {
      message: "/w/X: the binary format cannot be written here (csv, mm, text and libsvm can)",
    });
    assert.throws(() => writeDataFile("/w/X", { kind: "matrix", data: denseMatrixData(2, 0) }, { format: "csv", sink }), {
      message: "/w/X: a 2 x 0 matrix cannot be written as csv",
    });
    assert.throws(() => writeDataFile("hdfs://cluster/X", { kind: "matrix", data: m }, { sink }), {
      message: "hdfs://cluster/X: remote files (hdfs:, s3:, ...) cannot be written here",
    });
    assert.equal(sink.files.size, 0);
  });
});

describe("libsvm's label column", () => {
  test("read: label last, cols = max feature + 1 without a .mtd; split into X and y", () => {
    const data = parseLibsvm("+1 1:0.5 4:2\n-1 2:1\n0\n", { file: "d.svm" });
    assert.deepEqual([data.rows, data.cols], [3, 5]);
    const dense = toDenseMatrixData(data);
    assert.deepEqual(Array.from(dense.values), [0.5, 0, 0, 2, 1, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0]);
    const { features, labels } = splitLibsvmLabel(data);
    assert.deepEqual([features.rows, features.cols, labels.rows, labels.cols], [3, 4, 3, 1]);
    assert.deepEqual(Array.from(labels.values), [1, -1, 0]);
    assert.deepEqual(Array.from(toDenseMatrixData(features).values), [0.5, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
  });

  test("a separator other than blanks, and another index separator", () => {
    const data = parseLibsvm("1,2=3,\n", { file: "d.svm", sep: ",", indSep: "=" });
    assert.deepEqual(Array.from(toDenseMatrixData(data).values), [0, 3, 1]);
  });

  test("features in any order", () => {
    const data = parseLibsvm("7 3:1 1:2\n", { file: "d.svm", cols: 4 });
    assert.deepEqual(Array.from(toDenseMatrixData(data).values), [2, 0, 1, 7]);
  });
});
