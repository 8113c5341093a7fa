// sample(range, size, FALSE, seed) is a Fisher-Yates shuffle of 1..range
// stopped after `size` swaps: the same values as the shuffle over a whole
// array of 1..range (a plain reference here), distinct and within range,
// for small and large ranges (a million, of which kmeans samples five).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { SeededRandom } from "../../engine/runtime/kernels/seeded-random";
import { printed } from "./run-script";

function referenceSample(range: number, size: number, seed: number): number[] {
  const random = new SeededRandom(seed);
  const pool = Array.from({ length: range }, (_, i) => i + 1);
  const out: number[] = [];
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random.nextDouble() * (range - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    out.push(pool[i]!);
  }
  return out;
}

function dmlSample(range: number, size: number, seed: number): number[] {
  const text = printed(`s = sample(${range}, ${size}, FALSE, ${seed})\nfor (i in 1:nrow(s)) print(as.scalar(s[i, 1]))`);
  return text === "" ? [] : text.split("\n").map(Number);
}

describe("sample without replacement", () => {
  it("equals the shuffle of the whole range, values distinct and in 1..range", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }).chain((range) => fc.tuple(fc.constant(range), fc.integer({ min: 1, max: range }), fc.integer({ min: 0, max: 1000 }))), ([range, size, seed]) => {
        const got = dmlSample(range, size, seed);
        assert.deepEqual(got, referenceSample(range, size, seed));
        assert.equal(new Set(got).size, size);
        assert.ok(got.every((v) => Number.isInteger(v) && v >= 1 && v <= range));
      }),
      { numRuns: 60 },
    );
  });

  it("five of a million (kmeans' initial centroids) as the whole shuffle gives them", () => {
    assert.deepEqual(dmlSample(1_000_000, 5, 42), referenceSample(1_000_000, 5, 42));
  });
});
