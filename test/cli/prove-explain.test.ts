// The flat explanations behind `dml prove` (engine/egraph/explain.ts): whole
// terms from one side to the other, a congruence replaced by its children's
// steps in context, a projection union (unbind) shown through the node it
// projects, and the step bound.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { EGraph, parseTerm, printTerm, type Analysis, type FlatExplanationStep } from "../../engine/egraph";

const none: Analysis<undefined> = { make: () => undefined, merge: () => ({ data: undefined, changedA: false, changedB: false }) };

function graph() {
  return new EGraph<undefined>(none, { explanations: true });
}

const text = (steps: readonly FlatExplanationStep[]) => steps.map((s) => `${printTerm(s.before)} -> ${printTerm(s.after)} [${s.rule}]`);

function assertChained(steps: readonly FlatExplanationStep[], first: string, last: string) {
  assert.equal(printTerm(steps[0]!.before), first);
  assert.equal(printTerm(steps.at(-1)!.after), last);
  for (let k = 1; k < steps.length; k++) assert.deepEqual(steps[k]!.before, steps[k - 1]!.after);
}

test("a congruence is explained by its children's steps, each as a whole term", () => {
  const g = graph();
  const left = g.addTerm(parseTerm("(f (g a) b)"));
  const right = g.addTerm(parseTerm("(f (g c) d)"));
  g.union(g.addTerm(parseTerm("a")), g.addTerm(parseTerm("c")), "a-is-c");
  g.union(g.addTerm(parseTerm("b")), g.addTerm(parseTerm("d")), "b-is-d");
  g.rebuild();
  const steps = g.explainFlat(left, right)!;
  assert.deepEqual(text(steps), ["(f (g a) b) -> (f (g c) b) [a-is-c]", "(f (g c) b) -> (f (g c) d) [b-is-d]"]);
  assertChained(steps, "(f (g a) b)", "(f (g c) d)");
});

test("rule steps in a chain keep their order and direction", () => {
  const g = graph();
  const x = g.addTerm(parseTerm("(+ x y)"));
  const y = g.addTerm(parseTerm("(+ y x)"));
  const z = g.addTerm(parseTerm("(* (+ y x) 1)"));
  g.union(x, y, "commute");
  g.union(z, y, "times-one");
  g.rebuild();
  assert.deepEqual(text(g.explainFlat(x, z)!), ["(+ x y) -> (+ y x) [commute]", "(+ y x) -> (* (+ y x) 1) [times-one]"]);
  assert.deepEqual(text(g.explainFlat(z, x)!), ["(* (+ y x) 1) -> (+ y x) [times-one]", "(+ y x) -> (+ x y) [commute]"]);
  assert.equal(g.explainFlat(x, g.addTerm(parseTerm("q"))), null);
});

test("a projection union shows the node it projects: unbind(c) = r because c's class holds (b i r)", () => {
  const g = graph();
  const r = g.addTerm(parseTerm("r"));
  const s = g.addTerm(parseTerm("s"));
  const bindS = g.addTerm(parseTerm("(b i s)"));
  const bindR = g.addTerm(parseTerm("(b i r)"));
  g.union(bindS, bindR, "relational-identity");
  g.rebuild();
  const unbind = g.addTerm({ op: "ub", children: [parseTerm("i"), { op: "b", children: [parseTerm("i"), parseTerm("s")] }] });
  g.union(unbind, s, "unbind");
  g.rebuild();
  // The same fact learned again about r, through the bind class (the union-find root may be either node).
  g.union(unbind, r, "unbind");
  g.rebuild();
  const plain = g.explainFlat(s, r)!;
  const projected = g.explainFlat(s, r, { projections: new Map([["unbind", { child: 1, innerChild: 1 }]]) })!;
  assertChained(projected, "s", "r");
  assert.ok(projected.some((step) => step.rule === "relational-identity"), text(projected).join("\n"));
  assert.ok(plain.every((step) => step.rule === "unbind"), "without the projection, the bind class's identity is hidden");
});

test("the step bound keeps long explanations short, and still chained", () => {
  const g = graph();
  let term = "a0";
  const leaves: number[] = [];
  for (let k = 0; k < 30; k++) {
    leaves.push(g.addTerm(parseTerm(`a${k}`)));
    term = `(f ${term} a${k})`;
  }
  const left = g.addTerm(parseTerm(term));
  const right = g.addTerm(parseTerm(term.replace(/a\d+/g, "a29")));
  for (let k = 1; k < 30; k++) g.union(leaves[k - 1]!, leaves[k]!, `step${k}`);
  g.rebuild();
  const full = g.explainFlat(left, right)!;
  const short = g.explainFlat(left, right, { maxSteps: 5 })!;
  assert.ok(full.length > 30, `${full.length} steps`);
  // About maxSteps plus one congruence step per level of nesting still open when the bound is reached.
  assert.ok(short.length < full.length / 4 && short.length <= 70, `${short.length} of ${full.length} steps`);
  assertChained(short, printTerm(full[0]!.before), printTerm(full.at(-1)!.after));
});
