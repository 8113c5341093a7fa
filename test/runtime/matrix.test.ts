// The runtime's matrix values: construction, get, nnz, conversions both
// ways, SystemDS's format rule, comparison, the CSR builder and the
// buffer pool.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  allocateF64,
  BufferPool,
  installLargeArrayAllocator,
  chooseFormat,
  CsrBuilder,
  CsrMatrix,
  csrInvariantViolation,
  csrToDense,
  denseThreshold,
  DenseMatrix,
  denseToCsr,
  matricesEqual,
  matrixDifference,
  toPreferredFormat,
} from "../../engine/runtime/matrix";
import { storageFormat } from "../../engine/cost/operand-stats";
import { assertMatches, matrixArb, shapeArb } from "./arbitraries";

describe("DenseMatrix and CsrMatrix", () => {
  it("get, nnz and the CSR invariants", () => {
    const d = DenseMatrix.fromRows([[1, 0, 2], [0, 0, NaN]]);
    assert.equal(d.get(0, 2), 2);
    assert.equal(d.nnz(), 3, "NaN counts as a non-zero");
    const s = CsrMatrix.fromTriples(2, 3, [[1, 2, 5], [0, 1, 3], [1, 2, 1], [0, 0, 0]]);
    assert.equal(s.nnz(), 2, "duplicates summed, zeros dropped");
    assert.equal(s.get(1, 2), 6);
    assert.equal(s.get(1, 1), 0);
    assert.equal(csrInvariantViolation(s), undefined);
    const bad = new CsrMatrix(1, 3, Int32Array.of(0, 2), Int32Array.of(2, 1), Float64Array.of(1, 1));
    assert.match(csrInvariantViolation(bad)!, /not strictly increasing/);
    assert.throws(() => new DenseMatrix(2, 2, new Float64Array(3)), /data has 3 values, expected 4/);
  });

  it("conversions round-trip in both directions", () => {
    fc.assert(
      fc.property(shapeArb(9).chain(([m, n]) => matrixArb(m, n)), (x) => {
        const sparse = x.m.format === "dense" ? denseToCsr(x.m) : x.m;
        const dense = x.m.format === "dense" ? x.m : csrToDense(x.m);
        assert.equal(csrInvariantViolation(sparse), undefined);
        assertMatches(sparse, x.ref, "to CSR", false);
        assertMatches(dense, x.ref, "to dense", false);
        assertMatches(csrToDense(denseToCsr(dense)), x.ref, "dense -> CSR -> dense", false);
        assertMatches(denseToCsr(csrToDense(sparse)), x.ref, "CSR -> dense -> CSR", false);
        assert.equal(sparse.nnz(), dense.nnz());
        const preferred = toPreferredFormat(x.m);
        assert.equal(preferred.format, chooseFormat(x.m.rows, x.m.cols, x.m.nnz()));
        assertMatches(preferred, x.ref, "preferred format");
      }),
      { numRuns: 300 },
    );
  });

  it("the format rule is SystemDS's (the cost stage's storageFormat)", () => {
    assert.equal(chooseFormat(1000, 1000, 10_000), "sparse");
    assert.equal(chooseFormat(1000, 1000, 500_000), "dense", "sparsity 0.5 is above the 0.4 turn point");
    assert.equal(chooseFormat(10, 10, 30), "dense", "small matrices stay dense");
    assert.equal(chooseFormat(100_000, 1, 10), "dense", "column vectors are always dense");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), fc.double({ min: 0, max: 1, noNaN: true }), (r, c, s) => {
        const nnz = Math.floor(r * c * s);
        assert.equal(chooseFormat(r, c, nnz), storageFormat({ kind: "matrix", rows: r, cols: c, nnz }));
      }),
    );
  });

  it("denseThreshold is the boundary of the format rule (which is monotone in nnz)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), (r, c) => {
        const t = denseThreshold(r, c);
        if (t > 0) assert.equal(chooseFormat(r, c, t - 1), "sparse");
        if (t <= r * c) assert.equal(chooseFormat(r, c, t), "dense");
        for (const nnz of [0, Math.floor((r * c) / 3), r * c]) assert.equal(chooseFormat(r, c, nnz), nnz < t ? "sparse" : "dense");
      }),
    );
  });

  it("matrixDifference names the first differing cell, whatever the formats", () => {
    const a = DenseMatrix.fromRows([[1, 2], [3, 4]]);
    const b = CsrMatrix.fromTriples(2, 2, [[0, 0, 1], [0, 1, 2], [1, 0, 3], [1, 1, 4 + 1e-12]]);
    assert.ok(matricesEqual(a, b));
    assert.equal(matrixDifference(a, CsrMatrix.fromTriples(2, 2, [[0, 0, 1]])), "cell (1, 2) differs: 2 vs 0");
    assert.equal(matrixDifference(a, new DenseMatrix(2, 3)), "shapes differ: 2 x 2 vs 2 x 3");
    assert.ok(matricesEqual(DenseMatrix.fromRows([[NaN]]), DenseMatrix.fromRows([[NaN]])));
  });
});

