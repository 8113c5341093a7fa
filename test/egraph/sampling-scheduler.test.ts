/** SPORES's sampling: a seeded sample of at most N matches per rule and iteration; an exhaustive iteration tells saturation from bad luck. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffScheduler, parseTerm, rewrite, runRewrites, samplingScheduler, SamplingScheduler, schedulerOf, seededRandom, simpleScheduler, type RunOptions } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";
import { fakeSearch } from "./scheduler-fakes";

test("seededRandom: the same seed gives the same numbers in [0, 1), another seed others", () => {
  const a = Array.from({ length: 5 }, seededRandom(7));
  const b = Array.from({ length: 5 }, seededRandom(7));
  const c = Array.from({ length: 5 }, seededRandom(8));
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  for (const x of [...a, ...c]) assert.ok(x >= 0 && x < 1);
});

test("a sampled search visits every candidate once in a seeded order and keeps at most the sample", () => {
  const scheduler = samplingScheduler({ sampleLimit: 4, seed: 3 });
  const rule = fakeSearch(0, 10);
  const matches = scheduler.search(0, rule)!;
  assert.equal(matches.size, 4);
  assert.deepEqual(rule.limits, [4]);
  const order = rule.orders[0]!;
  // The search stops past the sample (5 candidates seen); the order is a permutation, not the candidates' order.
  assert.equal(order.length, 5);
  assert.equal(new Set(order).size, 5);
  assert.notDeepEqual(order, [0, 1, 2, 3, 4]);
  // The sample is in the order the matches were found.
  const roots = Array.from(matches.roots.subarray(0, matches.size));
  assert.deepEqual(roots, order.filter((id) => roots.includes(id)));
  const again = samplingScheduler({ sampleLimit: 4, seed: 3 });
  const same = fakeSearch(0, 10);
  assert.deepEqual(Array.from(again.search(0, same)!.roots.subarray(0, 4)), roots);
});

test("a rule with no more matches than the sample is applied whole, and that is no reason to search again", () => {
  const scheduler = samplingScheduler({ sampleLimit: 4 });
  assert.equal(scheduler.search(0, fakeSearch(0, 3))!.size, 3);
  assert.equal(scheduler.canStop(0), true);
});

test("canStop after a sample left matches out: not yet; the next iteration searches every candidate and applies every match", () => {
  const scheduler = samplingScheduler({ sampleLimit: 2 });
  scheduler.search(0, fakeSearch(0, 6));
  assert.equal(scheduler.canStop(0), false);
  const exhaustive = fakeSearch(0, 6);
  assert.equal(scheduler.search(1, exhaustive)!.size, 6);
  assert.deepEqual(exhaustive.limits, [Infinity]);
  assert.deepEqual(exhaustive.orders[0], [0, 1, 2, 3, 4, 5]);
  assert.equal(scheduler.canStop(1), true, "the exhaustive iteration changed nothing: saturated");
  // An iteration that changed something (canStop not asked) ends the exhaustive search.
  const later = fakeSearch(0, 6);
  scheduler.search(2, later);
  assert.deepEqual(later.limits, [2]);
});

test("around backoff: the inner scheduler's bans hold in sampled iterations, and its limit bounds the sampled search", () => {
  const scheduler = samplingScheduler({ sampleLimit: 50, seed: 1 }, backoffScheduler({ matchLimit: 3, banLength: 2 }));
  const rule = fakeSearch(0, 10);
  assert.equal(scheduler.search(0, rule), undefined, "more than 3 matches: banned");
  assert.deepEqual(rule.limits, [3]);
  assert.equal(scheduler.search(1, rule), undefined, "still banned");
  assert.deepEqual(rule.limits, [3]);
  assert.equal(scheduler.canStop(1), false);
  // Exhaustive iteration 2: backoff searches in candidate order with limit 6; 10 > 6: banned again.
  assert.equal(scheduler.search(2, rule), undefined);
  assert.deepEqual(rule.limits, [3, 6]);
  assert.deepEqual(rule.orders[1], [0, 1, 2, 3, 4, 5, 6]);
});

test("schedulerOf: a sample limit wraps the named scheduler; a Scheduler object is used as given", () => {
  assert.ok(schedulerOf({ matchSampleLimit: 5 }) instanceof SamplingScheduler);
  assert.ok(schedulerOf({ matchSampleLimit: 5, scheduler: "simple" }) instanceof SamplingScheduler);
  const own = simpleScheduler();
  assert.equal(schedulerOf({ scheduler: own, matchSampleLimit: 5 }), own);
  assert.throws(() => samplingScheduler({ sampleLimit: -1 }), /sample limit must be a count >= 0, got -1/);
  assert.throws(() => samplingScheduler({ sampleLimit: Number.NaN }), /got NaN/);
});

/** 20 sums under commutativity with a sample of 3 per iteration. */
function sampledRun(options: RunOptions) {
  const g = plainGraph();
  for (let k = 0; k < 20; k++) g.addTerm(parseTerm(`(+ x${k} y${k})`));
  const report = runRewrites(g, [rewrite<null>("comm", "(+ ?a ?b)", "(+ ?b ?a)")], { iterationLimit: 100, ...options });
  return { g, report };
}

test("in a run: at most the sample per rule and iteration, the same run for the same seed, saturation confirmed by an exhaustive search", () => {
  const { g, report } = sampledRun({ matchSampleLimit: 3, seed: 5, scheduler: "simple" });
  assert.equal(report.stopReason, "saturated");
  // Sampled iterations apply at most 3; an exhaustive one (after an iteration that changed nothing) applies every match.
  const applied = report.iterations.map((i) => i.applied.comm ?? 0);
  assert.equal(applied[0], 3);
  for (const [k, count] of applied.entries()) {
    const exhaustive = k > 0 && report.iterations[k - 1]!.nodes === (report.iterations[k - 2]?.nodes ?? 60);
    if (!exhaustive) assert.ok(count <= 3, `iteration ${k} applied ${count}`);
  }
  // Every sum got its mirror, as without sampling.
  assert.deepEqual([g.nodeCount, g.classCount], [80, 60]);
  const again = sampledRun({ matchSampleLimit: 3, seed: 5, scheduler: "simple" });
  assert.deepEqual(
    again.report.iterations.map((i) => [i.nodes, i.applied]),
    report.iterations.map((i) => [i.nodes, i.applied]),
  );
  // The last iterations: nothing changed in a sampled one, then the exhaustive one found nothing either.
  const last = report.iterations.slice(-2).map((i) => i.nodes);
  assert.deepEqual(last, [80, 80]);
});

test("in a run: a different seed samples different matches", () => {
  const mirrored = (seed: number) => {
    const { g } = sampledRun({ matchSampleLimit: 3, seed, scheduler: "simple", iterationLimit: 1 });
    return Array.from({ length: 20 }, (_, k) => g.lookupTerm(parseTerm(`(+ y${k} x${k})`)) !== undefined);
  };
  assert.deepEqual(mirrored(1), mirrored(1));
  assert.notDeepEqual(mirrored(1), mirrored(2));
  assert.equal(mirrored(2).filter(Boolean).length, 3);
});
