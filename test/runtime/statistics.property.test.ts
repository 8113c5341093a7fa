// quantile, median and interQuartileMean on random columns with random
// integer weights equal the order statistics of the values repeated by
// their weights (the definition SystemDS's sorted value/weight table
// implements): quantile(X, W, p) is the ceil(p n)-th smallest (the smallest
// for p = 0), median averages the two middle ones of an even count, the
// inter-quartile mean is the mean over [n/4, 3n/4] with the boundary values
// counted by their overlap; moment and cov do not depend on the order of
// the rows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { STATISTICS_BUILTINS } from "../../engine/runtime/interpreter/builtins-statistics";
import { double, type Value } from "../../engine/runtime/interpreter/values";
import { DenseMatrix } from "../../engine/runtime/matrix";

const column = (xs: number[]): Value => ({ kind: "matrix", matrix: new DenseMatrix(xs.length, 1, Float64Array.from(xs)) });

function call(fn: string, ...args: (number[] | number)[]): number {
  const values = args.map((a) => (typeof a === "number" ? double(a) : column(a)));
  const v = STATISTICS_BUILTINS[fn]!({ values, names: values.map(() => undefined) });
  return (v as Extract<Value, { kind: "scalar" }>).value as number;
}

const weighted = fc
  .integer({ min: 1, max: 30 })
  .chain((n) => fc.tuple(fc.array(fc.oneof(fc.integer({ min: -4, max: 4 }), fc.double({ min: -50, max: 50, noNaN: true })), { minLength: n, maxLength: n }), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: n, maxLength: n })));

const repeated = (x: number[], w: number[]) => x.flatMap((v, i) => Array<number>(w[i]!).fill(v)).sort((a, b) => a - b);

describe("order statistics", () => {
  it("quantile(X, W, p) is the ceil(p n)-th smallest of the values repeated by their weights", () => {
    fc.assert(
      fc.property(weighted, fc.double({ min: 0, max: 1, noNaN: true }), ([x, w], p) => {
        const r = repeated(x, w);
        const expected = r[Math.max(0, Math.ceil(p * r.length) - 1)]!;
        // === and not assert.equal: SystemDS keeps all zeros (-0 too) in one row of value 0.
        assert.ok(call("quantile", x, w, p) === expected, `quantile ${call("quantile", x, w, p)}, expected ${expected}`);
        if (w.every((k) => k === 1)) assert.ok(call("quantile", x, p) === expected);
      }),
      { numRuns: 300 },
    );
  });

  it("median averages the two middle values of an even count; interQuartileMean weighs the boundary values by their overlap", () => {
    fc.assert(
      fc.property(weighted, ([x, w]) => {
        const r = repeated(x, w);
        const n = r.length;
        const median = n % 2 === 1 ? r[(n - 1) / 2]! : (r[n / 2 - 1]! + r[n / 2]!) / 2;
        assert.ok(call("median", x, w) === median, `median ${call("median", x, w)}, expected ${median}`);
        const [lo, hi] = [n / 4, (3 * n) / 4];
        const iqm = r.reduce((s, v, i) => s + v * Math.max(0, Math.min(i + 1, hi) - Math.max(i, lo)), 0) / (n / 2);
        const got = call("interQuartileMean", x, w);
        assert.ok(Math.abs(got - iqm) <= 1e-12 * Math.max(1, ...r.map(Math.abs)), `interQuartileMean ${got}, expected ${iqm}`);
      }),
      { numRuns: 300 },
    );
  });

  it("moment and cov do not depend on the order of the rows", () => {
    fc.assert(
      fc.property(weighted, fc.integer({ min: 2, max: 4 }), ([x, w], k) => {
        const order = x.map((_, i) => i).reverse();
        const permute = (v: number[]) => order.map((i) => v[i]!);
        const scale = Math.max(1, ...x.map(Math.abs)) ** k;
        assert.ok(Math.abs(call("moment", x, w, k) - call("moment", permute(x), permute(w), k)) <= 1e-10 * scale);
        assert.ok(Math.abs(call("cov", x, w) - call("cov", permute(x), permute(w))) <= 1e-10 * scale);
      }),
      { numRuns: 200 },
    );
  });
});
