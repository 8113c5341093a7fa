// The tall-skinny dense product (kernels/skinny-matmul.ts): every width it
// takes (unrolled and generic) against the naive triple loop, through
// matmul's dispatch, on inputs large enough to be split into row ranges
// over the kernel threads, whose result must have the same bits as one range.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { matmul } from "../../engine/runtime/kernels";
import { isSkinnyDenseProduct, skinnyMatmul } from "../../engine/runtime/kernels/skinny-matmul";
import { DenseMatrix, isDense } from "../../engine/runtime/matrix";

function denseOf(rows: number, cols: number, seed: number): DenseMatrix {
  const m = new DenseMatrix(rows, cols);
  let s = seed;
  for (let i = 0; i < m.data.length; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    m.data[i] = s / 2147483648 - 0.5;
  }
  return m;
}

function naive(a: DenseMatrix, b: DenseMatrix): Float64Array {
  const c = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++) for (let j = 0; j < b.cols; j++) {
    let s = 0;
    for (let p = 0; p < a.cols; p++) s += a.data[i * a.cols + p]! * b.data[p * b.cols + j]!;
    c[i * b.cols + j] = s;
  }
  return c;
}

function assertClose(actual: Float64Array, expected: Float64Array, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= 1e-12 * Math.max(1, Math.abs(expected[i]!)), `${what}: cell ${i}: ${actual[i]} vs ${expected[i]}`);
  }
}

describe("tall-skinny dense matmul", () => {
  it("takes tall products with 2..16 columns and a small right operand only", () => {
    assert.ok(isSkinnyDenseProduct(1_000_000, 10, 2));
    assert.ok(isSkinnyDenseProduct(1000, 10, 16));
    assert.ok(!isSkinnyDenseProduct(1000, 10, 1), "a column is a GEMV");
    assert.ok(!isSkinnyDenseProduct(1000, 10, 17));
    assert.ok(!isSkinnyDenseProduct(1000, 1000, 8), "B of 8000 values");
    assert.ok(!isSkinnyDenseProduct(30, 10, 2), "not tall");
  });

  it("equals the naive triple loop for every width, through matmul", () => {
    fc.assert(
      fc.property(fc.integer({ min: 160, max: 400 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 2, max: 16 }), fc.integer({ min: 1, max: 1000 }), (m, k, n, seed) => {
        const a = denseOf(m, k, seed);
        const b = denseOf(k, n, seed + 1);
        const c = matmul(a, b);
        assert.ok(isDense(c));
        assertClose(c.data, naive(a, b), `${m}x${k} times ${k}x${n}`);
      }),
      { numRuns: 60 },
    );
  });

  it("gives the same bits split into row ranges as in one range", () => {
    for (const n of [2, 3, 9, 16]) {
      const m = 200_000;
      const a = denseOf(m, 10, 7);
      const b = denseOf(10, n, 8);
      const split = new Float64Array(m * n);
      skinnyMatmul(a.data, b.data, split, m, 10, n);
      const expected = naive(a, b);
      assertClose(split, expected, `width ${n}`);
      // One range: the same kernel on the first and second half separately.
      const half = new Float64Array(m * n);
      skinnyMatmul(a.data.subarray(0, (m / 2) * 10), b.data, half.subarray(0, (m / 2) * n), m / 2, 10, n);
      skinnyMatmul(a.data.subarray((m / 2) * 10), b.data, half.subarray((m / 2) * n), m / 2, 10, n);
      assert.deepEqual(half, split, `width ${n}: halves`);
    }
  });
});
