// A CSR driver outside kernel memory is copied into shared arrays once per
// matrix (sparse-shared.ts): the copy holds the same cells, a second call
// returns the same copy, and a matrix already shared (or too small to be)
// is returned as it is.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { sharedCsr } from "../../engine/runtime/kernels";
import { CsrMatrix, denseToCsr, DenseMatrix, isSharedArray, SHARED_MIN_LENGTH } from "../../engine/runtime/matrix";

function plainCsr(rows: number, cols: number, perRow: number): CsrMatrix {
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(rows * perRow);
  const values = new Float64Array(rows * perRow);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < perRow; k++) {
      const p = i * perRow + k;
      colIdx[p] = (i * 7 + k * 13) % cols;
      values[p] = 1 + ((i + k) % 5);
    }
    colIdx.subarray(i * perRow, (i + 1) * perRow).sort();
    rowPtr[i + 1] = (i + 1) * perRow;
  }
  return new CsrMatrix(rows, cols, rowPtr, colIdx, values);
}

describe("sharedCsr", () => {
  test("a large CSR matrix in ordinary arrays is copied into shared arrays once, with the same cells", () => {
    const x = plainCsr(4000, 900, 10);
    assert.ok(x.rows + 1 + x.nnz() >= SHARED_MIN_LENGTH);
    assert.equal(isSharedArray(x.values), false);
    const s = sharedCsr(x);
    assert.notEqual(s, x);
    assert.ok(isSharedArray(s.rowPtr) && isSharedArray(s.colIdx) && isSharedArray(s.values));
    assert.deepEqual(Array.from(s.rowPtr), Array.from(x.rowPtr));
    assert.deepEqual(Array.from(s.colIdx), Array.from(x.colIdx));
    assert.deepEqual(Array.from(s.values), Array.from(x.values));
    assert.equal(s.get(17, x.colIdx[170]!), x.get(17, x.colIdx[170]!));
    assert.equal(sharedCsr(x), s, "the copy is kept per matrix");
    assert.equal(sharedCsr(s), s, "a shared matrix is returned as it is");
  });

  test("a small CSR matrix stays as it is", () => {
    const small = denseToCsr(new DenseMatrix(3, 3, Float64Array.of(0, 1, 0, 2, 0, 0, 0, 0, 3)));
    assert.equal(sharedCsr(small), small);
  });
});
