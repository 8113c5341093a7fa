// rand (seeded, reproducible, sparsity, distributions) and seq.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aggregateFull, rand, seq, SeededRandom } from "../../engine/runtime/kernels";
import { csrInvariantViolation, CsrMatrix, matricesEqual, RuntimeError } from "../../engine/runtime/matrix";

describe("rand", () => {
  it("is reproducible for a seed and differs between seeds", () => {
    for (const sparsity of [1, 0.3, 0.01]) {
      const a = rand({ rows: 200, cols: 50, sparsity, seed: 42 });
      const b = rand({ rows: 200, cols: 50, sparsity, seed: 42 });
      const c = rand({ rows: 200, cols: 50, sparsity, seed: 43 });
      assert.ok(matricesEqual(a, b, { relative: 0, absolute: 0 }), `seed 42, sparsity ${sparsity}`);
      assert.ok(!matricesEqual(a, c), `seeds 42 and 43, sparsity ${sparsity}`);
    }
  });

  it("the generator's first values are fixed (the same on every run and platform)", () => {
    const r = new SeededRandom(7);
    const first = [r.nextUint32(), r.nextUint32(), r.nextUint32()];
    const again = new SeededRandom(7);
    assert.deepEqual([again.nextUint32(), again.nextUint32(), again.nextUint32()], first);
    const x = rand({ rows: 2, cols: 2, seed: 7 });
    const y = rand({ rows: 2, cols: 2, seed: 7 });
    assert.deepEqual([x.get(0, 0), x.get(1, 1)], [y.get(0, 0), y.get(1, 1)]);
  });

  it("uniform values lie in [min, max] with the asked share of non-zeros, in the preferred format", () => {
    const x = rand({ rows: 1000, cols: 1000, min: -2, max: 3, sparsity: 0.05, seed: 1 });
    assert.equal(x.format, "sparse");
    assert.equal(csrInvariantViolation(x as CsrMatrix), undefined);
    assert.ok(Math.abs(x.nnz() / 1e6 - 0.05) < 0.002, `sparsity ${x.nnz() / 1e6}`);
    assert.ok(aggregateFull("min", x) >= -2 && aggregateFull("max", x) <= 3);
    const d = rand({ rows: 300, cols: 300, min: 5, max: 6, seed: 2 });
    assert.equal(d.format, "dense");
    assert.equal(d.nnz(), 90_000);
    assert.ok(Math.abs(aggregateFull("mean", d) - 5.5) < 0.01);
    assert.equal(rand({ rows: 10, cols: 10, sparsity: 0, seed: 3 }).nnz(), 0);
    assert.equal(rand({ rows: 0, cols: 10, seed: 3 }).rows, 0);
  });

  it("normal and poisson distributions have the right moments", () => {
    const n = rand({ rows: 20000, cols: 10, pdf: "normal", seed: 5 });
    assert.ok(Math.abs(aggregateFull("mean", n)) < 0.02);
    assert.ok(Math.abs(aggregateFull("sd", n) - 1) < 0.02);
    const p = rand({ rows: 20000, cols: 5, pdf: "poisson", lambda: 3, seed: 6 });
    assert.ok(Math.abs(aggregateFull("mean", p) - 3) < 0.05);
    assert.ok(Math.abs(aggregateFull("var", p) - 3) < 0.1);
    const big = new SeededRandom(9);
    let sum = 0;
    for (let i = 0; i < 200; i++) sum += big.nextPoisson(2000);
    assert.ok(Math.abs(sum / 200 - 2000) < 15, "large lambdas do not underflow");
  });

  it("invalid arguments are RuntimeErrors", () => {
    const invalid = (f: () => unknown, pattern: RegExp) => assert.throws(f, (e: unknown) => e instanceof RuntimeError && e.kind === "invalid-argument" && pattern.test(e.message));
    invalid(() => rand({ rows: 2, cols: 2, sparsity: 1.5 }), /sparsity must be between 0 and 1/);
    invalid(() => rand({ rows: -1, cols: 2 }), /non-negative integers/);
    invalid(() => rand({ rows: 2, cols: 2, min: 3, max: 1 }), /min \(3\) must not exceed max \(1\)/);
  });
});

describe("seq", () => {
  it("counts up, down, by fractions, as SystemDS", () => {
    assert.deepEqual(Array.from(seq(1, 5).data), [1, 2, 3, 4, 5]);
    assert.deepEqual(Array.from(seq(5, 1).data), [5, 4, 3, 2, 1]);
    assert.deepEqual(Array.from(seq(1, 10, 3).data), [1, 4, 7, 10]);
    assert.deepEqual(Array.from(seq(0, 1, 0.25).data), [0, 0.25, 0.5, 0.75, 1]);
    assert.equal(seq(0, 1, 0.1).rows, 11);
    assert.deepEqual(Array.from(seq(3, 3).data), [3]);
    assert.equal(seq(1, 5).cols, 1);
  });

  it("rejects a zero increment or one of the wrong sign", () => {
    assert.throws(() => seq(1, 10, -1), (e: unknown) => e instanceof RuntimeError && /seq\(1, 10, -1\): wrong sign of the increment/.test(e.message));
    assert.throws(() => seq(1, 10, 0), RuntimeError);
  });
});
