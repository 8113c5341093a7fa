/** Rewrite rules: pattern appliers, custom appliers, conditions, both directions, compiled right-hand sides. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { applierVariableIndex, birewrite, compileInstantiate, parsePattern, parseTerm, rewrite, runRewrites, type Condition } from "../../engine/egraph";
import { foldingGraph, plainGraph, type Constant } from "./constant-folding";

test("rewrite parses both sides; a condition is kept only when given", () => {
  const r = rewrite("comm", "(+ ?a ?b)", "(+ ?b ?a)");
  assert.equal(r.name, "comm");
  assert.equal(r.searcher.text, "(+ ?a ?b)");
  assert.equal(typeof r.applier === "function" ? "code" : r.applier.text, "(+ ?b ?a)");
  assert.equal("condition" in r, false);
  assert.equal(typeof rewrite("c", "?a", "?a", () => true).condition, "function");
});

test("birewrite gives one rule per direction", () => {
  const [forward, backward] = birewrite("assoc", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)");
  assert.equal(forward!.name, "assoc");
  assert.equal(backward!.name, "assoc-reverse");
  assert.equal(backward!.searcher.text, "(+ (+ ?a ?b) ?c)");
});

test("applierVariableIndex maps the right side's variables to the left side's, and rejects an unbound one", () => {
  assert.deepEqual(applierVariableIndex(parsePattern("(f ?a ?b ?c)"), parsePattern("(g ?c ?a)")), [2, 0]);
  assert.throws(() => applierVariableIndex(parsePattern("(f ?a)"), parsePattern("(g ?a ?z)")), /\?z of \(g \?a \?z\) is not in \(f \?a\)/);
  assert.throws(() => runRewrites(plainGraph(), [rewrite("bad", "(f ?a)", "(g ?b)")]), /\?b of \(g \?b\) is not in \(f \?a\)/);
});

test("compileInstantiate adds the right-hand side under the bindings, and adds nothing the second time", () => {
  const g = plainGraph();
  const [a, b] = ["a", "b"].map((op) => g.addOp(op, []));
  const build = compileInstantiate<null>(parsePattern("(* ?x (+ ?y ?x))"));
  const id = build(g, [a!, b!]);
  assert.equal(id, g.lookupTerm(parseTerm("(* a (+ b a))")));
  const nodes = g.nodeCount;
  assert.equal(build(g, [a!, b!]), id);
  assert.equal(g.nodeCount, nodes);
  assert.throws(() => build(g, [a!]), /right-hand side variable is not bound by the left-hand side/);
  g.rebuild();
});

test("a pattern rule merges the matched class with its right-hand side", () => {
  const g = plainGraph();
  const t = g.addTerm(parseTerm("(+ x y)"));
  const report = runRewrites(g, [rewrite("comm", "(+ ?a ?b)", "(+ ?b ?a)")], { scheduler: "simple" });
  assert.equal(report.stopReason, "saturated");
  assert.equal(g.find(g.lookupTerm(parseTerm("(+ y x)"))!), g.find(t));
  assert.deepEqual(report.iterations[0]!.applied, { comm: 1 });
});

test("a condition decides per match, seeing the bindings and the analysis data", () => {
  const g = foldingGraph();
  const zeroTimes = g.addTerm(parseTerm("(* x 0)"));
  const oneTimes = g.addTerm(parseTerm("(* x 1)"));
  const yTimes = g.addTerm(parseTerm("(* x y)"));
  const isOne: Condition<Constant> = (egraph, _id, subst) => egraph.data(subst.get("b")) === 1;
  const report = runRewrites(g, [rewrite("mul-one", "(* ?a ?b)", "?a", isOne)], { scheduler: "simple" });
  const x = g.find(g.lookupTerm(parseTerm("x"))!);
  assert.equal(g.find(oneTimes), x);
  assert.notEqual(g.find(zeroTimes), x);
  assert.notEqual(g.find(yTimes), x);
  // Every match counts as applied (the condition is part of applying): 3 matches in each of two iterations, one union in all.
  assert.equal(report.iterations.length, 2);
  assert.equal(report.applied, 6);
  assert.deepEqual(report.iterations.map((i) => i.applied), [{ "mul-one": 1 }, {}]);
});

test("a custom applier returns the classes to merge with the match (here: folding x*2 into x+x)", () => {
  const g = plainGraph();
  const t = g.addTerm(parseTerm("(* (f z) 2)"));
  const double = rewrite<null>("double", "(* ?a 2)", (egraph, _id, subst) => [egraph.addOp("+", [subst.get("a"), subst.get("a")])]);
  runRewrites(g, [double], { scheduler: "simple" });
  assert.equal(g.find(g.lookupTerm(parseTerm("(+ (f z) (f z))"))!), g.find(t));
});

test("a custom applier may return nothing or several classes", () => {
  const g = plainGraph();
  const t = g.addTerm(parseTerm("(pair p q)"));
  const spread = rewrite<null>("spread", "(pair ?a ?b)", (egraph, id, subst) => (egraph.classOf(id).nodes.length > 1 ? [] : [subst.get("a"), subst.get("b")]));
  const report = runRewrites(g, [spread], { scheduler: "simple" });
  assert.equal(g.find(t), g.find(g.lookupTerm(parseTerm("p"))!));
  assert.equal(g.find(t), g.find(g.lookupTerm(parseTerm("q"))!));
  assert.deepEqual(report.iterations[0]!.applied, { spread: 2 });
  assert.equal(report.stopReason, "saturated");
});
