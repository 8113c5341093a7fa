// The WebAssembly GEMV on a resident X equals plain dot products within
// rounding, on one thread as on all bit for bit, y shared or not.
// The WebAssembly MMChain kernel (t(X) %*% (X %*% v), t(X) %*% (w * (X %*% v)),
// t(X) %*% ((X %*% v) - w)) on X in its resident memory equals a plain
// two-pass reference within rounding, for ragged shapes (odd columns, row
// counts off the kernel's 2-row step and 256-row blocks, chunked and not,
// chunks longer than the span of rows a thread copies w for at once),
// gives the same bits on one thread as on all (the chunks' sums are added in
// chunk order), and declines what it cannot take (X not resident).
import { strict as assert } from "node:assert";
import os from "node:os";
import { before, describe, test } from "node:test";
import { wasmModule } from "../../engine/runtime/wasm";
import { allocateResidentF64 } from "../../engine/runtime/wasm/resident-memory";
import { chunkCount, mmchainStats, residentGemv, residentMmchain, whenResidentPoolReady, type MmchainMode } from "../../engine/runtime/wasm/resident-kernels";
import type { WasmModule } from "../../engine/runtime/wasm/wasm-api";
import { assertClose, fillRandom, gemvReference, mmchainReference, seeded } from "./wasm-test-data";

const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
let module: WasmModule;

before(async () => {
  const m = wasmModule();
  assert.ok(m, "the WebAssembly kernels did not load");
  module = m;
  await whenResidentPoolReady(module, cores - 1);
});

function residentX(rand: () => number, rows: number, cols: number): Float64Array {
  const x = allocateResidentF64(rows * cols);
  assert.ok(x, "no resident memory");
  fillRandom(rand, rows * cols, x);
  for (let k = 0; k < x.length; k++) x[k]! -= 0.5;
  return x;
}

const SHAPES: [number, number][] = [
  [1, 1],
  [2, 3],
  [3, 1],
  [7, 2],
  [255, 5],
  [257, 4],
  [513, 100],
  [3001, 99],
  [20_011, 37],
  [70_001, 9],
  // Chunks of 125,000 rows, more than a thread's slot holds at once: several spans per chunk, of other lengths on one
  // thread than on two.
  [2_000_003, 1],
];
const MODES: MmchainMode[] = ["XtXv", "XtwXv", "XtXvy", "Xtw", "Xtwu"];

describe("wasm kernels on resident memory", () => {
  for (const [rows, cols] of SHAPES) {
    test(`${rows} x ${cols} (${chunkCount(rows, cols)} chunks): equals the two-pass reference, the same bits on one thread as on all`, () => {
      const rand = seeded(rows * 31 + cols);
      const x = residentX(rand, rows, cols);
      const v = fillRandom(rand, cols).map((e) => e * 2 - 1);
      const w = fillRandom(rand, rows).map((e) => e * 3 - 1);
      const u = fillRandom(rand, rows).map((e) => e - 0.25);
      for (const mode of MODES) {
        const one = residentMmchain(module, x, rows, cols, v, w, mode, 1, u);
        const all = residentMmchain(module, x, rows, cols, v, w, mode, cores, u);
        assert.ok(one && all, `${mode}: the kernel declined`);
        const { value, scale } = mmchainReference(x, rows, cols, v, w, u, mode);
        assertClose(one, value, scale, `${mode} ${rows}x${cols}`, 1e-13);
        assert.deepEqual(Array.from(all), Array.from(one), `${mode}: threads changed the result`);
      }
    });
  }

  for (const [rows, cols] of SHAPES) {
    test(`gemv ${rows} x ${cols}: equals plain dot products, the same bits on one thread as on all`, () => {
      const rand = seeded(rows * 17 + cols);
      const x = residentX(rand, rows, cols);
      const v = fillRandom(rand, cols).map((e) => e * 2 - 1);
      const one = new Float64Array(rows).fill(Number.NaN);
      const all = new Float64Array(new SharedArrayBuffer(rows * 8)).fill(Number.NaN);
      assert.ok(residentGemv(module, x, rows, cols, v, one, 1));
      assert.ok(residentGemv(module, x, rows, cols, v, all, cores));
      const { value, scale } = gemvReference(x, rows, cols, v);
      assertClose(one, value, scale, `gemv ${rows}x${cols}`, 1e-14);
      assert.deepEqual(Array.from(all), Array.from(one), "threads changed the result");
    });
  }

  test("a chunked call on several threads runs chunks on the workers", { skip: cores < 2 ? "one core: no worker threads" : false }, () => {
    const rand = seeded(7);
    const [rows, cols] = [200_000, 10];
    const x = residentX(rand, rows, cols);
    const v = fillRandom(rand, cols);
    const w = fillRandom(rand, rows);
    const before = mmchainStats.chunksRunByWorkers();
    let ran = 0;
    // A busy machine may leave a call's chunks to the calling thread: some of ten calls reach a worker.
    for (let k = 0; k < 10 && mmchainStats.chunksRunByWorkers() === before; k++) {
      assert.ok(residentMmchain(module, x, rows, cols, v, w, "XtwXv", cores));
      ran++;
    }
    assert.ok(mmchainStats.chunksRunByWorkers() > before, `no chunk ran on a worker in ${ran} calls of ${chunkCount(rows, cols)} chunks`);
  });

  test("declines X outside resident memory, and a v or w too short", () => {
    const rand = seeded(3);
    const plain = fillRandom(rand, 12);
    assert.equal(residentMmchain(module, plain, 4, 3, new Float64Array(3), undefined, "XtXv", 1), undefined);
    const x = residentX(rand, 4, 3);
    assert.equal(residentMmchain(module, x, 4, 3, new Float64Array(2), undefined, "XtXv", 1), undefined);
    assert.equal(residentMmchain(module, x, 4, 3, new Float64Array(3), new Float64Array(3), "XtwXv", 1), undefined);
    assert.deepEqual(Array.from(residentMmchain(module, x, 4, 3, new Float64Array(3), undefined, "XtXv", 1) ?? []), [0, 0, 0]);
  });
});
