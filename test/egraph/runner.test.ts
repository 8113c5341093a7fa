/**
 * The runner: iterations of search, apply, rebuild, bounded by counts
 * (iterations, e-nodes, matches applied) with a time safety net, each stop
 * named in the report. The graphs check their invariants after every
 * rebuild, so a run that stops mid-iteration leaves a valid graph.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_TIME_SAFETY_NET_MS, parseTerm, processCpuMs, rewrite, runRewrites, type RunOptions } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";

/** A rule that never saturates: every (f a) gets a new (f (g a)) class. */
const grow = rewrite<null>("grow", "(f ?a)", "(f (g ?a))");
const comm = rewrite<null>("comm", "(+ ?a ?b)", "(+ ?b ?a)");

function sums(count: number) {
  const g = plainGraph();
  for (let k = 0; k < count; k++) g.addTerm(parseTerm(`(+ x${k} y${k})`));
  return g;
}

test("saturation: the iteration that changes nothing ends the run", () => {
  const g = sums(3);
  const report = runRewrites(g, [comm]);
  assert.equal(report.stopReason, "saturated");
  assert.deepEqual(
    report.iterations.map((i) => [i.nodes, i.classes, i.applied]),
    [
      [12, 9, { comm: 3 }],
      [12, 9, {}],
    ],
  );
  // 3 matches, then 6 (each class holds both orders).
  assert.equal(report.applied, 9);
  assert.deepEqual([report.nodes, report.classes], [12, 9]);
  assert.equal(report.safetyNet, undefined);
});

test("iterationLimit: a growing rule runs exactly that many iterations", () => {
  const g = plainGraph();
  g.addTerm(parseTerm("(f a)"));
  const report = runRewrites(g, [grow], { iterationLimit: 4 });
  assert.equal(report.stopReason, "iterationLimit");
  assert.equal(report.iterations.length, 4);
  // Each iteration: one new (g ...) and one new (f (g ...)) per (f ...) class (there is one: the class grows).
  assert.deepEqual(report.iterations.map((i) => i.nodes), [4, 6, 8, 10]);
});

test("nodeLimit: checked after every application, so the graph stops just past it", () => {
  const g = sums(50);
  const report = runRewrites(g, [rewrite<null>("wrap", "(+ ?a ?b)", "(+ (h ?b) ?a)")], { nodeLimit: 160 });
  assert.equal(report.stopReason, "nodeLimit");
  assert.ok(report.nodes > 160 && report.nodes <= 162, `stopped at ${report.nodes} nodes`);
  assert.equal(report.iterations.length, 1);
  assert.equal(report.iterations[0]!.applied.wrap, (161 - 150 + 1) / 2);
});

test("applyLimit: matches applied over the run, across iterations", () => {
  const g = sums(4);
  const report = runRewrites(g, [comm, rewrite<null>("wrap", "(+ ?a ?b)", "(w ?a ?b)")], { applyLimit: 6 });
  assert.equal(report.stopReason, "applyLimit");
  assert.equal(report.applied, 6);
  assert.deepEqual(report.iterations[0]!.applied, { comm: 4, wrap: 2 });
});

test("applyLimit: the last iteration searches no rule past the matches it may still apply, and applies what a full search would", () => {
  const rules = [comm, rewrite<null>("wrap", "(+ ?a ?b)", "(w ?a ?b)"), rewrite<null>("pair", "(+ ?a ?b)", "(p ?a ?b)")];
  // Every match of each rule: the scheduler sees which rules the runner searched.
  const searchedRules = (applyLimit: number) => {
    const searched: string[][] = [];
    const scheduler = {
      search(iteration: number, rule: { name: string; matches(): import("../../engine/egraph").MatchList }) {
        (searched[iteration] ??= []).push(rule.name);
        return rule.matches();
      },
      canStop: () => true,
    };
    const g = sums(4);
    const report = runRewrites(g, rules, { applyLimit, scheduler });
    return { searched, report, graph: [g.nodeCount, g.classCount] };
  };
  // 4 matches per rule in the first iteration. A limit of 6 is passed within "wrap": "pair" is not searched.
  const six = searchedRules(6);
  assert.deepEqual(six.searched, [["comm", "wrap"]]);
  assert.equal(six.report.stopReason, "applyLimit");
  assert.deepEqual(six.report.iterations[0]!.applied, { comm: 4, wrap: 2 });
  assert.deepEqual(six.graph, [18, 12]);
  // A limit of exactly 8 matches is not passed by comm and wrap: pair is searched (its first match is where the run stops), as before.
  const eight = searchedRules(8);
  assert.deepEqual(eight.searched, [["comm", "wrap", "pair"]]);
  assert.equal(eight.report.stopReason, "applyLimit");
  assert.deepEqual(eight.report.iterations[0]!.applied, { comm: 4, wrap: 4 });
  // Without a limit, every rule is searched in every iteration.
  const all = searchedRules(Infinity);
  assert.ok(all.searched.every((names) => names.length === 3));
  assert.equal(all.report.stopReason, "saturated");
});

