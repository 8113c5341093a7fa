// Paired rounds of the redundancy bench (cli/paired-rounds.ts): plans timed
// in the same rounds are compared by the median of their per-round ratios,
// and a pair the first rounds do not separate gets a fixed number of rounds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { extendPairedRounds, judgePair, PAIRED_ROUNDS, pairedComparison, pairedText, rangesOverlap, TIMING_RESOLUTION } from "../../cli/paired-rounds";

describe("paired rounds", () => {
  it("the median of per-round ratios separates plans whose per-plan medians mix loaded rounds", () => {
    // Round loads 1, 3, 1.5, 2, 1: ours is 5% faster within every round.
    const loads = [1, 3, 1.5, 2, 1];
    const other = loads.map((l) => 100 * l);
    const ours = loads.map((l) => 95 * l);
    const c = pairedComparison(ours, other);
    assert.equal(c.rounds, 5);
    assert.equal(c.wins, 5);
    assert.ok(Math.abs(c.ratio - 100 / 95) < 1e-12, String(c.ratio));
    assert.equal(pairedText(c), "1.053 (faster in 5 of 5 rounds)");
    // Their ranges overlap although one is faster in every round.
    assert.ok(rangesOverlap(ours, other));
  });

  it("slower rounds count against ours; the ratio is below 1 when ours is slower in most", () => {
    const c = pairedComparison([110, 120, 90], [100, 100, 100]);
    assert.equal(c.wins, 1);
    assert.ok(Math.abs(c.ratio - 100 / 110) < 1e-12);
  });

  it("ranges that do not meet need no more rounds; overlapping ones get PAIRED_ROUNDS, the first runner alternating", () => {
    const ours = [10, 11, 12];
    const other = [20, 21, 22];
    let calls = 0;
    extendPairedRounds(ours, other, () => calls++, () => calls++);
    assert.equal(calls, 0);
    assert.equal(ours.length, 3);

    const order: string[] = [];
    const a = [10, 20];
    const b = [15, 25];
    extendPairedRounds(a, b, () => (order.push("ours"), 12), () => (order.push("other"), 13), 5);
    assert.equal(a.length, 5);
    assert.equal(b.length, 5);
    // Round 3 (index 2): ours first; round 4: other first; round 5: ours first.
    assert.deepEqual(order, ["ours", "other", "other", "ours", "ours", "other"]);
    assert.ok(PAIRED_ROUNDS >= 10);
  });

  it("plans estimated apart must measure faster; plans estimated within the resolution must not measure slower beyond it", () => {
    const measured = (ratio: number) => ({ ratio, wins: 0, rounds: 15 });
    assert.equal(TIMING_RESOLUTION, 0.05);
    assert.equal(judgePair(1.5, measured(1.2)), "faster");
    assert.equal(judgePair(1.5, measured(0.99)), "not faster");
    assert.equal(judgePair(1.01, measured(0.97)), "equal within resolution");
    assert.equal(judgePair(1.01, measured(1.2)), "equal within resolution");
    assert.equal(judgePair(1.01, measured(0.93)), "slower beyond resolution");
    // At the boundary the estimate counts as apart.
    assert.equal(judgePair(1.05, measured(0.97)), "not faster");
  });

  it("property: scaling both plans of a round by that round's load leaves the comparison unchanged", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 1, max: 100, noNaN: true }), fc.double({ min: 1, max: 100, noNaN: true }), fc.double({ min: 0.5, max: 4, noNaN: true })), { minLength: 1, maxLength: 20 }),
        (rounds) => {
          const plain = pairedComparison(
            rounds.map(([a]) => a),
            rounds.map(([, b]) => b),
          );
          const loaded = pairedComparison(
            rounds.map(([a, , l]) => a * l),
            rounds.map(([, b, l]) => b * l),
          );
          return Math.abs(plain.ratio - loaded.ratio) <= 1e-9 * plain.ratio && plain.wins === loaded.wins;
        },
      ),
    );
  });
});
