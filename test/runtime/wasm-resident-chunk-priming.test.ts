// The resident kernels' chunk function is primed on the calling thread when
// the first resident array is made (engine/runtime/wasm/
// resident-chunk-priming.ts), with --allow-natives-syntax as our processes
// set it: it is then TurboFan code, stays so through real MMChain and GEMV
// calls on a memory of another instance (shared and unshared w), and their
// values are those of plain loops. Without the flag the priming source
// gives no primer.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { allocateF64 } from "../../engine/runtime/matrix";
import { RESIDENT_MIN_LENGTH, residentMemoryOf, wasmModule } from "../../engine/runtime/wasm";
import { RESIDENT_PRIMING_SOURCE } from "../../engine/runtime/wasm/resident-chunk-priming";
import { residentChunkFunction, residentGemv, residentMmchain } from "../../engine/runtime/wasm/resident-kernels";
import { optimized, primerInFreshProcess } from "../v8-natives";
import { assertClose, fillRandom, gemvReference, mmchainReference, seeded } from "./wasm-test-data";

describe("resident chunk priming", () => {
  test("the first resident array primes the calling thread's chunk function, which stays optimized through real calls", () => {
    const module = wasmModule();
    assert.ok(module, "the WebAssembly kernels did not load");
    assert.equal(optimized(residentChunkFunction()), false, "not primed before a resident array exists");
    const cols = 8;
    const rows = RESIDENT_MIN_LENGTH / cols;
    const x = allocateF64(rows * cols);
    assert.ok(residentMemoryOf(x), "no resident memory");
    assert.equal(optimized(residentChunkFunction()), true, "primed when the first resident array was made");

    const rand = seeded(17);
    fillRandom(rand, x.length, x);
    const v = fillRandom(rand, cols);
    const plainW = fillRandom(rand, rows);
    const sharedW = new Float64Array(new SharedArrayBuffer(rows * 8));
    sharedW.set(plainW);
    const chain = mmchainReference(x, rows, cols, v, plainW, new Float64Array(rows), "XtwXv");
    const xv = gemvReference(x, rows, cols, v);

    // One thread: every chunk on the calling thread, w plain and shared.
    for (const w of [plainW, sharedW]) assertClose(residentMmchain(module, x, rows, cols, v, w, "XtwXv", 1)!, chain.value, chain.scale, "t(X) %*% (w * (X %*% v))", 1e-13);
    const y = new Float64Array(new SharedArrayBuffer(rows * 8));
    assert.equal(residentGemv(module, x, rows, cols, v, y, 1), true);
    assertClose(y, xv.value, xv.scale, "X %*% v", 1e-14);
    assert.equal(optimized(residentChunkFunction()), true, "still optimized after the real calls");
  });

  test("the priming source gives no primer without --allow-natives-syntax", () => {
    const without = primerInFreshProcess(RESIDENT_PRIMING_SOURCE, false);
    assert.equal(without.stdout, "none", without.stderr);
    const withFlag = primerInFreshProcess(RESIDENT_PRIMING_SOURCE, true);
    assert.equal(withFlag.stdout, "function", withFlag.stderr);
  });
});
