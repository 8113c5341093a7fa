/** Hash-consing: an e-node is stored once; adding it again gives its class; lookups find it through stale ids. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm } from "../../engine/egraph";
import { plainGraph } from "./constant-folding";

test("adding the same term twice gives the same class and adds no node", () => {
  const g = plainGraph();
  const a = g.addTerm(parseTerm("(+ (* x y) (* x y))"));
  assert.equal(g.nodeCount, 4);
  assert.equal(g.classCount, 4);
  const b = g.addTerm(parseTerm("(+ (* x y) (* x y))"));
  assert.equal(b, a);
  assert.equal(g.nodeCount, 4);
  const xy = g.lookupTerm(parseTerm("(* x y)"))!;
  assert.deepEqual(g.classOf(a).nodes.map((n) => [n.op, ...n.children]), [["+", xy, xy]]);
  g.rebuild();
});

test("add, addOp and addTerm share one hash-cons; child order matters", () => {
  const g = plainGraph();
  const x = g.add({ op: "x", children: [] });
  const y = g.addOp("y", []);
  const xy = g.addOp("f", [x, y]);
  assert.equal(g.add({ op: "f", children: [x, y] }), xy);
  assert.equal(g.addTerm(parseTerm("(f x y)")), xy);
  assert.notEqual(g.addOp("f", [y, x]), xy);
  assert.equal(g.nodeCount, 4);
  g.rebuild();
});

test("addOp copies the caller's children array (reusing it later changes nothing stored)", () => {
  const g = plainGraph();
  const [a, b, c] = ["a", "b", "c"].map((op) => g.addOp(op, []));
  const scratch = [a!, b!];
  const fab = g.addOp("f", scratch);
  scratch[1] = c!;
  assert.deepEqual(g.classOf(fab).nodes[0]!.children, [a, b]);
  assert.equal(g.lookup({ op: "f", children: [a!, b!] }), fab);
  assert.equal(g.lookup({ op: "f", children: [a!, c!] }), undefined);
  g.rebuild();
});

test("lookup and lookupTerm find known nodes only, and resolve stale ids to the canonical class", () => {
  const g = plainGraph();
  const a = g.addTerm(parseTerm("a"));
  const b = g.addTerm(parseTerm("b"));
  const fa = g.addTerm(parseTerm("(f a)"));
  assert.equal(g.lookupTerm(parseTerm("(f a)")), fa);
  assert.equal(g.lookupTerm(parseTerm("(f b)")), undefined);
  assert.equal(g.lookupTerm(parseTerm("(g a)")), undefined);
  assert.equal(g.lookup({ op: "zzz", children: [] }), undefined);
  g.union(a, b);
  g.rebuild();
  // (f b) is now (f a) by congruence of its child: the hash-cons finds it under either child id.
  assert.equal(g.lookupTerm(parseTerm("(f b)")), g.find(fa));
  assert.equal(g.lookup({ op: "f", children: [b] }), g.find(fa));
  assert.equal(g.addTerm(parseTerm("(f b)")), g.find(fa));
  assert.equal(g.nodeCount, 3);
});

test("canonicalize maps stale children to their roots and returns a canonical node unchanged", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const b = g.addOp("b", []);
  const node = { op: "f", children: [a, b] };
  assert.equal(g.canonicalize(node), node);
  g.union(a, b);
  const root = g.find(a);
  assert.deepEqual(g.canonicalize(node).children, [root, root]);
  g.rebuild();
});

test("nodeId gives the id a node was added under, even after its class merged into another", () => {
  const g = plainGraph();
  const a = g.addOp("a", []);
  const fa = g.addOp("f", [a]);
  const other = g.addOp("g", [a]);
  g.union(other, fa);
  g.rebuild();
  assert.equal(g.nodeId({ op: "f", children: [a] }), fa);
  assert.equal(g.nodeId({ op: "g", children: [a] }), other);
  assert.equal(g.find(fa), g.find(other));
  assert.equal(g.nodeId({ op: "h", children: [a] }), undefined);
});

test("the hash-cons holds thousands of nodes and nodes of more than two children", () => {
  const g = plainGraph();
  const leaves = Array.from({ length: 3000 }, (_, k) => g.addOp(`v${k}`, []));
  const wide = leaves.slice(0, 500).map((_, k) => g.addOp("sum4", [leaves[k]!, leaves[k + 1]!, leaves[k + 2]!, leaves[k + 3]!]));
  assert.equal(new Set(wide).size, 500);
  assert.equal(g.nodeCount, 3500);
  for (let k = 0; k < 500; k++) assert.equal(g.addOp("sum4", [leaves[k]!, leaves[k + 1]!, leaves[k + 2]!, leaves[k + 3]!]), wide[k]);
  // Same first two children, a different third: another node.
  assert.notEqual(g.addOp("sum4", [leaves[0]!, leaves[1]!, leaves[3]!, leaves[3]!]), wide[0]);
  assert.equal(g.nodeCount, 3501);
  g.rebuild();
});
