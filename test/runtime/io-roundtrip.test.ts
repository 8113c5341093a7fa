// Write then read gives the same values, for every format, on random dense,
// sparse, all-zero, 1x1, vector and zero-row matrices.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import {
  type MatrixData,
  type WriteFileOptions,
  denseMatrixData,
  matrixDataGet,
  memoryDataSink,
  readMatrixFile,
  toCsrMatrixData,
  writeDataFile,
} from "../../engine/runtime/io";
import { seededRandom } from "../../engine/stats/structure-random";

/** A small seeded generator (mulberry32). */
const random = seededRandom;

function randomValue(next: () => number): number {
  const kind = next();
  if (kind < 0.3) return Math.round((next() - 0.5) * 200);
  if (kind < 0.8) return (next() - 0.5) * 10;
  if (kind < 0.85) return next() * 1e-300;
  if (kind < 0.9) return -next() * 1e300;
  if (kind < 0.93) return Number.NaN;
  if (kind < 0.95) return Number.POSITIVE_INFINITY;
  return 1 / 3;
}

function randomMatrix(rows: number, cols: number, density: number, seed: number): MatrixData {
  const next = random(seed);
  const values = new Float64Array(rows * cols);
  for (let k = 0; k < values.length; k++) if (next() < density) values[k] = randomValue(next) || 1;
  return denseMatrixData(rows, cols, values);
}

const cases: { name: string; data: MatrixData }[] = [
  { name: "dense 13 x 7", data: randomMatrix(13, 7, 1, 1) },
  { name: "sparse 40 x 25 (5%)", data: toCsrMatrixData(randomMatrix(40, 25, 0.05, 2)) },
  { name: "sparse 30 x 9 (30%) held dense", data: randomMatrix(30, 9, 0.3, 3) },
  { name: "all-zero 6 x 4", data: randomMatrix(6, 4, 0, 4) },
  { name: "all-zero 5 x 3 held as CSR", data: toCsrMatrixData(randomMatrix(5, 3, 0, 5)) },
  { name: "1 x 1", data: denseMatrixData(1, 1, Float64Array.of(-2.5)) },
  { name: "1 x 1 zero", data: denseMatrixData(1, 1) },
  { name: "column vector 17 x 1", data: randomMatrix(17, 1, 0.7, 6) },
  { name: "row vector 1 x 19", data: randomMatrix(1, 19, 0.7, 7) },
  { name: "0 x 3", data: denseMatrixData(0, 3) },
];

const formats: { name: string; options: WriteFileOptions; skip?: (data: MatrixData) => boolean }[] = [
  { name: "csv", options: { format: "csv" } },
  { name: "csv with header, sep ';', sparse", options: { format: "csv", header: true, sep: ";", sparse: true } },
  { name: "csv with a multi-character sep", options: { format: "csv", sep: "||" } },
  { name: "mm coordinate", options: { format: "mm", layout: "coordinate" } },
  { name: "mm array", options: { format: "mm", layout: "array" } },
  { name: "text (i j v)", options: { format: "text" } },
  { name: "libsvm", options: { format: "libsvm" } },
];

function assertSameMatrix(actual: MatrixData, expected: MatrixData, what: string): void {
  assert.deepEqual([actual.rows, actual.cols], [expected.rows, expected.cols], `${what}: dims`);
  for (let i = 0; i < expected.rows; i++) {
    for (let j = 0; j < expected.cols; j++) {
      const a = matrixDataGet(actual, i, j);
      const e = matrixDataGet(expected, i, j);
      assert.ok(Object.is(a, e) || (a === 0 && e === 0), `${what}: cell (${i + 1}, ${j + 1}) is ${a}, expected ${e}`);
    }
  }
}

describe("write then read gives the same matrix", () => {
  for (const format of formats) {
    test(format.name, () => {
      const files = new Map<string, string>();
      const sink = memoryDataSink(files);
      const fs = memoryFileSystem(files);
      for (const { name, data } of cases) {
        const file = `/mem/${name.replace(/\W+/g, "_")}.data`;
        writeDataFile(file, { kind: "matrix", data }, { ...format.options, sink });
        const result = readMatrixFile(file, { fs });
        if (!result.ok) assert.fail(`${name}: ${result.error.message}\n${files.get(file)}`);
        assert.deepEqual(result.warnings, [], name);
        assertSameMatrix(result.value.value.data, data, name);
      }
    });
  }

  test("zero-column matrices round-trip in mm and text", () => {
    const files = new Map<string, string>();
    const sink = memoryDataSink(files);
    for (const format of ["mm", "text"] as const) {
      writeDataFile(`/mem/empty.${format}`, { kind: "matrix", data: denseMatrixData(3, 0) }, { format, sink });
      const result = readMatrixFile(`/mem/empty.${format}`, { fs: memoryFileSystem(files) });
      assert.ok(result.ok, result.ok ? "" : result.error.message);
      assert.deepEqual([result.value.value.data.rows, result.value.value.data.cols], [3, 0]);
    }
  });

  test("a large random sparse matrix through every sparse format", () => {
    const data = toCsrMatrixData(randomMatrix(500, 300, 0.02, 42));
    for (const format of ["mm", "text", "libsvm", "csv"] as const) {
      const files = new Map<string, string>();
      writeDataFile("/mem/big", { kind: "matrix", data }, { format, sink: memoryDataSink(files) });
      const result = readMatrixFile("/mem/big", { fs: memoryFileSystem(files) });
      assert.ok(result.ok, result.ok ? "" : result.error.message);
      assertSameMatrix(result.value.value.data, data, format);
    }
  });
});
