/** printEGraph: one class per line, canonical children, optional data. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm, printEGraph } from "../../engine/egraph";
import { foldingGraph, plainGraph } from "./constant-folding";

test("one line per class in id order, nodes joined by |, children as canonical class ids", () => {
  const g = plainGraph();
  g.addTerm(parseTerm("(+ a (* b c))"));
  const b = g.lookupTerm(parseTerm("b"))!;
  g.union(b, g.addTerm(parseTerm("d")));
  g.rebuild();
  assert.equal(printEGraph(g), ["c0: a", "c1: b | d", "c2: c", "c3: (* c1 c2)", "c4: (+ c0 c3)"].join("\n"));
});

test("the data is printed with the given formatter (the folded 3 was added as c4 and merged into c3)", () => {
  const g = foldingGraph();
  g.addTerm(parseTerm("(* x (+ 1 2))"));
  g.rebuild();
  assert.equal(
    printEGraph(g, (d) => (d === null ? "?" : String(d))),
    ["c0 [?]: x", "c1 [1]: 1", "c2 [2]: 2", "c3 [3]: (+ c1 c2) | 3", "c5 [?]: (* c0 c3)"].join("\n"),
  );
});

test("an empty graph prints as nothing", () => {
  assert.equal(printEGraph(plainGraph()), "");
});
