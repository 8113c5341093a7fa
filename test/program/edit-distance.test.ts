// Edit distance and "did you mean" (engine/program/edit-distance.ts): the
// bounded distance agrees with the full dynamic program below its bound,
// and closestName picks what the unbounded search picks.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import fc from "fast-check";
import { closestName, editDistance } from "../../engine/program/edit-distance";

/** The full table, no bound (optimal string alignment: adjacent swaps count one). */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

test("known distances", () => {
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("beta", "btea"), 1, "an adjacent swap is one edit");
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting", 2), 3, "past the bound: bound + 1");
  assert.equal(editDistance("abc", "abcdefgh", 1), 2);
});

test("property: the bounded distance is the full one, or bound + 1 when that exceeds the bound", () => {
  const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "_"), maxLength: 9 });
  fc.assert(
    fc.property(word, word, fc.nat(6), (a, b, max) => {
      const full = reference(a, b);
      assert.equal(editDistance(a, b), full);
      assert.equal(editDistance(a, b, max), full > max ? max + 1 : full);
    }),
    { numRuns: 2000 },
  );
});

test("did you mean: case first, then the closest within the length's limit, ties to the earlier", () => {
  assert.equal(closestName("Xtrain", ["xtrain", "Xtrian"]), "xtrain");
  assert.equal(closestName("Xtrian", ["beta", "Xtrain", "Xtrains"]), "Xtrain");
  assert.equal(closestName("lamda", ["lambda", "lamdba"]), "lambda");
  assert.equal(closestName("ab", ["cd", "xy"]), undefined);
  assert.equal(closestName("x", ["y", "X"]), "X");
  assert.equal(closestName("iter", ["iters", "item"]), "iters");
});

test("property: closestName is the unbounded search's answer", () => {
  const word = fc.string({ unit: fc.constantFrom("a", "b", "B", "c", "_"), minLength: 1, maxLength: 10 });
  const unbounded = (name: string, candidates: string[]): string | undefined => {
    const limit = name.length <= 1 ? 0 : name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const c of candidates) {
      if (c === name) continue;
      if (c.toLowerCase() === name.toLowerCase()) return c;
      const d = reference(name.toLowerCase(), c.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [c, d];
    }
    return bestDistance <= limit ? best : undefined;
  };
  fc.assert(fc.property(word, fc.array(word, { maxLength: 12 }), (name, candidates) => closestName(name, candidates) === unbounded(name, candidates)), { numRuns: 2000 });
});
