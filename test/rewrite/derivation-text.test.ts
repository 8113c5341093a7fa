// The derivation text `dml prove`, `dml explain --why` and the editor's
// "Explain this rewrite" show: one line a step with the rules and the facts
// conditional rules relied on ("because ncol(v) = 1"), steps that only
// re-associate or commute folded into one line.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { parseTerm, type FlatExplanationStep } from "../../engine/egraph";
import { becauseFact, derivationLines, isReassociation, laDerivation, optimizerRuleSpecs } from "../../engine/rewrite";
import { rule } from "../../engine/rewrite/rule-spec";
import { proveVariables, type ProveOutcome } from "../../engine/suggest";

const leafText = (op: string) => (op.startsWith("var:") ? op.slice(4) : undefined);
const step = (rule: string, before: string, after: string): FlatExplanationStep => ({ rule, before: parseTerm(before), after: parseTerm(after) });
const print = (term: { op: string }) => leafText(term.op) ?? term.op;

function prove(text: string, a = "a", b = "b"): ProveOutcome {
  const outcome = proveVariables(text, "test.dml", a, b);
  assert.notEqual(typeof outcome, "string", String(outcome));
  assert.equal((outcome as ProveOutcome).verdict, "proven", `${a} = ${b}`);
  return outcome as ProveOutcome;
}

describe("derivation text of proofs", () => {
  test("an identity: the rule's name and description", () => {
    const o = prove("X = rand(rows=20, cols=7, seed=1)\nY = rand(rows=20, cols=7, seed=2)\na = sum(X + Y)\nb = sum(X) + sum(Y)\n");
    assert.deepEqual(derivationLines(o.steps), ["sum(X + Y) = sum(X) + sum(Y)  [add-of-sums: sum distributes over +]"]);
  });

  test("a conditional rule's fact, about the script's own names", () => {
    const o = prove("X = rand(rows=20, cols=7, seed=1)\nY = rand(rows=3, cols=3, seed=2)\ns = sum(Y)\na = X / s\nb = X * (1 / s)\n");
    assert.deepEqual(derivationLines(o.steps), ["X / s = X * (1 / s)  [divide-by-scalar: x / s = x * (1 / s); because s is a scalar]"]);
  });

  test("a relational condition: the factor does not use the summed index", () => {
    const o = prove("X = rand(rows=20, cols=7, seed=1)\na = sum(X * 3)\nb = 3 * sum(X)\n");
    assert.deepEqual(derivationLines(o.steps), ["sum(X * 3) = 3 * sum(X)  [factor-into-sum: a factor without the summed index moves across the sum; because 3 does not use index i1]"]);
  });

  test("commuting and re-associating a product is one folded line", () => {
    const o = prove("X = rand(rows=20, cols=7, seed=1)\nY = rand(rows=20, cols=7, seed=2)\nZ = rand(rows=20, cols=7, seed=3)\na = sum(X * Y * Z)\nb = sum(Z * (Y * X))\n");
    assert.deepEqual(derivationLines(o.steps), ["sum(X * Y * Z) = sum(Z * (Y * X))  [re-associate/commute]"]);
    assert.equal(o.steps[0]!.reassociation, true);
  });

  test("a chain of steps: each line starts where the previous ended", () => {
    const text = "X = rand(rows=100, cols=50, sparsity=0.01, seed=1)\nU = rand(rows=100, cols=5, seed=2)\nV = rand(rows=50, cols=5, seed=3)\na = (U %*% t(V) - X) %*% V\nb = U %*% (t(V) %*% V) - X %*% V\n";
    assert.deepEqual(derivationLines(prove(text).steps), [
      "(U %*% t(V) - X) %*% V = U %*% t(V) %*% V + -X %*% V  [sum-of-add: sum distributes over +]",
      "U %*% t(V) %*% V + -X %*% V = U %*% (t(V) %*% V) - X %*% V  [add-negated: a + (-b) = a - b]",
    ]);
  });
});

