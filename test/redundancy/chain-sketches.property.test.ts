// Properties of the chain costs with MNC sketches (chain-sketches.ts):
// a sub-chain has one size whatever windows are forced, MNC's exact case
// (a left side with at most one non-zero per row) gives the exact nnz of
// the boolean product, and a chain with fewer than two sketched factors
// keeps the uniform estimates it had without sketches.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { chainCost } from "../../engine/redundancy/chain-cost";
import type { Atom, Factor } from "../../engine/redundancy/chain-terms";
import { mncEstimator } from "../../engine/stats/estimators";
import { structureFromRows } from "../../engine/stats/structure";

type Pattern = number[][];

const pattern = (rows: number, cols: number, maxPerRow = cols) =>
  fc.array(fc.uniqueArray(fc.integer({ min: 0, max: cols - 1 }), { maxLength: maxPerRow }), { minLength: rows, maxLength: rows }).map((lists) =>
    lists.map((list) => Array.from({ length: cols }, (_, j) => (list.includes(j) ? 1 : 0))),
  );

function factor(name: string, m: Pattern, sketched: boolean, leaf: number): Factor {
  const nnz = m.flat().filter((v) => v !== 0).length;
  const atom: Atom = { key: name, text: name, name, size: { rows: m.length, cols: m[0]!.length, nnz }, invariantLoops: 0, symmetric: false };
  if (sketched) atom.sketch = mncEstimator.fromData(structureFromRows(m));
  return { atom, transposed: false, leaf };
}

function booleanProductNnz(a: Pattern, b: Pattern): number {
  let nnz = 0;
  for (const row of a) for (let j = 0; j < b[0]!.length; j++) if (row.some((v, k) => v !== 0 && b[k]![j] !== 0)) nnz++;
  return nnz;
}

/** Dims d0..dn and one pattern per factor. */
const chain = fc
  .array(fc.integer({ min: 1, max: 6 }), { minLength: 3, maxLength: 5 })
  .chain((dims) => fc.tuple(fc.constant(dims), fc.tuple(...dims.slice(1).map((d, i) => pattern(dims[i]!, d)))));

describe("chain costs with MNC sketches", () => {
  it("the whole chain's size does not depend on the windows forced in it", () => {
    fc.assert(
      fc.property(chain, fc.nat(), ([, patterns], pick) => {
        const factors = patterns.map((m, i) => factor(`M${i}`, m, true, i));
        const free = chainCost(factors)!;
        const start = pick % (factors.length - 1);
        const forced = chainCost(factors, [{ start, end: start + 1 }])!;
        assert.deepEqual(forced.size, free.size);
        assert.equal(free.estimator, "mnc");
      }),
      { numRuns: 200 },
    );
  });

  it("a left side with at most one non-zero per row: MNC's nnz is the exact nnz of the product", () => {
    const pair = fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 })).chain(([m, k, n]) => fc.tuple(pattern(m, k, 1), pattern(k, n)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const cost = chainCost([factor("A", a, true, 0), factor("B", b, true, 1)])!;
        assert.equal(cost.size.nnz, booleanProductNnz(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it("fewer than two sketched factors: the uniform estimates, as without sketches", () => {
    fc.assert(
      fc.property(chain, fc.nat(), ([, patterns], which) => {
        const one = which % patterns.length;
        const mixed = chainCost(patterns.map((m, i) => factor(`M${i}`, m, i === one, i)))!;
        const plain = chainCost(patterns.map((m, i) => factor(`M${i}`, m, false, i)))!;
        assert.equal(mixed.estimator, "uniform");
        assert.deepEqual({ ...mixed, estimator: undefined }, { ...plain, estimator: undefined });
      }),
      { numRuns: 200 },
    );
  });
});
