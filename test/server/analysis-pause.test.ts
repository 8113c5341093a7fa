// The pause before a full analysis (server/src/analysis-pause.ts).
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { analysisPause, MAX_PAUSE_MS } from "../../server/src/analysis-pause";

test("a fast document edited after a quiet spell is analyzed at once; within a burst it waits the shortest pause", () => {
  assert.equal(analysisPause([30, 25, 40], 500, 50), 0);
  assert.equal(analysisPause([30, 25, 40], 10, 50), 50);
  assert.equal(analysisPause([30, 25, 40], 50, 50), 0, "exactly the pause since the last change is quiet");
});

test("a slow document waits as long as its fastest recent analysis, at most the cap, quiet or not", () => {
  assert.equal(analysisPause([90, 120, 300], 10_000, 50), 90);
  assert.equal(analysisPause([900, 1200], 10, 50), MAX_PAUSE_MS);
  assert.equal(analysisPause([90, 30], 10, 50), 50, "one fast run brings the pause back down");
});

test("before any edit was analyzed (only the cold first analysis ran), the shortest pause, never at once", () => {
  assert.equal(analysisPause([], 10_000, 50), 50);
  assert.equal(analysisPause([], 0, 80), 80);
});
