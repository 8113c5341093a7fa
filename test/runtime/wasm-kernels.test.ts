// The WebAssembly SIMD kernels (engine/runtime/wasm) against the pure-JS
// ones on seeded random inputs: odd sizes (1, 3, 17, 129), empty and 1×1,
// plain arrays (copied in, or run by the JS path) and arrays resident in the
// kernel heap (used in place), within 1e-12 of each element's magnitude.
import { strict as assert } from "node:assert";
import { before, describe, test } from "node:test";
import {
  KERNELS_RELAXED_WASM_FILE,
  allocateKernelF64,
  releaseKernelArray,
  WasmKernels,
  jsKernels,
  loadKernelModule,
  locateKernelWasm,
  matrixKernels,
  wasmKernelStatus,
  wasmKernels,
  type CsrArrays,
} from "../../engine/runtime/wasm";
import { wasmUnsupportedReason } from "../../engine/runtime/wasm/wasm-module";
import { absArray, absCsr, absProduct, assertClose, fillRandom, randomCsr, seeded } from "./wasm-test-data";

const SIZES = [0, 1, 3, 17, 129];

let w: WasmKernels;

before(() => {
  const status = wasmKernelStatus();
  assert.ok(status.available, `the WebAssembly kernels did not load: ${status.available ? "" : status.reason}`);
  w = wasmKernels()!;
  // One thread here: the worker split has its own test file.
  w.threads = 1;
});

/** A copy of `values` living in the kernel heap. */
function resident(values: Float64Array): Float64Array {
  const view = w.heap.allocateF64(values.length);
  view.set(values);
  return view;
}

function residentCsr(a: CsrArrays): CsrArrays {
  const rowPtr = w.heap.allocateI32(a.rowPtr.length);
  rowPtr.set(a.rowPtr);
  const colIdx = w.heap.allocateI32(a.colIdx.length);
  colIdx.set(a.colIdx);
  return { rows: a.rows, cols: a.cols, rowPtr, colIdx, values: resident(a.values) };
}

function release(...arrays: (Float64Array | Int32Array)[]): void {
  for (const a of arrays) w.heap.releaseArray(a);
}

describe("wasm kernels: loading", () => {
  test("WebAssembly SIMD128 and shared memory are detected on this node", () => {
    assert.equal(wasmUnsupportedReason(), undefined);
  });

  test("the relaxed-SIMD build is preferred (node 20 gets its flag switched on)", () => {
    if (process.env["DML_LENS_WASM_RELAXED"] === "0") return;
    assert.equal(w.variant, "relaxed-simd");
  });

  test("matrixKernels() is the wasm backend, unless DML_LENS_KERNELS=js", () => {
    assert.equal(matrixKernels().backend, "wasm-simd");
    const saved = process.env["DML_LENS_KERNELS"];
    process.env["DML_LENS_KERNELS"] = "js";
    try {
      assert.equal(matrixKernels().backend, "js");
    } finally {
      if (saved === undefined) delete process.env["DML_LENS_KERNELS"];
      else process.env["DML_LENS_KERNELS"] = saved;
    }
  });
});

describe("wasm kernels: arrays for the runtime's buffer pool", () => {
  test("allocateKernelF64 hands out zeroed heap arrays that the kernels use in place, and takes them back", () => {
    const before = w.heap.bytesInUse;
    const a = allocateKernelF64(1000);
    assert.equal(a.length, 1000);
    assert.ok(a.every((v) => v === 0));
    assert.equal(w.heap.addressOf(a), a.byteOffset);
    releaseKernelArray(a);
    assert.equal(w.heap.bytesInUse, before);
  });
});