describe("folding and facts on hand-made explanations", () => {
  test("consecutive commute and associate steps fold; the identity after them keeps its line", () => {
    const steps = [
      step("add-commute", "(sum (+ var:X var:Y))", "(sum (+ var:Y var:X))"),
      step("add-associate", "(sum (+ var:Y var:X))", "(sum (+ var:X var:Y))"),
      step("multiply-commute", "(sum (+ var:X var:Y))", "(sum (* var:X var:Y))"),
      step("sum-of-add", "(sum (* var:X var:Y))", "(+ (sum var:X) (sum var:Y))"),
    ];
    // X + Y comes back after two steps (a detour, cut); the commute to X * Y and the sum's step remain.
    assert.deepEqual(derivationLines(laDerivation(steps, leafText)), ["sum(X + Y) = sum(X * Y)  [re-associate/commute]", "sum(X * Y) = sum(X) + sum(Y)  [sum-of-add: sum distributes over +]"]);
    const folded = laDerivation([step("add-commute", "(+ var:A (+ var:B var:C))", "(+ (+ var:B var:C) var:A)"), step("add-associate-back", "(+ (+ var:B var:C) var:A)", "(+ var:B (+ var:C var:A))")], leafText);
    assert.deepEqual(derivationLines(folded), ["A + (B + C) = B + (C + A)  [re-associate/commute]"]);
    assert.deepEqual(folded[0]!.rules, ["add-commute", "add-associate-back"]);
  });

  test("a fact is read from the changed sub-term, whichever way the step runs", () => {
    const spec = rule("row-mins-single-column", "(rowMins ?x)", "?x", () => true, "ncol(?x) = 1");
    assert.equal(becauseFact(spec, parseTerm("(+ (rowMins var:v) var:w)"), parseTerm("(+ var:v var:w)"), print), "ncol(v) = 1");
    assert.equal(becauseFact(spec, parseTerm("(+ var:v var:w)"), parseTerm("(+ (rowMins var:v) var:w)"), print), "ncol(v) = 1");
    const withoutFact = rule("row-mins-single-column", "(rowMins ?x)", "?x", () => true);
    assert.equal(becauseFact(withoutFact, parseTerm("(rowMins var:v)"), parseTerm("var:v"), print), undefined);
    assert.equal(becauseFact(spec, parseTerm("(t var:v)"), parseTerm("var:w"), print), undefined, "no match: no fact");
  });

  test("both sides of the rule tell its direction when the left-hand side also matches the right's instance", () => {
    const spec = rule("one-by-one", "(b _ _ ?x)", "(b _ _ (as.scalar ?x))", () => true, "?x is 1 x 1");
    const matrix = "(b _ _ var:m)";
    const scalar = "(b _ _ (as.scalar var:m))";
    assert.equal(becauseFact(spec, parseTerm(scalar), parseTerm(matrix), print), "m is 1 x 1");
    assert.equal(becauseFact(spec, parseTerm(matrix), parseTerm(scalar), print), "m is 1 x 1");
  });

  test("at most four facts a step are shown; the rest are counted", () => {
    const facts = ["a", "b", "c", "d", "e", "f"].map((v) => step("divide-by-scalar", `(/ var:X var:${v})`, `(* var:X (/ lit:1 var:${v}))`));
    const [only] = laDerivation([facts[0]!], leafText);
    assert.deepEqual(only!.because, ["a is a scalar"]);
    const many = { ...only!, because: ["a", "b", "c", "d", "e", "f"].map((v) => `${v} is a scalar`) };
    assert.deepEqual(derivationLines([many]), [
      "X / a = X * (1 / a)  [divide-by-scalar: x / s = x * (1 / s); because a is a scalar; because b is a scalar; because c is a scalar; because d is a scalar; and 2 more facts]",
    ]);
  });

  test("commute and associate rules are recognized from their patterns", () => {
    const byName = new Map(optimizerRuleSpecs().map((r) => [r.name, r]));
    for (const name of ["add-commute", "multiply-commute", "add-associate", "add-associate-back", "multiply-associate", "multiply-associate-back"]) assert.equal(isReassociation(byName.get(name)!), true, name);
    for (const name of ["sums-commute", "distribute", "factor", "factor-one", "square", "subtract-as-add", "bind-add", "add-same"]) assert.equal(isReassociation(byName.get(name)!), false, name);
  });

  test("every conditional rule with a fact has a pattern variable in it that its left-hand side binds", () => {
    for (const spec of optimizerRuleSpecs()) {
      if (spec.because === undefined) continue;
      const names = [...spec.because.matchAll(/\?([A-Za-z_]\w*)/g)].map((m) => m[1]!);
      assert.ok(names.length > 0, `${spec.name}: the fact names no pattern variable`);
      for (const name of names) assert.match(spec.lhs, new RegExp(`\\?${name}\\b`), `${spec.name}: ?${name} is not in ${spec.lhs}`);
    }
  });
});