describe("CsrBuilder", () => {
  it("grows, ends missing rows and trims", () => {
    const b = new CsrBuilder(4, 100, 1);
    for (let j = 0; j < 50; j++) b.append(j * 2, j + 1);
    b.endRow();
    b.endRow();
    b.append(99, -1);
    const m = b.finish();
    assert.equal(m.nnz(), 51);
    assert.equal(m.get(0, 98), 50);
    assert.equal(m.get(2, 99), -1);
    assert.equal(m.rowPtr[4], 51);
    assert.equal(csrInvariantViolation(m), undefined);
  });
});

describe("BufferPool", () => {
  it("reuses released buffers of the same length", () => {
    const pool = new BufferPool(1 << 20, 16);
    const a = pool.acquire(100);
    pool.release(a);
    assert.equal(pool.acquire(100), a);
    assert.notEqual(pool.acquire(100), a, "a buffer is handed out once");
    assert.deepEqual(pool.stats(), { hits: 1, misses: 2, retainedBytes: 0 });
  });

  it("zeroes on request, ignores double releases, small buffers and views", () => {
    const pool = new BufferPool(1 << 20, 16);
    const a = pool.acquire(32).fill(7);
    pool.release(a);
    pool.release(a);
    assert.equal(pool.stats().retainedBytes, 256);
    assert.ok(pool.acquireZeroed(32).every((v) => v === 0));
    pool.release(new Float64Array(8));
    pool.release(new Float64Array(64).subarray(0, 32));
    assert.equal(pool.stats().retainedBytes, 0);
  });

  it("keeps at most maxBytes, dropping the oldest first", () => {
    const pool = new BufferPool(3 * 800, 16);
    const buffers = [0, 1, 2, 3].map(() => pool.acquire(100));
    for (const b of buffers) pool.release(b);
    assert.equal(pool.stats().retainedBytes, 2400);
    assert.equal(pool.acquire(100), buffers[3]);
    assert.equal(pool.acquire(100), buffers[2]);
    assert.equal(pool.acquire(100), buffers[1]);
    assert.notEqual(pool.acquire(100), buffers[0], "the oldest was evicted");
    pool.release(new Float64Array(1000));
    assert.equal(pool.stats().retainedBytes, 0, "a buffer larger than the bound is not kept");
  });

  it("reuses an array of the large-array allocator, whose memory is larger than the array (WebAssembly pages, a scratch tail)", () => {
    installLargeArrayAllocator({ minLength: 64, allocate: (length) => new Float64Array(new SharedArrayBuffer(length * 8 + 4096), 0, length) });
    try {
      const pool = new BufferPool(1 << 20, 16);
      const large = allocateF64(100, true);
      assert.equal(large.buffer.byteLength, 800 + 4096);
      pool.release(large);
      assert.equal(pool.acquire(100), large);
      const view = new Float64Array(new SharedArrayBuffer(800 + 4096), 0, 100);
      pool.release(view);
      assert.equal(pool.stats().retainedBytes, 0, "a view on a larger buffer it was not allocated with is not kept");
    } finally {
      installLargeArrayAllocator(undefined);
    }
  });
});
