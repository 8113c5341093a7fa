/**
 * document-schedule.ts with a fake clock: when a document's analysis, syntax
 * check and optimization run after its changes.
 */
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { MAX_PAUSE_MS } from "../../server/src/analysis-pause";
import { DocumentSchedule, type ScheduleDelays } from "../../server/src/document-schedule";
import { FakeClock } from "./fake-clock";

const delays: ScheduleDelays = { analysisDelayMs: 50, syntaxWindowMs: 15 };

/** A fake clock with no messages to wait for: a deferred task runs at once (when its timer fires). */
class NoMessagesClock extends FakeClock {
  override afterReceivedMessages(task: () => void): void {
    task();
  }
}

/** A schedule whose tasks write what ran, and when, into `ran`. */
function scheduled() {
  const clock = new NoMessagesClock();
  const schedule = new DocumentSchedule(clock);
  const ran: string[] = [];
  const tasks = { analyze: () => ran.push(`analyze@${clock.now()}`), quickCheck: () => ran.push(`quick@${clock.now()}`) };
  const advance = (ms: number) => clock.advance(ms);
  return { clock, schedule, ran, tasks, advance };
}

test("the first change is analyzed at once, without a syntax check", () => {
  const { schedule, ran, tasks, advance } = scheduled();
  schedule.changed(true, delays, tasks);
  advance(0);
  assert.deepEqual(ran, ["analyze@0"]);
  advance(1000);
  assert.deepEqual(ran, ["analyze@0"]);
});

test("the analysis runs behind the messages already received, not when its timer fires", () => {
  const clock = new FakeClock();
  const ran: string[] = [];
  new DocumentSchedule(clock).changed(true, delays, { analyze: () => ran.push("analyze"), quickCheck: () => ran.push("quick") });
  clock.advance(0);
  assert.deepEqual(ran, []);
  assert.equal(clock.runDeferred(), 1);
  assert.deepEqual(ran, ["analyze"]);
});

test("a burst of changes: one analysis after the pause that follows the last; one syntax check per window", () => {
  const { schedule, ran, tasks, advance } = scheduled();
  schedule.changed(true, delays, tasks);
  advance(100);
  ran.length = 0;
  for (let k = 0; k < 6; k++) {
    schedule.changed(false, delays, tasks);
    advance(10);
  }
  advance(1000);
  // Changes at 100..150; windows from 100 (check at 115), 120 (135), 140 (155); the analysis 50 ms after the last change.
  assert.deepEqual(ran, ["quick@115", "quick@135", "quick@155", "analyze@200"]);
});

test("a slow document waits as long as its analyses take (at most MAX_PAUSE_MS); a fast one after a quiet spell not at all", () => {
  const slow = scheduled();
  slow.schedule.analyzed(120);
  slow.schedule.analyzed(90);
  slow.schedule.changed(false, delays, slow.tasks);
  slow.advance(1000);
  assert.deepEqual(slow.ran.filter((r) => r.startsWith("analyze")), ["analyze@90"], "the least of the recent analyses");
  slow.schedule.analyzed(5000);
  slow.schedule.analyzed(5000);
  slow.schedule.analyzed(5000);
  slow.schedule.changed(false, delays, slow.tasks);
  slow.advance(1000);
  assert.deepEqual(slow.ran.filter((r) => r.startsWith("analyze")), ["analyze@90", `analyze@${1000 + MAX_PAUSE_MS}`], "the oldest durations are forgotten; the pause is bounded");
  const fast = scheduled();
  fast.schedule.analyzed(5);
  fast.schedule.changed(false, delays, fast.tasks);
  fast.advance(0);
  assert.deepEqual(fast.ran, ["analyze@0"]);
  fast.schedule.changed(false, delays, fast.tasks); // right after: not a quiet spell
  fast.advance(1000);
  assert.deepEqual(fast.ran, ["analyze@0", "quick@15", "analyze@50"]);
});

test("an optimization starts after its pause unless a change, a newer optimization or close comes first", () => {
  const { clock, schedule, ran, tasks, advance } = scheduled();
  schedule.optimizeAfter(250, () => ran.push(`optimize@${clock.now()}`));
  advance(249);
  schedule.optimizeAfter(250, () => ran.push(`optimize again@${clock.now()}`));
  advance(1000);
  assert.deepEqual(ran, ["optimize again@499"]);
  ran.length = 0;
  schedule.optimizeAfter(250, () => ran.push("optimize"));
  schedule.changed(false, delays, tasks);
  advance(1000);
  assert.ok(!ran.includes("optimize"), ran.join());
  ran.length = 0;
  schedule.optimizeAfter(250, () => ran.push("optimize"));
  schedule.changed(false, delays, tasks);
  schedule.cancelAll();
  assert.equal(clock.pendingTimers, 0);
  advance(1000);
  assert.deepEqual(ran, []);
});
