// The resident kernels' worker threads start when the first resident array
// is made (engine/runtime/wasm/index.ts, startResidentPool), not at the
// first kernel call, which would otherwise run on the calling thread alone
// while they start; an ordinary array starts nothing.
import { strict as assert } from "node:assert";
import os from "node:os";
import { describe, test } from "node:test";
import { allocateF64 } from "../../engine/runtime/matrix";
import { RESIDENT_MIN_LENGTH, residentMemoryOf, wasmModule } from "../../engine/runtime/wasm";
import { residentPoolStarted, whenResidentPoolReady } from "../../engine/runtime/wasm/resident-kernels";

const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;

describe("resident pool start", () => {
  test("the first resident array starts the pool; smaller arrays do not", async () => {
    const module = wasmModule();
    assert.ok(module, "the WebAssembly kernels did not load");
    const small = allocateF64(RESIDENT_MIN_LENGTH - 1);
    assert.equal(residentMemoryOf(small), undefined);
    assert.equal(residentPoolStarted(module), false);
    const large = allocateF64(RESIDENT_MIN_LENGTH);
    assert.ok(residentMemoryOf(large), "a large array is resident");
    assert.equal(residentPoolStarted(module), cores > 1);
    await whenResidentPoolReady(module, cores - 1);
  });
});