test("the time safety net: a fake clock past the deadline stops the run and the report says when", () => {
  let now = 0;
  const options: RunOptions = { timeLimitMs: 250, clock: () => (now += 100), iterationLimit: 100 };
  const g = plainGraph();
  g.addTerm(parseTerm("(f a)"));
  const report = runRewrites(g, [grow], options);
  assert.equal(report.stopReason, "timeLimit");
  assert.equal(report.safetyNet!.limitMs, 250);
  assert.ok(report.safetyNet!.ms > 250, `ms ${report.safetyNet!.ms}`);
  assert.ok(report.iterations.length < 3);
});

test("the safety net firing mid-search applies nothing of that iteration", () => {
  let calls = 0;
  const g = sums(3);
  const nodes = g.nodeCount;
  // The clock jumps past the deadline at the first check in the search.
  const report = runRewrites(g, [comm], { timeLimitMs: 10, clock: () => (calls++ === 0 ? 0 : 1000) });
  assert.equal(report.stopReason, "timeLimit");
  assert.equal(report.iterations.length, 0);
  assert.equal(g.nodeCount, nodes);
  assert.deepEqual(report.safetyNet, { limitMs: 10, ms: 1000 });
});

test("cancelled: shouldStop ends the run after the iteration's matches found so far are applied", () => {
  const g = sums(3);
  let asked = 0;
  const report = runRewrites(g, [comm, rewrite<null>("wrap", "(+ ?a ?b)", "(w ?a ?b)")], { shouldStop: () => ++asked > 0 });
  assert.equal(report.stopReason, "cancelled");
  assert.equal(report.iterations.length, 1);
  // The search stopped after the first rule: only its matches were applied.
  assert.deepEqual(report.iterations[0]!.applied, { comm: 3 });
  assert.equal(report.safetyNet, undefined);
});

test("a run on a graph with unions pending rebuilds first (the first search sees congruence)", () => {
  const g = plainGraph();
  const fa = g.addTerm(parseTerm("(f a)"));
  const fb = g.addTerm(parseTerm("(f b)"));
  g.union(g.lookupTerm(parseTerm("a"))!, g.lookupTerm(parseTerm("b"))!);
  const report = runRewrites(g, [rewrite<null>("unwrap", "(f ?x)", "?x")]);
  assert.equal(report.stopReason, "saturated");
  assert.deepEqual(report.iterations[0]!.applied, { unwrap: 1 });
  assert.equal(g.find(fa), g.find(fb));
  assert.equal(g.classCount, 1);
});

test("iterationLimit 0 searches nothing", () => {
  const g = sums(1);
  const report = runRewrites(g, [comm], { iterationLimit: 0 });
  assert.equal(report.stopReason, "iterationLimit");
  assert.equal(report.iterations.length, 0);
  assert.equal(report.applied, 0);
});

test("the safety net's default: DEFAULT_TIME_SAFETY_NET_MS on this process's CPU time (processCpuMs grows with work)", () => {
  let now = 0;
  const g = plainGraph();
  g.addTerm(parseTerm("(f a)"));
  const report = runRewrites(g, [grow], { clock: () => (now += DEFAULT_TIME_SAFETY_NET_MS / 2) });
  assert.equal(report.stopReason, "timeLimit");
  assert.equal(report.safetyNet!.limitMs, DEFAULT_TIME_SAFETY_NET_MS);
  const before = processCpuMs();
  let spin = 0;
  for (let k = 0; k < 2_000_000; k++) spin += Math.sqrt(k);
  assert.ok(spin > 0);
  assert.ok(processCpuMs() > before);
});
