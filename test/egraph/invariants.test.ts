/**
 * EGraph.checkInvariants names the invariant that is broken and the class:
 * each test breaks one on a rebuilt graph (reaching into the e-graph's
 * private fields) and expects its name. With { checkInvariants: true } the
 * check runs after every rebuild.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EGraph, InvariantError, parseTerm, type Analysis, type ClassId, type ENode, type Justification } from "../../engine/egraph";
import { foldingGraph, plainGraph, type Constant } from "./constant-folding";

/** The private fields these tests corrupt. */
interface Insides {
  classById: ({ id: ClassId; nodes: ENode[]; parents: ENode[]; data: unknown; packed: Int32Array | undefined } | undefined)[];
  memo: { set(node: ENode, id: ClassId): void };
  proofs: { addEdge(a: ClassId, b: ClassId, why: Justification): void };
}
const insides = (g: EGraph<unknown>) => g as unknown as Insides;

/** (f a), (g (f a)), b with a = b, rebuilt. */
function sample(explanations = false) {
  const g = plainGraph({ explanations });
  const a = g.addTerm(parseTerm("a"));
  const fa = g.addTerm(parseTerm("(f a)"));
  const gfa = g.addTerm(parseTerm("(g (f a))"));
  const b = g.addTerm(parseTerm("b"));
  const c = g.addTerm(parseTerm("c"));
  g.union(a, b);
  g.rebuild();
  return { g, a: g.find(a), stale: g.find(a) === a ? b : a, fa: g.find(fa), gfa: g.find(gfa), c };
}

function expectBroken(g: EGraph<unknown>, invariant: string, classId: ClassId | undefined, message: RegExp): void {
  assert.throws(
    () => g.checkInvariants(),
    (error: unknown) => {
      assert.ok(error instanceof InvariantError, `expected an InvariantError, got ${String(error)}`);
      assert.equal(error.invariant, invariant);
      assert.equal(error.classId, classId);
      assert.match(error.message, message);
      return true;
    },
  );
}

test("a rebuilt graph passes", () => {
  sample(true).g.checkInvariants();
});

test("union-find: a live class missing from the class table", () => {
  const { g, c } = sample();
  insides(g).classById[c] = undefined;
  expectBroken(g, "union-find", c, /its root c\d+ is not a live class/);
});

test("canonical nodes: a node with a merged-away child", () => {
  const { g, fa, stale } = sample();
  insides(g).classById[fa]!.nodes[0] = { op: "f", children: [stale] };
  expectBroken(g, "canonical nodes", fa, new RegExp(`\\(f c${stale}\\) has the stale child c${stale}`));
});

test("distinct nodes: a node twice in its class", () => {
  const { g, fa } = sample();
  const nodes = insides(g).classById[fa]!.nodes;
  nodes.push(nodes[0]!);
  expectBroken(g, "distinct nodes", fa, /is in the class twice/);
});

test("congruence: one node in two classes", () => {
  const { g, fa, c } = sample();
  const classes = insides(g).classById;
  classes[Math.max(fa, c)]!.nodes.push(classes[Math.min(fa, c)]!.nodes[0]!);
  expectBroken(g, "congruence", Math.max(fa, c), new RegExp(`is also in class c${Math.min(fa, c)}`));
});

test("hash-cons: a node that maps to another class", () => {
  const { g, fa, c } = sample();
  const node = insides(g).classById[fa]!.nodes[0]!;
  insides(g).memo.set(node, c);
  expectBroken(g, "hash-cons", fa, new RegExp(`maps to c${c}`));
});

test("hash-cons: an entry for a node no class holds", () => {
  const { g, a, c } = sample();
  insides(g).memo.set({ op: "h", children: [a] }, c);
  expectBroken(g, "hash-cons", c, /no class holds the node/);
});

test("parents: a class that lost its parent list", () => {
  const { g, a } = sample();
  insides(g).classById[a]!.parents = [];
  expectBroken(g, "parents", a, /the parent \(f c\d+\) of class c\d+ is missing from the parent list/);
});

test("packed nodes: a stale packed copy", () => {
  const { g, gfa } = sample();
  g.packedNodes(gfa)[1] = 7;
  expectBroken(g, "packed nodes", gfa, /differ from the class's nodes/);
});

test("analysis: data that rebuild did not repair", () => {
  const g = foldingGraph();
  const t = g.addTerm(parseTerm("(* x 2)"));
  g.union(g.lookupTerm(parseTerm("x"))!, g.addTerm(parseTerm("5")));
  g.rebuild();
  assert.equal(g.data(t), 10);
  insides(g as EGraph<unknown>).classById[g.find(t)]!.data = null;
  expectBroken(g as EGraph<unknown>, "analysis", g.find(t), /\(\* c\d+ c\d+\) \(10\) changes the class's data \(null\)/);
});

test("analysis: a merge that says 'unchanged' but changes the data leaves parents stale, and the check catches it", () => {
  const lying: Analysis<Constant> = {
    make: (view, node) => (node.op === "*" ? (view.data(node.children[0]!) ?? 0) * 2 || null : /^\d+$/.test(node.op) ? Number(node.op) : null),
    merge: (a, b) => ({ data: a ?? b, changedA: false, changedB: false }),
  };
  const g = new EGraph<Constant>(lying, { checkInvariants: true });
  g.addTerm(parseTerm("(* x 2)"));
  g.union(g.lookupTerm(parseTerm("x"))!, g.addTerm(parseTerm("5")));
  assert.throws(() => g.rebuild(), /invariant "analysis" broken at class c\d+: merging the data of its node \(\* c\d+ c\d+\) \(10\)/);
});

test("explanations: a union edge between two classes", () => {
  const { g, fa, c } = sample(true);
  insides(g).proofs.addEdge(fa, c, "bogus");
  expectBroken(g, "explanations", g.find(fa), new RegExp(`a union edge joins c${fa} and c${c}`));
});

test("with checkInvariants on, rebuild itself throws on a broken graph; off, it does not check", () => {
  const on = sample();
  insides(on.g).classById[on.fa]!.parents.push({ op: "zz", children: [on.fa], owner: on.c } as ENode);
  assert.throws(() => on.g.rebuild(), /invariant "parents" broken at class c\d+: the parent \(zz c\d+\) is not a node of its class/);
  const off = new EGraph<null>({ make: () => null, merge: () => ({ data: null, changedA: false, changedB: false }) });
  const x = off.addOp("x", []);
  insides(off as EGraph<unknown>).classById[x]!.parents.push({ op: "zz", children: [x] } as ENode);
  off.rebuild();
  assert.throws(() => off.checkInvariants(), /invariant "parents" broken at class c0: the parent \(zz c0\) belongs to no class/);
});
