/** E-class analyses: make on add, merge on union, repair of parents' data in rebuild, modify adding nodes. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EGraph, parseTerm, type Analysis, type ClassId } from "../../engine/egraph";
import { constantFolding, foldingGraph, type Constant } from "./constant-folding";

test("make: a sum of constants folds, and modify puts the folded constant in the class", () => {
  const g = foldingGraph();
  const sum = g.addTerm(parseTerm("(+ 2 (* 3 4))"));
  g.rebuild();
  assert.equal(g.data(sum), 14);
  assert.equal(g.find(g.lookupTerm(parseTerm("14"))!), g.find(sum));
  assert.equal(g.find(g.lookupTerm(parseTerm("12"))!), g.find(g.lookupTerm(parseTerm("(* 3 4)"))!));
  assert.equal(g.data(g.lookupTerm(parseTerm("2"))!), 2);
});

test("a term with a variable does not fold", () => {
  const g = foldingGraph();
  const t = g.addTerm(parseTerm("(+ x 1)"));
  g.rebuild();
  assert.equal(g.data(t), null);
  assert.equal(g.classOf(t).nodes.length, 1);
});

test("union: x = 5 makes (* x 2) fold to 10 in rebuild (the parents' data is repaired), and (+ (* x 2) 1) to 11", () => {
  const g = foldingGraph();
  const x = g.addTerm(parseTerm("x"));
  const outer = g.addTerm(parseTerm("(+ (* x 2) 1)"));
  const five = g.addTerm(parseTerm("5"));
  assert.equal(g.data(outer), null);
  g.union(x, five);
  assert.equal(g.data(x), 5, "merge gives the class the constant at once");
  g.rebuild();
  assert.equal(g.data(outer), 11);
  assert.equal(g.find(g.lookupTerm(parseTerm("11"))!), g.find(outer));
  assert.equal(g.find(g.lookupTerm(parseTerm("(* 5 2)"))!), g.find(g.lookupTerm(parseTerm("10"))!));
});

test("a class's data is the merge of make over its nodes", () => {
  const g = foldingGraph();
  const ids = ["(+ a b)", "(* 2 3)", "c", "(+ 1 5)"].map((t) => g.addTerm(parseTerm(t)));
  for (const id of ids.slice(1)) g.union(ids[0]!, id);
  g.rebuild();
  const eclass = g.classOf(ids[0]!);
  const made = eclass.nodes.map((n) => constantFolding.make(g, n));
  const merged = made.reduce((acc, d) => constantFolding.merge(acc, d).data, null as Constant);
  assert.equal(eclass.data, merged);
  assert.equal(merged, 6);
});

test("merge reports which side changed", () => {
  assert.deepEqual(constantFolding.merge(null, 3), { data: 3, changedA: true, changedB: false });
  assert.deepEqual(constantFolding.merge(3, null), { data: 3, changedA: false, changedB: true });
  assert.deepEqual(constantFolding.merge(3, 3), { data: 3, changedA: false, changedB: false });
  assert.deepEqual(constantFolding.merge(null, null), { data: null, changedA: false, changedB: false });
  assert.throws(() => constantFolding.merge(2, 3), /2 and 3 were merged/);
});

test("merging two different constants is a contradiction the analysis reports at the union", () => {
  const g = foldingGraph();
  const two = g.addTerm(parseTerm("(+ 1 1)"));
  const three = g.addTerm(parseTerm("3"));
  assert.throws(() => g.union(two, three), /2 and 3 were merged/);
});

test("the data propagates up a deep chain in one rebuild", () => {
  const g = foldingGraph();
  const x = g.addTerm(parseTerm("x"));
  let top: ClassId = x;
  for (let k = 0; k < 50; k++) top = g.addOp("+", [top, g.addOp("1", [])]);
  g.union(x, g.addOp("0", []));
  g.rebuild();
  assert.equal(g.data(top), 50);
  assert.equal(g.analysisCutoffs, 0);
});

test("make sees canonical children and their data through the EGraphView", () => {
  const seen: string[] = [];
  const spy: Analysis<number> = {
    make: (view, node) => {
      seen.push(`${node.op}(${node.children.map((c) => view.find(c) === c).join(",")})`);
      return node.children.reduce((n, c) => n + view.data(c), 1);
    },
    merge: (a, b) => ({ data: Math.max(a, b), changedA: b > a, changedB: a > b }),
  };
  const g = new EGraph<number>(spy, { checkInvariants: true });
  const t = g.addTerm(parseTerm("(f (g a) b)"));
  assert.equal(g.data(t), 4);
  assert.deepEqual(seen, ["a()", "g(true)", "b()", "f(true,true)"]);
  g.union(g.lookupTerm(parseTerm("b"))!, g.lookupTerm(parseTerm("(g a)"))!);
  g.rebuild();
  // b's class now has size 2, so (f (g a) b) is 1 + 2 + 2 = 5: a size analysis that keeps the largest.
  assert.equal(g.data(t), 5);
});