describe("wasm kernels vs JS: dense", () => {
  test("gemm on every combination of sizes 0, 1, 3, 17, 129, plain and resident arrays", () => {
    const rand = seeded(11);
    for (const m of SIZES) {
      for (const k of SIZES) {
        for (const n of SIZES) {
          const a = fillRandom(rand, m * k);
          const b = fillRandom(rand, k * n);
          const expected = new Float64Array(m * n);
          jsKernels.gemm(m, k, n, a, b, expected);
          const scale = absProduct(m, k, n, a, b);
          const c = new Float64Array(m * n).fill(Number.NaN);
          w.gemm(m, k, n, a, b, c);
          assertClose(c, expected, scale, `gemm ${m}x${k}x${n}`);
          const [ra, rb, rc] = [resident(a), resident(b), resident(new Float64Array(m * n).fill(7))];
          w.gemm(m, k, n, ra, rb, rc);
          assertClose(rc, expected, scale, `gemm ${m}x${k}x${n} resident`);
          release(ra, rb, rc);
        }
      }
    }
  });

  test("gemm on shapes that cut the cache blocks (k past one KC block, rows past one MC block), in both builds", () => {
    // The default is the relaxed-SIMD build where it compiles; the SIMD128 build has its own 4×4 micro-kernel.
    const simd = new WasmKernels(loadKernelModule(locateKernelWasm()!, "simd128"), 0, 1);
    const relaxedFile = locateKernelWasm(KERNELS_RELAXED_WASM_FILE);
    assert.ok(relaxedFile, "npm run build writes the relaxed-SIMD build too");
    const builds = [w, simd];
    const rand = seeded(12);
    for (const [m, k, n] of [[150, 400, 33], [290, 385, 7], [5, 800, 130], [17, 3, 129], [1, 1, 1], [3, 17, 1]] as const) {
      const a = fillRandom(rand, m * k);
      const b = fillRandom(rand, k * n);
      const expected = new Float64Array(m * n);
      jsKernels.gemm(m, k, n, a, b, expected);
      for (const build of builds) {
        const c = new Float64Array(m * n);
        build.gemm(m, k, n, a, b, c);
        assertClose(c, expected, absProduct(m, k, n, a, b), `gemm ${m}x${k}x${n} (${build.variant})`);
      }
    }
    assert.equal(simd.variant, "simd128");
  });

  test("gemv, resident and plain", () => {
    const rand = seeded(13);
    for (const m of SIZES) {
      for (const n of SIZES) {
        const a = fillRandom(rand, m * n);
        const x = fillRandom(rand, n);
        const expected = new Float64Array(m);
        jsKernels.gemv(m, n, a, x, expected);
        const scale = new Float64Array(m);
        jsKernels.gemv(m, n, absArray(a), absArray(x), scale);
        const y = new Float64Array(m);
        w.gemv(m, n, a, x, y);
        assertClose(y, expected, scale, `gemv ${m}x${n}`);
        const [ra, rx, ry] = [resident(a), resident(x), resident(new Float64Array(m))];
        w.gemv(m, n, ra, rx, ry);
        assertClose(ry, expected, scale, `gemv ${m}x${n} resident`);
        const ry2 = new Float64Array(m);
        w.gemv(m, n, ra, x, ry2);
        assertClose(ry2, expected, scale, `gemv ${m}x${n} resident a, plain x and y`);
        release(ra, rx, ry);
      }
    }
  });

  test("element-wise + - * / on lengths 0, 1, 3, 17, 129, 1001, also in place", () => {
    const rand = seeded(14);
    for (const len of [...SIZES, 1001]) {
      for (const op of ["+", "-", "*", "/"] as const) {
        const a = fillRandom(rand, len);
        const b = fillRandom(rand, len).map((v) => (v < 0 ? v - 0.5 : v + 0.5));
        const expected = new Float64Array(len);
        jsKernels.elementwise(op, a, b, expected);
        const [ra, rb, ro] = [resident(a), resident(b), resident(new Float64Array(len))];
        w.elementwise(op, ra, rb, ro);
        assertClose(ro, expected, absArray(expected), `${op} ${len}`);
        w.elementwise(op, ra, rb, ra);
        assertClose(ra, expected, absArray(expected), `${op} ${len} in place`);
        const plain = new Float64Array(len);
        w.elementwise(op, a, b, plain);
        assertClose(plain, expected, absArray(expected), `${op} ${len} plain`);
        release(ra, rb, ro);
      }
    }
  });

  test("sumProduct3 (fused sum(x*y*z)) on lengths 0, 1, 3, 17, 129, 10007", () => {
    const rand = seeded(15);
    for (const len of [...SIZES, 10007]) {
      const [x, y, z] = [fillRandom(rand, len), fillRandom(rand, len), fillRandom(rand, len)];
      const expected = jsKernels.sumProduct3(x, y, z);
      const scale = jsKernels.sumProduct3(absArray(x), absArray(y), absArray(z));
      const [rx, ry, rz] = [resident(x), resident(y), resident(z)];
      assertClose([w.sumProduct3(rx, ry, rz)], [expected], scale, `sum(x*y*z) ${len}`);
      assertClose([w.sumProduct3(x, y, z)], [expected], scale, `sum(x*y*z) ${len} plain`);
      release(rx, ry, rz);
    }
  });

  test("mismatched sizes are rejected with a RangeError", () => {
    assert.throws(() => w.gemm(2, 2, 2, new Float64Array(3), new Float64Array(4), new Float64Array(4)), RangeError);
    assert.throws(() => w.sumProduct3(new Float64Array(2), new Float64Array(3), new Float64Array(3)), RangeError);
    assert.throws(() => w.gemv(-1, 2, new Float64Array(0), new Float64Array(2), new Float64Array(0)), RangeError);
  });
});

