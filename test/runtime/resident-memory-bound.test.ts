// Resident WebAssembly memories are bounded in number: past the bound a
// large array is an ordinary shared one (each memory reserves gigabytes of
// address space, and V8 collects garbage before every new memory once it
// cannot reserve more), and in bytes.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import "../../engine/runtime/wasm";
import { allocateResidentF64, liveResidentMemories, MAX_LIVE_RESIDENT_BYTES, MAX_LIVE_RESIDENT_MEMORIES, residentMemoryOf } from "../../engine/runtime/wasm/resident-memory";

describe("resident memory bound", () => {
  test(`at most ${MAX_LIVE_RESIDENT_MEMORIES} resident memories live at once`, () => {
    const held: Float64Array[] = [];
    while (liveResidentMemories() < MAX_LIVE_RESIDENT_MEMORIES) {
      const a = allocateResidentF64(1024);
      assert.ok(a, `a resident memory could not be made with ${liveResidentMemories()} live`);
      assert.ok(residentMemoryOf(a));
      held.push(a);
    }
    assert.equal(allocateResidentF64(1024), undefined, "past the bound no resident memory is made");
    assert.equal(liveResidentMemories(), MAX_LIVE_RESIDENT_MEMORIES);
    assert.ok(held.every((a) => a.length === 1024 && a.every((v) => v === 0)));
  });

  test("an array larger than the byte bound is not resident", () => {
    assert.equal(allocateResidentF64(MAX_LIVE_RESIDENT_BYTES / 8 + 1), undefined);
  });
});
