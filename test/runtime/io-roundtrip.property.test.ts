// Property: for any matrix (any doubles, NaN and ±Infinity included, any
// density, 1x1 and vectors), writing in each format and reading back gives
// the same values.
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { describe, test } from "node:test";
import { type FileFormatName } from "../../engine/metadata";
import { memoryFileSystem } from "../../engine/files";
import { type MatrixData, denseMatrixData, matrixDataGet, memoryDataSink, readMatrixFile, toCsrMatrixData, writeDataFile } from "../../engine/runtime/io";

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
);

const matrix: fc.Arbitrary<MatrixData> = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.boolean())
  .chain(([rows, cols, sparse]) =>
    fc.array(value, { minLength: rows * cols, maxLength: rows * cols }).map((cells) => {
      const data = denseMatrixData(rows, cols, Float64Array.from(cells, (v) => (Object.is(v, -0) ? 0 : v)));
      return sparse ? toCsrMatrixData(data) : data;
    }),
  );

const formats: FileFormatName[] = ["csv", "mm", "text", "libsvm"];

describe("write then read (property)", () => {
  for (const format of formats) {
    test(format, () => {
      fc.assert(
        fc.property(matrix, fc.boolean(), (data, header) => {
          const files = new Map<string, string>();
          writeDataFile("/p/m", { kind: "matrix", data }, { format, header, sink: memoryDataSink(files) });
          const result = readMatrixFile("/p/m", { fs: memoryFileSystem(files) });
          if (!result.ok) assert.fail(result.error.message);
          const back = result.value.value.data;
          assert.deepEqual([back.rows, back.cols], [data.rows, data.cols]);
          for (let i = 0; i < data.rows; i++) {
            for (let j = 0; j < data.cols; j++) assert.ok(Object.is(matrixDataGet(back, i, j), matrixDataGet(data, i, j)), `(${i}, ${j})`);
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});
