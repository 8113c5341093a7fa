/** egg's backoff scheduler: a rule past its match limit sits out a ban; limit and ban double with each ban. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffScheduler, BackoffScheduler, parseTerm, rewrite, runRewrites, schedulerOf } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";
import { fakeSearch } from "./scheduler-fakes";

test("a rule past its match limit is banned; the limit and the ban double with each ban", () => {
  const scheduler = backoffScheduler({ matchLimit: 2, banLength: 3 });
  const rule = fakeSearch(0, 5);
  assert.equal(scheduler.search(0, rule), undefined);
  assert.deepEqual(rule.limits, [2]);
  assert.equal(scheduler.timesBanned(0), 1);
  assert.deepEqual([1, 2, 3].map((i) => scheduler.isBanned(0, i)), [true, true, false]);
  assert.equal(scheduler.search(1, rule), undefined, "banned: not searched");
  assert.deepEqual(rule.limits, [2]);
  // Iteration 3: limit 4, still too many: banned for 6 iterations.
  assert.equal(scheduler.search(3, rule), undefined);
  assert.deepEqual(rule.limits, [2, 4]);
  assert.deepEqual([8, 9].map((i) => scheduler.isBanned(0, i)), [true, false]);
  // Iteration 9: limit 8, 5 matches: applied.
  assert.equal(scheduler.search(9, rule)!.size, 5);
  assert.equal(scheduler.timesBanned(0), 2);
});

test("rules keep their own state", () => {
  const scheduler = backoffScheduler({ matchLimit: 3 });
  const many = fakeSearch(0, 10);
  const few = fakeSearch(1, 2);
  assert.equal(scheduler.search(0, many), undefined);
  assert.equal(scheduler.search(0, few)!.size, 2);
  assert.deepEqual([scheduler.timesBanned(0), scheduler.timesBanned(1)], [1, 0]);
  assert.equal(scheduler.isBanned(1, 1), false);
});

test("canStop: an iteration with a rule sitting out is not saturation, and the ban is lifted for the next", () => {
  const scheduler = backoffScheduler({ matchLimit: 1, banLength: 10 });
  const rule = fakeSearch(0, 4);
  scheduler.search(0, rule);
  assert.equal(scheduler.isBanned(0, 5), true);
  assert.equal(scheduler.canStop(0), false);
  assert.equal(scheduler.isBanned(0, 1), false);
  // Iteration 1 searches it again (limit 2 now) and bans it again: still no stop.
  assert.equal(scheduler.search(1, rule), undefined);
  assert.equal(scheduler.canStop(1), false);
  assert.equal(scheduler.search(2, fakeSearch(0, 0))!.size, 0);
  assert.equal(scheduler.canStop(2), true);
});

test("defaults are egg's: match limit 1000, first ban 5 iterations", () => {
  const scheduler = backoffScheduler();
  const rule = fakeSearch(0, 1001);
  assert.equal(scheduler.search(0, rule), undefined);
  assert.deepEqual(rule.limits, [1000]);
  assert.deepEqual([4, 5].map((i) => scheduler.isBanned(0, i)), [true, false]);
  assert.ok(schedulerOf({}) instanceof BackoffScheduler);
});

test("in a run: commutativity on 30 sums is banned first, let back in, and saturates to the graph the simple scheduler gives", () => {
  const build = () => {
    const g = plainGraph();
    for (let k = 0; k < 30; k++) g.addTerm(parseTerm(`(+ x${k} y${k})`));
    return g;
  };
  const comm = rewrite<null>("comm", "(+ ?a ?b)", "(+ ?b ?a)");
  const backoff = build();
  const report = runRewrites(backoff, [comm], { backoffMatchLimit: 10, backoffBanLength: 2 });
  assert.equal(report.stopReason, "saturated");
  // Iteration 0: 30 > 10 matches, banned (nothing changes, the ban is lifted); 1: 30 > 20, banned again; 2: 30 <= 40, applied;
  // 3: 60 matches (both orders) > 40, banned; 4: 60 <= 80, searched, nothing new: saturated.
  assert.deepEqual(report.iterations.map((i) => i.applied.comm ?? 0), [0, 0, 30, 0, 0]);
  assert.equal(report.applied, 30 + 60);
  const simple = build();
  runRewrites(simple, [comm], { scheduler: "simple" });
  assert.deepEqual([backoff.nodeCount, backoff.classCount], [simple.nodeCount, simple.classCount]);
});
