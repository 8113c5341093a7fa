/** Patterns: parsing s-expressions, e-matching (nonlinear variables, nested patterns, wide nodes), search limits. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { matchClass, MatchList, parsePattern, parseTerm, printTerm, searchPattern, type ClassId } from "../../engine/egraph";
import { opNumber } from "../../engine/egraph/intern";
import { plainGraph } from "./constant-folding";

test("parsePattern numbers variables in order of first use and keeps the text", () => {
  const p = parsePattern("(* ?a (+ ?b ?a))");
  assert.deepEqual(p.vars, ["a", "b"]);
  assert.equal(p.text, "(* ?a (+ ?b ?a))");
  // Operator nodes carry the operator's number (opNumber), which matching compares.
  assert.deepEqual(p.root, {
    kind: "node",
    op: "*",
    opId: opNumber("*"),
    children: [
      { kind: "var", index: 0 },
      { kind: "node", op: "+", opId: opNumber("+"), children: [{ kind: "var", index: 1 }, { kind: "var", index: 0 }] },
    ],
  });
  assert.deepEqual(parsePattern("?x").root, { kind: "var", index: 0 });
  assert.deepEqual(parsePattern("  (f\n x)  ").root, { kind: "node", op: "f", opId: opNumber("f"), children: [{ kind: "node", op: "x", opId: opNumber("x"), children: [] }] });
});

test("malformed patterns and terms are rejected with the reason and the text", () => {
  assert.throws(() => parsePattern("(+ ?a"), /missing '\)' in pattern: \(\+ \?a/);
  assert.throws(() => parsePattern(")"), /unexpected '\)' in pattern/);
  assert.throws(() => parsePattern("(+ a) b"), /trailing input in pattern: \(\+ a\) b/);
  assert.throws(() => parsePattern("((f a) b)"), /a list must start with an operator/);
  assert.throws(() => parsePattern("()"), /a list must start with an operator/);
  assert.throws(() => parsePattern(""), /unexpected end of pattern/);
  assert.throws(() => parseTerm("(+ ?a 1)"), /a term has no variables: \(\+ \?a 1\)/);
});

test("parseTerm and printTerm round-trip", () => {
  for (const text of ["x", "(f x)", "(+ (* a b) (f (g c) d e))"]) assert.equal(printTerm(parseTerm(text)), text);
  assert.deepEqual(parseTerm("(f x)"), { op: "f", children: [{ op: "x", children: [] }] });
});

/** Bindings found by matchClass at `id`, as variable-name maps. */
function bindingsAt(g: ReturnType<typeof plainGraph>, pattern: string, id: ClassId): Record<string, ClassId>[] {
  const p = parsePattern(pattern);
  const found: Record<string, ClassId>[] = [];
  matchClass(g, p, id, (b) => found.push(Object.fromEntries(p.vars.map((v, k) => [v, b[k]!]))));
  return found;
}

test("matchClass binds variables to classes, one binding per way the pattern matches", () => {
  const g = plainGraph();
  const t = g.addTerm(parseTerm("(+ (* a b) c)"));
  g.union(t, g.addTerm(parseTerm("(+ (* c a) b)")));
  g.rebuild();
  const id = (s: string) => g.lookupTerm(parseTerm(s))!;
  const found = bindingsAt(g, "(+ (* ?x ?y) ?z)", t);
  assert.deepEqual(
    found.sort((p, q) => p.x! - q.x!),
    [
      { x: id("a"), y: id("b"), z: id("c") },
      { x: id("c"), y: id("a"), z: id("b") },
    ].sort((p, q) => p.x - q.x),
  );
  assert.deepEqual(bindingsAt(g, "(* ?x ?y)", t), []);
  assert.deepEqual(bindingsAt(g, "?any", t), [{ any: g.find(t) }]);
});

test("a nonlinear pattern matches only where its repeated variable binds one class", () => {
  const g = plainGraph();
  const same = g.addTerm(parseTerm("(- x x)"));
  const different = g.addTerm(parseTerm("(- x y)"));
  const nested = g.addTerm(parseTerm("(- (f x) x)"));
  g.rebuild();
  const p = parsePattern("(- ?a ?a)");
  const roots = (m: MatchList) => Array.from(m.roots.subarray(0, m.size));
  assert.deepEqual(roots(searchPattern(g, p, [same, different, nested])), [same]);
  const deep = parsePattern("(- (f ?a) ?a)");
  assert.deepEqual(roots(searchPattern(g, deep, [same, different, nested])), [nested]);
  // Once x = y, (- x y) matches too.
  g.union(g.lookupTerm(parseTerm("x"))!, g.lookupTerm(parseTerm("y"))!);
  g.rebuild();
  assert.equal(g.find(same), g.find(different));
  assert.deepEqual(roots(searchPattern(g, p, [g.find(same)])), [g.find(same)]);
});

