// The worker split of the WebAssembly kernels gives the same results as one
// thread (gemm, gemv, element-wise, SpMV and SpMM bit for bit: each output
// element is computed by one thread in the same order; the sum within
// rounding), plus the heap allocator and the range splitting behind it.
import { strict as assert } from "node:assert";
import os from "node:os";
import { before, describe, test } from "node:test";
import { WasmHeap, jsKernels, wasmKernels, type CsrArrays, type WasmKernels } from "../../engine/runtime/wasm";
import { webAssembly } from "../../engine/runtime/wasm/wasm-api";
import { splitByNnz, splitEven } from "../../engine/runtime/wasm/wasm-kernels";
import { absArray, assertClose, fillRandom, randomCsr, seeded } from "./wasm-test-data";

const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
let w: WasmKernels;

before(async () => {
  w = wasmKernels()!;
  assert.ok(w, "the WebAssembly kernels did not load");
  await w.whenReady();
});

/** Runs `fn` on one thread, then on all, and returns both results. */
function bothWays<T>(fn: () => T): [T, T] {
  w.threads = 1;
  const one = fn();
  w.threads = cores;
  const all = fn();
  return [one, all];
}

function residentRandom(rand: () => number, length: number): Float64Array {
  return fillRandom(rand, length, w.heap.allocateF64(length));
}

describe("wasm kernels: worker threads", { skip: cores < 2 ? "one core: no worker threads" : false }, () => {
  test("every worker has started and large calls use them", () => {
    w.threads = cores;
    assert.equal(w.activeThreads, cores);
  });

  test("gemm (copied and resident operands) equals the single-thread result bit for bit", () => {
    const rand = seeded(21);
    const [m, k, n] = [203, 411, 131];
    const a = fillRandom(rand, m * k);
    const b = fillRandom(rand, k * n);
    const [one, all] = bothWays(() => {
      const c = new Float64Array(m * n);
      w.gemm(m, k, n, a, b, c);
      return c;
    });
    assert.deepEqual(all, one);
    const [ra, rb, rc] = [w.heap.allocateF64(m * k), w.heap.allocateF64(k * n), w.heap.allocateF64(m * n)];
    ra.set(a);
    rb.set(b);
    w.gemm(m, k, n, ra, rb, rc);
    assert.deepEqual(Float64Array.from(rc), one);
    for (const v of [ra, rb, rc]) w.heap.releaseArray(v);
  });

  test("gemv, element-wise and sum(x*y*z) on resident operands", () => {
    const rand = seeded(22);
    const [m, n] = [2001, 333];
    const a = residentRandom(rand, m * n);
    const x = residentRandom(rand, n);
    const y = w.heap.allocateF64(m);
    const [gOne, gAll] = bothWays(() => {
      w.gemv(m, n, a, x, y);
      return Float64Array.from(y);
    });
    assert.deepEqual(gAll, gOne);

    const len = 300_007;
    const [p, q, r] = [residentRandom(rand, len), residentRandom(rand, len), residentRandom(rand, len)];
    const out = w.heap.allocateF64(len);
    const [eOne, eAll] = bothWays(() => {
      w.elementwise("/", p, q, out);
      return Float64Array.from(out);
    });
    assert.deepEqual(eAll, eOne);
    const [sOne, sAll] = bothWays(() => w.sumProduct3(p, q, r));
    const scale = jsKernels.sumProduct3(absArray(p), absArray(q), absArray(r));
    assert.equal(sAll, sOne, "sum(x*y*z): the same parts added in the same order on one thread and on all");
    assertClose([sAll], [jsKernels.sumProduct3(p, q, r)], scale, "sum(x*y*z) threads vs JS");
    for (const v of [a, x, y, p, q, r, out]) w.heap.releaseArray(v);
  });

  test("spmv and spmm (rows split by non-zeros, skewed rows)", () => {
    const rand = seeded(23);
    const dense = randomCsr(rand, 4000, 300, 0.05);
    // Skew: the first rows much denser than the rest.
    const skewed = randomCsr(rand, 50, 300, 0.9);
    const a = concatRows(skewed, dense);
    const residentA: CsrArrays = {
      rows: a.rows,
      cols: a.cols,
      rowPtr: Int32Array.from(a.rowPtr),
      colIdx: w.heap.allocateI32(a.colIdx.length),
      values: w.heap.allocateF64(a.values.length),
    };
    const rowPtr = w.heap.allocateI32(a.rowPtr.length);
    rowPtr.set(a.rowPtr);
    residentA.colIdx.set(a.colIdx);
    residentA.values.set(a.values);
    const csr = { ...residentA, rowPtr };
    const x = fillRandom(rand, a.cols);
    const [vOne, vAll] = bothWays(() => {
      const y = new Float64Array(a.rows);
      w.spmv(csr, x, y);
      return y;
    });
    assert.deepEqual(vAll, vOne);
    const b = fillRandom(rand, a.cols * 20);
    const [mOne, mAll] = bothWays(() => {
      const c = new Float64Array(a.rows * 20);
      w.spmm(a, 20, b, c);
      return c;
    });
    assert.deepEqual(mAll, mOne);
    w.heap.releaseArray(rowPtr);
    w.heap.releaseArray(residentA.colIdx);
    w.heap.releaseArray(residentA.values);
  });
});

