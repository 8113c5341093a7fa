// Matrix Market data: symmetric and skew-symmetric expansion, pattern and
// integer fields, array layout, SystemDS's empty-matrix line.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { type MatrixData, matrixDataNnz, parseMatrixMarket, toDenseMatrixData } from "../../engine/runtime/io";

function dense(data: MatrixData): number[][] {
  const d = toDenseMatrixData(data);
  return Array.from({ length: d.rows }, (_, i) => Array.from(d.values.subarray(i * d.cols, (i + 1) * d.cols)));
}

const read = (text: string) => parseMatrixMarket(text, { file: "m.mtx" });

describe("Matrix Market coordinate", () => {
  test("general real: entries in any order, CSR sorted by row then column", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real general\n3 4 4\n3 4 -1.5\n1 2 2\n3 1 1e3\n1 1 0.25\n");
    assert.equal(data.format, "csr");
    assert.deepEqual(dense(data), [
      [0.25, 2, 0, 0],
      [0, 0, 0, 0],
      [1000, 0, 0, -1.5],
    ]);
    assert.equal(data.format === "csr" && Array.from(data.colIdx).join(","), "0,1,0,3");
  });

  test("symmetric: off-diagonal entries are mirrored, the diagonal is not doubled", () => {
    const { data, header } = read("%%MatrixMarket matrix coordinate real symmetric\n% lower triangle\n3 3 4\n1 1 4\n2 1 -1\n3 2 2.5\n3 3 9\n");
    assert.equal(header.symmetry, "symmetric");
    assert.deepEqual(dense(data), [
      [4, -1, 0],
      [-1, 0, 2.5],
      [0, 2.5, 9],
    ]);
    assert.equal(matrixDataNnz(data), 6);
  });

  test("symmetric entries may be given in the upper triangle", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 7\n");
    assert.deepEqual(dense(data), [
      [0, 7],
      [7, 0],
    ]);
  });

  test("skew-symmetric: mirrored negated", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 3\n3 1 -1\n");
    assert.deepEqual(dense(data), [
      [0, -3, 1],
      [3, 0, 0],
      [-1, 0, 0],
    ]);
  });

  test("pattern: every listed cell is 1; symmetric pattern mirrors", () => {
    const { data } = read("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n1 1\n3 1\n3 2\n");
    assert.deepEqual(dense(data), [
      [1, 0, 1],
      [0, 0, 1],
      [1, 1, 0],
    ]);
  });

  test("integer field", () => {
    const { data } = read("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 -3\n2 2 +12\n");
    assert.deepEqual(dense(data), [
      [-3, 0],
      [0, 12],
    ]);
  });

  test("explicit zeros are counted as entries but not stored", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 0\n2 2 5\n");
    assert.equal(matrixDataNnz(data), 1);
  });

  test("SystemDS's empty matrix (0 entries, then the line 0 0 0)", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real general\n4 3 0\n0 0 0\n");
    assert.deepEqual([data.rows, data.cols, matrixDataNnz(data)], [4, 3, 0]);
  });

  test("comment and blank lines between entries, \\r\\n endings, tabs", () => {
    const { data } = read("%%MatrixMarket matrix coordinate real general\r\n2 2 2\r\n1\t1\t1\r\n% note\r\n\r\n2 2 2\r\n");
    assert.deepEqual(dense(data), [
      [1, 0],
      [0, 2],
    ]);
  });
});

describe("Matrix Market array", () => {
  test("general: column-major", () => {
    const { data } = read("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
    assert.equal(data.format, "dense");
    assert.deepEqual(dense(data), [
      [1, 3, 5],
      [2, 4, 6],
    ]);
  });

  test("symmetric: the lower triangle column by column, mirrored", () => {
    const { data } = read("%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");
    assert.deepEqual(dense(data), [
      [1, 2, 3],
      [2, 4, 5],
      [3, 5, 6],
    ]);
  });

  test("skew-symmetric: the strict lower triangle, mirrored negated", () => {
    const { data } = read("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
    assert.deepEqual(dense(data), [
      [0, -1, -2],
      [1, 0, -3],
      [2, 3, 0],
    ]);
  });

  test("integer array", () => {
    const { data } = read("%%MatrixMarket matrix array integer general\n1 2\n7\n-8\n");
    assert.deepEqual(dense(data), [[7, -8]]);
  });
});