test("an operator matches only nodes of its arity; nodes of more than two children match every child", () => {
  const g = plainGraph();
  const wide = g.addTerm(parseTerm("(f a b c d)"));
  const narrow = g.addTerm(parseTerm("(f a b)"));
  g.rebuild();
  const id = (s: string) => g.lookupTerm(parseTerm(s))!;
  assert.deepEqual(bindingsAt(g, "(f ?p ?q ?r ?s)", wide), [{ p: id("a"), q: id("b"), r: id("c"), s: id("d") }]);
  assert.deepEqual(bindingsAt(g, "(f ?p ?q ?r ?s)", narrow), []);
  assert.deepEqual(bindingsAt(g, "(f ?p ?q c ?s)", wide), [{ p: id("a"), q: id("b"), s: id("d") }]);
  assert.deepEqual(bindingsAt(g, "(f ?p ?q d ?s)", wide), []);
  assert.deepEqual(bindingsAt(g, "(f ?p ?q ?p ?s)", wide), []);
});

test("searchPattern: matches with their roots, bindings and matched nodes; a limit stops the search past it", () => {
  const g = plainGraph();
  const sums = Array.from({ length: 10 }, (_, k) => g.addTerm(parseTerm(`(+ x${k} y)`)));
  g.rebuild();
  const p = parsePattern("(+ ?a y)");
  const all = searchPattern(g, p, sums);
  assert.equal(all.size, 10);
  assert.equal(all.width, 1);
  assert.deepEqual(Array.from(all.roots.subarray(0, all.size)), sums);
  assert.equal(all.subst(3).get("a"), g.lookupTerm(parseTerm("x3")));
  assert.equal(all.subst(3).get("?a"), g.lookupTerm(parseTerm("x3")));
  assert.throws(() => all.subst(3).get("b"), /pattern variable \?b is not bound/);
  assert.equal(all.matchedNode(g, 3), sums[3]);
  // egg's search_with_limit: stop once more than `limit` were found.
  assert.equal(searchPattern(g, p, sums, 4).size, 5);
  assert.equal(searchPattern(g, p, sums, 0).size, 1);
  assert.equal(searchPattern(g, p, []).size, 0);
});

test("matchedNode names the node the match's top was added as, after its class merged", () => {
  const g = plainGraph();
  const fa = g.addTerm(parseTerm("(f a)"));
  const gb = g.addTerm(parseTerm("(g b)"));
  g.union(gb, fa);
  g.rebuild();
  const m = searchPattern(g, parsePattern("(f ?x)"), [g.find(fa)]);
  assert.equal(m.matchedNode(g, 0), fa);
  const n = searchPattern(g, parsePattern("(g ?x)"), [g.find(fa)]);
  assert.equal(n.matchedNode(g, 0), gb);
  const v = searchPattern(g, parsePattern("?x"), [g.find(fa)]);
  assert.equal(v.matchedNode(g, 0), g.find(fa));
});

test("MatchList grows past its first capacity and keeps every binding", () => {
  const p = parsePattern("(f ?a ?b)");
  const list = new MatchList(p);
  for (let k = 0; k < 200; k++) list.push(k, [k + 1, k + 2], k % 3);
  assert.equal(list.size, 200);
  assert.deepEqual([list.roots[150], list.bindings[150 * 2], list.bindings[150 * 2 + 1], list.nodes[150]], [150, 151, 152, 0]);
  assert.deepEqual(list.subst(199).classes, [200, 201]);
});

test("matchClass stops when asked", () => {
  const g = plainGraph();
  const t = g.addTerm(parseTerm("(f a)"));
  for (let k = 0; k < 5; k++) g.union(t, g.addTerm(parseTerm(`(f b${k})`)));
  g.rebuild();
  let found = 0;
  matchClass(g, parsePattern("(f ?x)"), t, () => found++, () => found >= 2);
  assert.equal(found, 2);
});
