// Read data becomes runtime matrices in their preferred format, and runtime
// matrices are written through the I/O writers.
import { strict as assert } from "node:assert";
import path from "node:path";
import { describe, test } from "node:test";
import { memoryFileSystem } from "../../engine/files";
import { CsrMatrix, DenseMatrix } from "../../engine/runtime/matrix";
import { dataFromMatrix, joinChunks, matrixFromData, parseMatrixMarket, readMatrixFile, textCellChunks } from "../../engine/runtime/io";
import { repoRoot } from "../repo-root";

describe("I/O data and runtime matrices", () => {
  test("iris_X.csv becomes a dense 150 x 4 matrix", () => {
    const result = readMatrixFile(path.join(repoRoot, "examples", "data", "iris_X.csv"));
    assert.ok(result.ok);
    const m = matrixFromData(result.value.value.data);
    assert.ok(m instanceof DenseMatrix);
    assert.deepEqual([m.rows, m.cols, m.nnz()], [150, 4, 600]);
    assert.equal(m.get(0, 0), 5.1);
  });

  test("a sparse Matrix Market file becomes a CSR matrix; a dense-held sparse csv too", () => {
    const { data } = parseMatrixMarket("%%MatrixMarket matrix coordinate real general\n100 50 2\n1 1 3\n100 50 -1\n", { file: "m.mtx" });
    const m = matrixFromData(data);
    assert.ok(m instanceof CsrMatrix);
    assert.deepEqual([m.get(0, 0), m.get(99, 49), m.nnz()], [3, -1, 2]);
    const csv = `${"0,".repeat(19)}1\n`.repeat(40);
    const read = readMatrixFile("/w/s.csv", { fs: memoryFileSystem({ "/w/s.csv": csv }), params: { format: "csv" } });
    assert.ok(read.ok);
    assert.ok(matrixFromData(read.value.value.data) instanceof CsrMatrix);
  });

  test("a runtime CSR matrix with spare capacity is written by its non-zeros only", () => {
    const m = new CsrMatrix(2, 3, Int32Array.of(0, 1, 2), Int32Array.of(2, 0, 9, 9), Float64Array.of(1.5, -2, 7, 7));
    assert.equal(joinChunks(textCellChunks(dataFromMatrix(m))), "1 3 1.5\n2 1 -2.0\n");
    const d = DenseMatrix.fromRows([[0, 4]]);
    assert.equal(joinChunks(textCellChunks(dataFromMatrix(d))), "1 2 4.0\n");
  });
});
