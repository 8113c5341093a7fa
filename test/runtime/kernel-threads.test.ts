// Kernel memory and the threaded products: large matrix arrays are
// allocated on SharedArrayBuffer (small ones are not) by the matrix
// constructors, the buffer pool, the CSR builder and the conversions, with
// the same byte sizes; the interpreter's GEMV, SpMV and SpMM on such
// matrices run on the kernel threads and equal the reference kernels bit
// for bit.
import { strict as assert } from "node:assert";
import os from "node:os";
import { before, describe, test } from "node:test";
import { gemvProgram, kernelGemv, kernelSpmm, kernelSpmv } from "../../engine/runtime/codegen/kernel-matmul";
import { kernelThreads, whenKernelThreadsReady } from "../../engine/runtime/codegen/kernel-runner";
import { allocateDenseValues } from "../../engine/runtime/io/dense-buffer";
import { denseMatrixData, toCsrMatrixData, toDenseMatrixData } from "../../engine/runtime/io/matrix-data";
import { gemv } from "../../engine/runtime/kernels/gemm";
import { matmul } from "../../engine/runtime/kernels/matmul";
import { csrTimesDense, csrTimesVector } from "../../engine/runtime/kernels/sparse-matmul";
import {
  allocateF64,
  allocateI32,
  BufferPool,
  copyF64,
  CsrBuilder,
  CsrMatrix,
  DenseMatrix,
  denseToCsr,
  isSharedArray,
  SHARED_MIN_LENGTH,
  type Matrix,
} from "../../engine/runtime/matrix";

const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function denseRandom(rows: number, cols: number, seed: number): DenseMatrix {
  const rand = seeded(seed);
  const m = new DenseMatrix(rows, cols);
  for (let i = 0; i < m.data.length; i++) m.data[i] = rand() * 2 - 1;
  return m;
}

/** A CSR matrix with about `perRow` entries per row at random columns (some rows empty, some long). */
function csrRandom(rows: number, cols: number, perRow: number, seed: number): CsrMatrix {
  const rand = seeded(seed);
  const b = new CsrBuilder(rows, cols, rows * perRow);
  for (let i = 0; i < rows; i++) {
    const count = i % 17 === 0 ? 0 : i % 13 === 0 ? 3 * perRow : perRow;
    let col = Math.floor(rand() * 5);
    for (let t = 0; t < count && col < cols; t++) {
      b.append(col, rand() - 0.5);
      col += 1 + Math.floor(rand() * (2 * (cols / perRow) - 1));
    }
    b.endRow();
  }
  return b.finish();
}

function dense(m: Matrix): DenseMatrix {
  assert.equal(m.format, "dense");
  return m as DenseMatrix;
}

describe("kernel memory: shared allocation of large matrix arrays", () => {
  test("allocation is shared from SHARED_MIN_LENGTH values on, not below, with the same byte sizes", () => {
    for (const [length, shared] of [
      [SHARED_MIN_LENGTH - 1, false],
      [SHARED_MIN_LENGTH, true],
      [0, false],
    ] as const) {
      const f = allocateF64(length);
      const i = allocateI32(length);
      assert.equal(isSharedArray(f), shared, `f64 of ${length}`);
      assert.equal(isSharedArray(i), shared, `i32 of ${length}`);
      assert.equal(f.byteLength, length * 8);
      assert.equal(i.byteLength, length * 4);
      assert.ok(f.every((v) => v === 0));
    }
  });

  test("matrix constructors, the buffer pool, the CSR builder and conversions allocate in kernel memory", () => {
    assert.equal(isSharedArray(new DenseMatrix(300, 200).data), true);
    assert.equal(isSharedArray(new DenseMatrix(30, 20).data), false);
    assert.equal(isSharedArray(DenseMatrix.filled(400, 100, 1).data), true);
    const pool = new BufferPool();
    const big = pool.acquire(SHARED_MIN_LENGTH * 2);
    assert.equal(isSharedArray(big), true);
    pool.release(big);
    assert.equal(pool.acquire(SHARED_MIN_LENGTH * 2), big, "a shared buffer is pooled and reused");
    assert.equal(isSharedArray(pool.acquireZeroed(SHARED_MIN_LENGTH + 3)), true);
    assert.equal(isSharedArray(pool.acquire(1000)), false);
    const csr = csrRandom(20_000, 500, 5, 3);
    assert.ok(csr.nnz() >= SHARED_MIN_LENGTH);
    assert.equal(isSharedArray(csr.rowPtr) && isSharedArray(csr.colIdx) && isSharedArray(csr.values), true);
    const small = csrRandom(100, 50, 3, 4);
    assert.equal(isSharedArray(small.colIdx) || isSharedArray(small.values), false);
    const converted = denseToCsr(denseRandom(200, 200, 5));
    assert.equal(isSharedArray(converted.values) && isSharedArray(converted.colIdx), true);
    const copied = copyF64(big, 0, SHARED_MIN_LENGTH);
    assert.equal(isSharedArray(copied) && copied.length === SHARED_MIN_LENGTH, true);
  });

  test("the readers' buffers and conversions are in kernel memory when large", () => {
    assert.equal(isSharedArray(allocateDenseValues(400, 100, "x.csv")), true);
    assert.equal(isSharedArray(allocateDenseValues(4, 100, "x.csv")), false);
    const values = allocateDenseValues(500, 100, "x.csv");
    for (let i = 0; i < values.length; i++) values[i] = i % 3 === 0 ? 0 : i;
    const csr = toCsrMatrixData(denseMatrixData(500, 100, values));
    assert.ok(csr.rowPtr[500]! + 501 >= SHARED_MIN_LENGTH);
    assert.equal(isSharedArray(csr.rowPtr) && isSharedArray(csr.colIdx) && isSharedArray(csr.values), true);
    assert.equal(isSharedArray(toDenseMatrixData(csr).values), true);
  });
});

