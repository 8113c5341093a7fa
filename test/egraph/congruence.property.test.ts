/**
 * Property: random terms and random unions, then rebuild: the invariants
 * hold (the graphs check them after every rebuild), and two terms are in one
 * class exactly when a reference congruence closure says they are equal
 * (a naive fixpoint over the terms' sub-terms: union-find, plus "same
 * operator and equal children are equal" until nothing changes), also for
 * terms added after the rebuild. With constant folding, a class's data is
 * the term's value, and the class holds the value's literal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { printTerm, type Term } from "../../engine/egraph";
import { foldingGraph, plainGraph } from "./constant-folding";

const leaf = (op: string): Term => ({ op, children: [] });

/** Terms over f/1, g/2, h/3 and the leaves a, b, c (small, so that random unions often meet shared sub-terms). */
const term: fc.Arbitrary<Term> = fc.letrec<{ t: Term }>((tie) => ({
  t: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("a", "b", "c").map(leaf),
    tie("t").map((x): Term => ({ op: "f", children: [x] })),
    fc.tuple(tie("t"), tie("t")).map(([x, y]): Term => ({ op: "g", children: [x, y] })),
    fc.tuple(tie("t"), tie("t"), tie("t")).map(([x, y, z]): Term => ({ op: "h", children: [x, y, z] })),
  ),
})).t;

/** The reference: congruence closure over every sub-term, by naive fixpoint. */
class ReferenceClosure {
  private readonly parent = new Map<string, string>();
  private readonly terms = new Map<string, Term>();

  add(t: Term): string {
    const key = printTerm(t);
    if (!this.terms.has(key)) {
      this.terms.set(key, t);
      this.parent.set(key, key);
      for (const child of t.children) this.add(child);
    }
    return key;
  }

  find(key: string): string {
    while (this.parent.get(key) !== key) key = this.parent.get(key)!;
    return key;
  }

  union(a: string, b: string): void {
    this.parent.set(this.find(a), this.find(b));
  }

  close(): void {
    for (let changed = true; changed; ) {
      changed = false;
      const all = [...this.terms.values()];
      for (const x of all) {
        for (const y of all) {
          if (x.op !== y.op || x.children.length !== y.children.length) continue;
          const kx = this.find(printTerm(x));
          const ky = this.find(printTerm(y));
          if (kx === ky) continue;
          if (x.children.every((c, i) => this.find(printTerm(c)) === this.find(printTerm(y.children[i]!)))) {
            this.union(kx, ky);
            changed = true;
          }
        }
      }
    }
  }

  same(a: Term, b: Term): boolean {
    return this.find(printTerm(a)) === this.find(printTerm(b));
  }
}

test("random terms and unions: after rebuild the invariants hold and the classes are the congruence closure", () => {
  const scenario = fc.record({
    terms: fc.array(term, { minLength: 1, maxLength: 6 }),
    unions: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
    later: fc.array(term, { maxLength: 4 }),
  });
  fc.assert(
    fc.property(scenario, ({ terms, unions, later }) => {
      const g = plainGraph();
      const reference = new ReferenceClosure();
      const ids = terms.map((t) => g.addTerm(t));
      for (const t of [...terms, ...later]) reference.add(t);
      for (const [i, j] of unions) {
        const a = i % terms.length;
        const b = j % terms.length;
        g.union(ids[a]!, ids[b]!);
        reference.union(printTerm(terms[a]!), printTerm(terms[b]!));
      }
      g.rebuild();
      reference.close();
      const laterIds = later.map((t) => g.addTerm(t));
      const all = [...terms, ...later];
      const allIds = [...ids, ...laterIds];
      for (let x = 0; x < all.length; x++) {
        for (let y = x + 1; y < all.length; y++) {
          const expected = reference.same(all[x]!, all[y]!);
          assert.equal(g.find(allIds[x]!) === g.find(allIds[y]!), expected, `${printTerm(all[x]!)} ${expected ? "=" : "!="} ${printTerm(all[y]!)}`);
        }
      }
      g.rebuild();
      // Distinct sub-terms in distinct classes count once each: the class count is the reference's.
      assert.equal(g.classCount, new Set(allSubterms(all).map((t) => reference.find(printTerm(t)))).size);
    }),
    { numRuns: 200, seed: 20 },
  );
});

function allSubterms(terms: readonly Term[]): Term[] {
  const out: Term[] = [];
  const visit = (t: Term) => {
    out.push(t);
    t.children.forEach(visit);
  };
  terms.forEach(visit);
  return out;
}

/** Integer arithmetic over +, * and the leaves 0..3, x. */
const arithmetic: fc.Arbitrary<Term> = fc.letrec<{ t: Term }>((tie) => ({
  t: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("0", "1", "2", "3", "x").map(leaf),
    fc.tuple(fc.constantFrom("+", "*"), tie("t"), tie("t")).map(([op, a, b]): Term => ({ op, children: [a, b] })),
  ),
})).t;

function evaluate(t: Term, x: number | null): number | null {
  if (t.op === "x") return x;
  if (t.children.length === 0) return Number(t.op);
  const [a, b] = t.children.map((c) => evaluate(c, x));
  if (a === null || b === null || a === undefined || b === undefined) return null;
  return t.op === "+" ? a + b : a * b;
}

test("random arithmetic with constant folding: each class's data is its term's value, and x = k folds everything", () => {
  fc.assert(
    fc.property(fc.array(arithmetic, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 3 }), (terms, k) => {
      const g = foldingGraph();
      const ids = terms.map((t) => g.addTerm(t));
      g.rebuild();
      for (const [n, t] of terms.entries()) {
        const value = evaluate(t, null);
        assert.equal(g.data(ids[n]!), value, printTerm(t));
        if (value !== null) assert.equal(g.lookupTerm({ op: String(value), children: [] }) !== undefined && g.find(g.lookupTerm({ op: String(value), children: [] })!), g.find(ids[n]!));
      }
      g.union(g.addTerm(leaf("x")), g.addTerm(leaf(String(k))));
      g.rebuild();
      for (const [n, t] of terms.entries()) {
        const value = evaluate(t, k)!;
        assert.equal(g.data(ids[n]!), value, `${printTerm(t)} with x = ${k}`);
        assert.equal(g.find(g.addTerm(leaf(String(value)))), g.find(ids[n]!));
      }
    }),
    { numRuns: 200, seed: 21 },
  );
});
