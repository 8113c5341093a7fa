/** Union-find and rebuild: unions merge classes, rebuild restores congruence closure and exact counts. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";

test("union merges two classes once; find gives one root; version counts effective changes", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const b = g.addOp("b", []);
  const before = g.version;
  assert.equal(g.union(a, b), true);
  assert.equal(g.version, before + 1);
  assert.equal(g.union(b, a), false);
  assert.equal(g.version, before + 1);
  assert.equal(g.find(a), g.find(b));
  assert.equal(g.classCount, 1);
  g.rebuild();
  assert.deepEqual(g.classOf(a).nodes.map((n) => n.op).sort(), ["a", "b"]);
});

test("congruence: after a = b and rebuild, f(a) = f(b) and g(f(a)) = g(f(b)), with one node each", () => {
  const g = plainGraph();
  const a = g.addTerm(parseTerm("a"));
  const b = g.addTerm(parseTerm("b"));
  const gfa = g.addTerm(parseTerm("(g (f a))"));
  const gfb = g.addTerm(parseTerm("(g (f b))"));
  assert.equal(g.nodeCount, 6);
  g.union(a, b);
  assert.notEqual(g.find(gfa), g.find(gfb), "congruence waits for rebuild");
  const repairs = g.rebuild();
  assert.ok(repairs >= 2, `rebuild repaired ${repairs} parent nodes`);
  assert.equal(g.find(gfa), g.find(gfb));
  assert.equal(g.find(g.lookupTerm(parseTerm("(f a)"))!), g.find(g.lookupTerm(parseTerm("(f b)"))!));
  assert.equal(g.nodeCount, 4);
  assert.equal(g.classCount, 3);
});

test("a union that closes a cycle: x = f(x) keeps every f^k(x) in one class", () => {
  const g = plainGraph();
  const x = g.addTerm(parseTerm("x"));
  const fx = g.addTerm(parseTerm("(f x)"));
  const ffx = g.addTerm(parseTerm("(f (f x))"));
  g.union(x, fx);
  g.rebuild();
  assert.equal(g.find(ffx), g.find(x));
  assert.equal(g.classCount, 1);
  assert.equal(g.nodeCount, 2);
  assert.equal(g.addTerm(parseTerm("(f (f (f x)))")), g.find(x));
});

test("congruence through two children and a long chain of unions", () => {
  const g = plainGraph();
  const leaves = Array.from({ length: 20 }, (_, k) => g.addOp(`v${k}`, []));
  const pairs = leaves.slice(1).map((leaf, k) => g.addOp("p", [leaves[k]!, leaf]));
  for (let k = 1; k < leaves.length; k++) g.union(leaves[0]!, leaves[k]!);
  g.rebuild();
  const root = g.find(pairs[0]!);
  for (const p of pairs) assert.equal(g.find(p), root);
  assert.equal(g.classCount, 2);
  assert.equal(g.nodeCount, 21);
  assert.deepEqual(g.classOf(root).nodes.map((n) => n.children.map((c) => g.find(c))), [[g.find(leaves[0]!), g.find(leaves[0]!)]]);
});

test("classes, forEachClass and classOf list the live classes with their nodes", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const b = g.addOp("b", []);
  g.addOp("f", [a]);
  g.union(a, b);
  g.rebuild();
  const viaIterator = [...g.classes()].map((c) => c.id).sort((p, q) => p - q);
  const viaVisit: number[] = [];
  g.forEachClass((c) => viaVisit.push(c.id));
  assert.deepEqual(viaVisit.sort((p, q) => p - q), viaIterator);
  assert.equal(viaIterator.length, 2);
  assert.equal(g.classOf(b).id, g.find(a));
});

test("packedNodes: op number, arity and first two children per node, rebuilt after a union", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const b = g.addOp("b", []);
  const f = g.addOp("f", [a, b]);
  const packed = g.packedNodes(f);
  assert.equal(packed.length, 4);
  assert.deepEqual([packed[1], packed[2], packed[3]], [2, a, b]);
  assert.equal(g.packedNodes(a)[2], -1);
  g.union(f, a);
  g.rebuild();
  assert.equal(g.packedNodes(f).length, 8);
});

test("checkInvariants before rebuild says that work is pending", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const fa = g.addOp("f", [a]);
  g.addOp("f", [g.addOp("b", [])]);
  g.union(a, g.lookup({ op: "b", children: [] })!);
  assert.throws(() => g.checkInvariants(), /invariant "rebuilt" broken: .*await rebuild/);
  g.rebuild();
  g.checkInvariants();
  assert.equal(g.classOf(fa).nodes.length, 1);
});
