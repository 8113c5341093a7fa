/**
 * Random inputs for the rewrite verifier stay bounded whatever sizes the
 * analysis hands over: huge dims shrink (1e308 rows, an overflowed
 * 1e308 x 1e308), and a NaN, infinite, negative or fractional dimension is
 * refused with a reason instead of looping.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_SHRUNK_DIMENSION, randomInputs, shapeProblem, shrinkDimensions, type VariableShape } from "../../engine/suggest/random-inputs";
import { verifyRewrite } from "../../engine/suggest/verify-rewrite";

const matrix = (name: string, rows: number, cols: number): VariableShape => ({ name, kind: "matrix", rows, cols });

test("huge dimensions shrink to small, distinct sizes", () => {
  for (const shapes of [[matrix("X", 1e308, 0)], [matrix("X", 1e308, 1e308)], [matrix("X", 1e308, 2), matrix("Y", 1e200, 1e200), matrix("Z", 3, 1e308)]]) {
    const dims = shrinkDimensions(shapes, 40_000);
    for (const [d, small] of dims) {
      assert.ok(Number.isInteger(small) && small >= 0 && small <= MAX_SHRUNK_DIMENSION + dims.size, `${d} -> ${small}`);
      if (d <= 1) assert.equal(small, d);
    }
    const distinct = new Set([...dims.keys()].filter((d) => d > 1).map((d) => dims.get(d)));
    assert.equal(distinct.size, [...dims.keys()].filter((d) => d > 1).length, "distinct sizes stay distinct");
    const inputs = randomInputs(shapes, "dense", 1);
    for (const s of shapes) {
      const value = inputs.get(s.name)!;
      assert.equal(value.kind, "matrix");
    }
  }
});

test("NaN, infinite, negative and fractional dimensions are refused with the variable named", () => {
  const cases: [VariableShape[], RegExp][] = [
    [[matrix("X", Number.NaN, 3), matrix("Y", Number.POSITIVE_INFINITY, 2)], /X has NaN rows/],
    [[matrix("Y", 2, Number.POSITIVE_INFINITY)], /Y has Infinity cols/],
    [[matrix("Z", -5, 3)], /Z has -5 rows/],
    [[matrix("W", 2.5, 3)], /W has 2.5 rows/],
    [[{ name: "n", kind: "scalar", value: 1e-308, dimension: true }], /n = 1e-308 is used as a size/],
  ];
  for (const [shapes, reason] of cases) {
    assert.match(shapeProblem(shapes) ?? "", reason);
    assert.throws(() => shrinkDimensions(shapes, 40_000), reason);
    const verdict = verifyRewrite("X", "X", shapes);
    assert.equal(verdict.verified, false);
    assert.match((verdict as { reason: string }).reason, reason);
  }
});

test("a known scalar used as a size follows the shrinking of the matrix it describes", () => {
  const shapes: VariableShape[] = [matrix("X", 100_000, 1), { name: "n", kind: "scalar", value: 100_000, dimension: true }];
  const inputs = randomInputs(shapes, "dense", 7);
  const x = inputs.get("X")!;
  const n = inputs.get("n")!;
  assert.ok(x.kind === "matrix" && n.kind === "scalar");
  assert.equal(n.value, (x as { matrix: { rows: number } }).matrix.rows);
  assert.ok((n.value as number) <= MAX_SHRUNK_DIMENSION);
  const verdict = verifyRewrite("X + matrix(1, rows=n, cols=1)", "matrix(1, rows=n, cols=1) + X", shapes);
  assert.deepEqual(verdict, { verified: true, trials: 6 });
});