function concatRows(top: CsrArrays, bottom: CsrArrays): CsrArrays {
  const nnzTop = top.rowPtr[top.rows]!;
  const rowPtr = new Int32Array(top.rows + bottom.rows + 1);
  rowPtr.set(top.rowPtr);
  for (let r = 1; r <= bottom.rows; r++) rowPtr[top.rows + r] = nnzTop + bottom.rowPtr[r]!;
  const colIdx = new Int32Array(nnzTop + bottom.colIdx.length);
  colIdx.set(top.colIdx);
  colIdx.set(bottom.colIdx, nnzTop);
  const values = new Float64Array(colIdx.length);
  values.set(top.values);
  values.set(bottom.values, nnzTop);
  return { rows: top.rows + bottom.rows, cols: top.cols, rowPtr, colIdx, values };
}

describe("wasm kernels: heap and work splitting", () => {
  test("the heap reuses released blocks, coalesces neighbours and keeps views valid across growth", () => {
    const heap = new WasmHeap(new (webAssembly()!.Memory)({ initial: 2, maximum: 1024, shared: true }));
    const a = heap.allocate(1000);
    const b = heap.allocate(1000);
    assert.equal(a % 64, 0);
    assert.ok(b >= a + 1000);
    heap.release(a);
    assert.equal(heap.allocate(500), a, "a released block is reused");
    heap.release(a);
    heap.release(b);
    assert.equal(heap.bytesInUse, 0);
    const first = heap.allocateF64(100);
    first[99] = 42;
    const big = heap.allocateF64(2_000_000); // grows the memory
    assert.ok(heap.byteLength >= 16_000_000);
    assert.equal(first[99], 42, "a view made before growth still reads its bytes");
    assert.equal(heap.addressOf(first), first.byteOffset);
    assert.notEqual(heap.addressOf(big), undefined);
    assert.equal(heap.addressOf(new Float64Array(4)), undefined);
    heap.releaseArray(big);
    heap.releaseArray(first);
    assert.equal(heap.bytesInUse, 0);
    assert.equal(heap.allocate(3_000_000 * 8) > 0, true, "coalesced free space serves a block larger than either piece");
  });

  test("splitEven covers 0..total in aligned pieces; splitByNnz balances non-zeros", () => {
    assert.deepEqual(splitEven(10, 3, 4), [[0, 4], [4, 8], [8, 10]]);
    assert.deepEqual(splitEven(3, 4, 1), [[0, 1], [1, 2], [2, 3]]);
    assert.deepEqual(splitEven(0, 2, 1), []);
    const rowPtr = Int32Array.from([0, 100, 101, 102, 103, 104, 105]);
    const ranges = splitByNnz(rowPtr, 6, 2);
    assert.deepEqual(ranges[0], [0, 1]);
    assert.deepEqual(ranges[ranges.length - 1]![1], 6);
    assert.deepEqual(splitByNnz(rowPtr, 6, 1), [[0, 6]]);
  });
});