describe("threaded GEMV, SpMV and SpMM", { skip: cores < 2 ? "one core: no kernel threads" : false }, () => {
  before(async () => {
    kernelThreads();
    await whenKernelThreadsReady();
    assert.ok((kernelThreads().pool?.readyCount ?? 0) >= 1, "a kernel worker started");
  });

  const dispatched = (): number => kernelThreads().pool?.dispatched ?? 0;

  test("GEMV on kernel memory uses the threads and equals the reference kernel bit for bit", () => {
    for (const [m, k] of [
      [3001, 301],
      [1200, 999],
    ] as const) {
      const a = denseRandom(m, k, m);
      const x = denseRandom(k, 1, k);
      const expected = new Float64Array(m);
      gemv(a.data, x.data, expected, m, k);
      const before = dispatched();
      const y = dense(matmul(a, x));
      assert.ok(dispatched() > before, `gemv ${m}x${k} posted to the kernel workers`);
      assert.deepEqual(Array.from(y.data), Array.from(expected));
      const plain = new Float64Array(m);
      kernelGemv(Float64Array.from(a.data), x.data, plain, m, k);
      assert.deepEqual(Array.from(plain), Array.from(expected), "plain arrays on the calling thread");
    }
  });

  test("GEMV of narrow matrices (a program written out per width) equals the reference kernel bit for bit, on the threads too", () => {
    for (const k of [1, 2, 3, 4, 5, 7, 8, 10, 13, 16, 17]) {
      const m = Math.floor(300_000 / k) + 7;
      const a = denseRandom(m, k, 100 + k);
      const x = denseRandom(k, 1, 200 + k);
      // Values of mixed sizes, so that the order of the additions shows in the last bits.
      for (let p = 0; p < a.data.length; p += 3) a.data[p] = a.data[p]! * 1e8;
      const expected = new Float64Array(m);
      gemv(a.data, x.data, expected, m, k);
      const before = dispatched();
      const y = dense(matmul(a, x));
      assert.ok(dispatched() > before, `gemv ${m}x${k} posted to the kernel workers`);
      assert.deepEqual(Array.from(y.data), Array.from(expected), `${m}x${k} on the threads`);
      const plain = new Float64Array(m);
      kernelGemv(Float64Array.from(a.data), x.data, plain, m, k);
      assert.deepEqual(Array.from(plain), Array.from(expected), `${m}x${k} on the calling thread`);
    }
    assert.notEqual(gemvProgram(10).source, gemvProgram(17).source);
    assert.equal(gemvProgram(10), gemvProgram(10));
  });

  test("SpMV on kernel memory uses the threads and equals the reference kernel bit for bit", () => {
    const a = csrRandom(60_000, 2000, 9, 11);
    const x = denseRandom(2000, 1, 12);
    const expected = new Float64Array(a.rows);
    csrTimesVector(a, x.data, expected);
    const before = dispatched();
    const y = dense(matmul(a, x));
    assert.ok(dispatched() > before, "spmv posted to the kernel workers");
    assert.deepEqual(Array.from(y.data), Array.from(expected));
    // The reference: every row's dot product.
    for (const r of [0, 13, 17, 59_999]) {
      let s = 0;
      for (let p = a.rowPtr[r]!; p < a.rowPtr[r + 1]!; p++) s += a.values[p]! * x.data[a.colIdx[p]!]!;
      assert.ok(Math.abs(s - expected[r]!) <= 1e-12 * (1 + Math.abs(s)), `row ${r}`);
    }
  });

  test("SpMM with few columns on kernel memory uses the threads and equals the reference kernel bit for bit", () => {
    const a = csrRandom(40_000, 1000, 8, 21);
    const b = denseRandom(1000, 4, 22);
    const expected = new Float64Array(a.rows * 4);
    csrTimesDense(a, b.data, expected, 4);
    const before = dispatched();
    const c = dense(matmul(a, b));
    assert.ok(dispatched() > before, "spmm posted to the kernel workers");
    assert.deepEqual(Array.from(c.data), Array.from(expected));
    const direct = allocateF64(a.rows * 4);
    kernelSpmm(a, b.data, direct, 4);
    assert.deepEqual(Array.from(direct), Array.from(expected));
  });

  test("small products stay on the calling thread", () => {
    const a = denseRandom(50, 40, 1);
    const x = denseRandom(40, 1, 2);
    const before = dispatched();
    const y = new Float64Array(50);
    kernelGemv(a.data, x.data, y, 50, 40);
    const s = csrRandom(100, 40, 3, 3);
    kernelSpmv(s, x.data, new Float64Array(100));
    assert.equal(dispatched(), before);
    const expected = new Float64Array(50);
    gemv(a.data, x.data, expected, 50, 40);
    assert.deepEqual(Array.from(y), Array.from(expected));
  });
});
