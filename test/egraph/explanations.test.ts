/** Explanations: the unions that prove two terms equal, as rule steps and as flat whole-term steps. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm, printTerm, rewrite, runRewrites, type FlatExplanationStep, type Term } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";

const rules = [rewrite<null>("mul2", "(* ?a 2)", "(+ ?a ?a)"), rewrite<null>("add0", "(+ ?a 0)", "?a")];

/**
 * (f (+ (* x 2) 0)) and (f (+ x x)), both added before the rules run: the
 * rules join their children, and rebuild joins the two f nodes by
 * congruence. (A term added after the run whose nodes already exist
 * canonically is the existing node: explanations name nodes as added.)
 */
function explained() {
  const g = plainGraph({ explanations: true });
  const start = g.addTerm(parseTerm("(f (+ (* x 2) 0))"));
  const target = g.addTerm(parseTerm("(f (+ x x))"));
  runRewrites(g, rules, { scheduler: "simple" });
  return { g, start, target };
}

const flat = (steps: FlatExplanationStep[]) => steps.map((s) => `${s.rule}: ${printTerm(s.before)} => ${printTerm(s.after)}`);

test("explain gives the rule steps between two equal terms", () => {
  const { g } = explained();
  const steps = g.explain(parseTerm("(+ (* x 2) 0)"), parseTerm("(+ x x)"))!;
  assert.deepEqual(steps, [
    { rule: "add0", left: "(+ (* x 2) 0)", right: "(* x 2)" },
    { rule: "mul2", left: "(* x 2)", right: "(+ x x)" },
  ]);
  assert.deepEqual(g.explain(parseTerm("(+ x x)"), parseTerm("(+ (* x 2) 0)")), [
    { rule: "mul2", left: "(+ x x)", right: "(* x 2)" },
    { rule: "add0", left: "(* x 2)", right: "(+ (* x 2) 0)" },
  ]);
});

test("a congruence step is explained by the steps inside it", () => {
  const { g, start, target } = explained();
  assert.equal(g.find(target), g.find(start));
  assert.deepEqual(g.explain(start, target), [
    { rule: "add0", left: "(+ (* x 2) 0)", right: "(* x 2)" },
    { rule: "mul2", left: "(* x 2)", right: "(+ x x)" },
  ]);
});

test("explain takes class ids, terms or e-nodes, and gives null for terms that are not equal", () => {
  const { g } = explained();
  const x = g.lookupTerm(parseTerm("x"))!;
  // A class id stands for the node it was created with: nodeId gives the id of (* x 2) itself.
  const times = g.nodeId({ op: "*", children: [x, g.lookupTerm(parseTerm("2"))!] })!;
  const sum = g.lookupTerm(parseTerm("(+ x x)"))!;
  assert.deepEqual(g.explain(times, { op: "+", children: [x, x] }), [{ rule: "mul2", left: "(* x 2)", right: "(+ x x)" }]);
  assert.deepEqual(g.explain(times, times), []);
  assert.equal(g.explain(x, sum), null);
  assert.equal(g.explain(parseTerm("(g x)"), parseTerm("x")), null);
});

test("explanations are off unless asked for", () => {
  const g = plainGraph();
  const a = g.addTerm(parseTerm("a"));
  assert.throws(() => g.explain(a, a), /explanations are off: create the e-graph with \{ explanations: true \}/);
  assert.throws(() => g.explainFlat(a, a), /explanations are off/);
});

test("explainFlat: whole terms, one union per step, each step's result the next one's start", () => {
  const { g, start, target } = explained();
  const steps = g.explainFlat(start, target)!;
  assert.deepEqual(flat(steps), ["add0: (f (+ (* x 2) 0)) => (f (* x 2))", "mul2: (f (* x 2)) => (f (+ x x))"]);
  assertChain(steps, parseTerm("(f (+ (* x 2) 0))"), parseTerm("(f (+ x x))"));
  assert.equal(g.explainFlat(start, g.lookupTerm(parseTerm("x"))!), null);
});

test("explainFlat through two children changes one child at a time", () => {
  const g = plainGraph({ explanations: true });
  const start = g.addTerm(parseTerm("(pair (* a 2) (+ b 0))"));
  const target = g.addTerm(parseTerm("(pair (+ a a) b)"));
  runRewrites(g, rules, { scheduler: "simple" });
  const steps = g.explainFlat(start, target)!;
  assert.deepEqual(flat(steps), ["mul2: (pair (* a 2) (+ b 0)) => (pair (+ a a) (+ b 0))", "add0: (pair (+ a a) (+ b 0)) => (pair (+ a a) b)"]);
  assertChain(steps, parseTerm("(pair (* a 2) (+ b 0))"), parseTerm("(pair (+ a a) b)"));
  // Out of steps: the rest stays one congruence step (still true, less detailed).
  const short = g.explainFlat(start, target, { maxSteps: 1 })!;
  assert.deepEqual(flat(short), ["mul2: (pair (* a 2) (+ b 0)) => (pair (+ a a) (+ b 0))", "congruence: (pair (+ a a) (+ b 0)) => (pair (+ a a) b)"]);
});

test("a projection shows a rule that looked inside a child as the steps to that child's form, then the rule", () => {
  const g = plainGraph({ explanations: true });
  const c = g.addTerm(parseTerm("c"));
  const get = g.addTerm(parseTerm("(get i c)"));
  g.union(c, g.addTerm(parseTerm("(put i v)")), "define c");
  g.rebuild();
  runRewrites(g, [rewrite<null>("get-put", "(get ?i (put ?i ?r))", "?r")], { scheduler: "simple" });
  const v = g.lookupTerm(parseTerm("v"))!;
  assert.equal(g.find(get), g.find(v));
  // The rule's match was (get i c): without a projection the step jumps from (get i c) to v.
  assert.deepEqual(flat(g.explainFlat(get, v)!), ["get-put: (get i c) => v"]);
  // get-put saw, in the class of child 1 (c), the node (put i v) with v at its child 1.
  const projections = new Map([["get-put", { child: 1, innerChild: 1 }]]);
  assert.deepEqual(flat(g.explainFlat(get, v, { projections })!), ["define c: (get i c) => (get i (put i v))", "get-put: (get i (put i v)) => v"]);
  assert.deepEqual(flat(g.explainFlat(v, get, { projections })!), ["get-put: v => (get i (put i v))", "define c: (get i (put i v)) => (get i c)"]);
});

function assertChain(steps: FlatExplanationStep[], from: Term, to: Term): void {
  assert.equal(printTerm(steps[0]!.before), printTerm(from));
  for (let k = 1; k < steps.length; k++) assert.equal(printTerm(steps[k]!.before), printTerm(steps[k - 1]!.after), `step ${k} starts where step ${k - 1} ended`);
  assert.equal(printTerm(steps[steps.length - 1]!.after), printTerm(to));
}