describe("wasm kernels vs JS: sparse", () => {
  const shapes: [number, number, number][] = [
    [0, 0, 0],
    [0, 5, 0.5],
    [1, 1, 1],
    [1, 1, 0],
    [3, 17, 0.3],
    [17, 3, 0.5],
    [129, 129, 0.05],
    [129, 17, 0],
    [300, 200, 0.01],
  ];

  test("spmv, resident and plain", () => {
    const rand = seeded(16);
    for (const [rows, cols, density] of shapes) {
      const a = randomCsr(rand, rows, cols, density);
      const x = fillRandom(rand, cols);
      const expected = new Float64Array(rows);
      jsKernels.spmv(a, x, expected);
      const scale = new Float64Array(rows);
      jsKernels.spmv(absCsr(a), absArray(x), scale);
      const y = new Float64Array(rows);
      w.spmv(a, x, y);
      assertClose(y, expected, scale, `spmv ${rows}x${cols} at ${density}`);
      const ra = residentCsr(a);
      const ry = new Float64Array(rows).fill(Number.NaN);
      w.spmv(ra, x, ry);
      assertClose(ry, expected, scale, `spmv ${rows}x${cols} at ${density} resident`);
      release(ra.rowPtr, ra.colIdx, ra.values);
    }
  });

  test("spmm with 1, 2, 3, 8, 17 and 20 dense columns, resident and plain", () => {
    const rand = seeded(17);
    for (const [rows, cols, density] of shapes) {
      for (const n of [1, 2, 3, 8, 17, 20]) {
        const a = randomCsr(rand, rows, cols, density);
        const b = fillRandom(rand, cols * n);
        const expected = new Float64Array(rows * n);
        jsKernels.spmm(a, n, b, expected);
        const scale = new Float64Array(rows * n);
        jsKernels.spmm(absCsr(a), n, absArray(b), scale);
        const c = new Float64Array(rows * n).fill(Number.NaN);
        w.spmm(a, n, b, c);
        assertClose(c, expected, scale, `spmm ${rows}x${cols}x${n} at ${density}`);
        const ra = residentCsr(a);
        const [rb, rc] = [resident(b), resident(new Float64Array(rows * n))];
        w.spmm(ra, n, rb, rc);
        assertClose(rc, expected, scale, `spmm ${rows}x${cols}x${n} at ${density} resident`);
        release(ra.rowPtr, ra.colIdx, ra.values, rb, rc);
      }
    }
  });
});
