// Element-wise binary and unary operators against scalar reference code:
// every operator, both formats, every broadcasting shape (same, row vector,
// column vector, 1 x 1, scalar, outer), and the sparse-safe shortcuts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ElementwiseBinaryOp } from "../../engine/program/dag-types";
import { BINARY_OPS, elementwiseBinary, elementwiseUnary, scalarBinary, scalarUnary, UNARY_OPS } from "../../engine/runtime/kernels";
import { CsrMatrix, DenseMatrix, RuntimeError, type Matrix } from "../../engine/runtime/matrix";
import { assertMatches, dim, matrixArb, toMatrix } from "./arbitraries";
import { ref, refBinary, refScalarBinary, refScalarUnary, refUnary, type Ref } from "./reference";

const ops = fc.constantFrom(...BINARY_OPS);

type Side = { ref: Ref | number; m: Matrix | number };

/** Shapes that combine: same, row / column vector on either side, 1 x 1, a scalar, outer (column op row). */
const operandPair = fc
  .tuple(dim(), dim(), fc.constantFrom("same", "row", "column", "1x1", "scalar", "outer"), fc.boolean())
  .chain(([m, n, how, flip]) => {
    const other: fc.Arbitrary<Side> =
      how === "scalar"
        ? fc.integer({ min: -4, max: 4 }).map((v) => ({ ref: v, m: v }))
        : how === "same"
          ? matrixArb(m, n)
          : how === "row"
            ? matrixArb(1, n)
            : how === "column"
              ? matrixArb(m, 1)
              : how === "1x1"
                ? matrixArb(1, 1)
                : matrixArb(1, n);
    const main: fc.Arbitrary<Side> = how === "outer" ? matrixArb(m, 1) : matrixArb(m, n);
    return fc.tuple(main, other).map(([a, b]) => (flip ? [b, a] : [a, b]) as [Side, Side]);
  });

function apply(op: ElementwiseBinaryOp, a: Side, b: Side): Matrix {
  if (typeof a.m === "number") return elementwiseBinary(op, a.m, b.m as Matrix);
  return elementwiseBinary(op, a.m, b.m);
}

describe("element-wise binary", () => {
  it("every operator on every broadcast shape and format equals the scalar reference", () => {
    fc.assert(
      fc.property(ops, operandPair, (op, [a, b]) => {
        const what = `${describe_(a)} ${op} ${describe_(b)}`;
        assertMatches(apply(op, a, b), refBinary(op, a.ref, b.ref), what);
      }),
      { numRuns: 1500 },
    );
  });

  it("sparse-safe shortcuts give the same cells as the dense loop", () => {
    const pair = fc.tuple(dim(12), dim(12)).chain(([m, n]) => fc.tuple(matrixArb(m, n), matrixArb(m, n), matrixArb(1, n), matrixArb(m, 1)));
    fc.assert(
      fc.property(fc.constantFrom<ElementwiseBinaryOp>("*", "+", "-", "!=", "min", "max", "&", "|", "/", ">", "^"), pair, (op, [x, y, row, col]) => {
        const sx = toMatrix(x.ref, "sparse");
        const sy = toMatrix(y.ref, "sparse");
        assertMatches(elementwiseBinary(op, sx, sy), refBinary(op, x.ref, y.ref), `sparse ${op} sparse`);
        assertMatches(elementwiseBinary(op, sx, toMatrix(y.ref, "dense")), refBinary(op, x.ref, y.ref), `sparse ${op} dense`);
        assertMatches(elementwiseBinary(op, toMatrix(y.ref, "dense"), sx), refBinary(op, y.ref, x.ref), `dense ${op} sparse`);
        assertMatches(elementwiseBinary(op, sx, 2), refBinary(op, x.ref, 2), `sparse ${op} 2`);
        assertMatches(elementwiseBinary(op, 2, sx), refBinary(op, 2, x.ref), `2 ${op} sparse`);
        assertMatches(elementwiseBinary(op, sx, row.m), refBinary(op, x.ref, row.ref), `sparse ${op} row`);
        assertMatches(elementwiseBinary(op, col.m, sx), refBinary(op, col.ref, x.ref), `column ${op} sparse`);
      }),
      { numRuns: 300 },
    );
  });

  it("X * s and X * Y on CSR keep (a subset of) the pattern and stay sparse", () => {
    const x = CsrMatrix.fromTriples(100, 100, [[0, 1, 2], [5, 7, -3], [99, 99, 4]]);
    const y = CsrMatrix.fromTriples(100, 100, [[5, 7, 2], [50, 50, 1]]);
    const scaled = elementwiseBinary("*", x, 3);
    assert.equal(scaled.format, "sparse");
    assert.equal(scaled.nnz(), 3);
    assert.equal(scaled.get(5, 7), -9);
    const product = elementwiseBinary("*", x, y);
    assert.equal(product.nnz(), 1);
    assert.equal(product.get(5, 7), -6);
    const sum = elementwiseBinary("+", x, y);
    assert.equal(sum.nnz(), 4);
    assert.equal(sum.get(5, 7), -1);
    assert.equal(elementwiseBinary("*", x, 0).nnz(), 0);
    assert.equal(elementwiseBinary("-", x, x).nnz(), 0);
  });

  it("DML scalar semantics: %% takes the divisor's sign, %/% floors, 0/0 is NaN, comparisons give 0/1", () => {
    assert.equal(scalarBinary("%%", -5, 3), 1);
    assert.equal(scalarBinary("%%", 5, -3), -1);
    assert.equal(scalarBinary("%%", 5.5, 2), 1.5);
    assert.ok(Number.isNaN(scalarBinary("%%", 5, 0)));
    assert.equal(scalarBinary("%/%", -7, 2), -4);
    assert.equal(scalarBinary("%/%", 7, 2), 3);
    assert.equal(scalarBinary("%/%", 5, 0), Infinity);
    assert.ok(Number.isNaN(scalarBinary("/", 0, 0)));
    assert.ok(Number.isNaN(scalarBinary("%/%", 0, 0)));
    assert.equal(scalarBinary("<", 1, 2), 1);
    assert.equal(scalarBinary("==", NaN, NaN), 0);
    assert.equal(scalarBinary("!=", NaN, NaN), 1);
    assert.equal(scalarBinary("&", NaN, 1), 1);
    assert.equal(scalarBinary("xor", 0, 3), 1);
    assert.equal(scalarBinary("bitwAnd", 12, 10), 8);
    assert.equal(scalarBinary("bitwShiftL", 1, 40), 2 ** 40);
    assert.equal(scalarBinary("log", 8, 2), 3);
    for (const op of BINARY_OPS) for (const [x, y] of [[3, 2], [-2.5, 1.5], [0, 0], [4, -3]]) {
      const got = scalarBinary(op, x!, y!);
      const want = refScalarBinary(op, x!, y!);
      assert.ok(Object.is(got, want) || got === want, `${x} ${op} ${y}: ${got} vs ${want}`);
    }
  });

  it("mismatched shapes are a RuntimeError naming both", () => {
    const a = new DenseMatrix(2, 3);
    for (const b of [new DenseMatrix(3, 2), new DenseMatrix(2, 2), new DenseMatrix(1, 2), CsrMatrix.empty(3, 1)]) {
      assert.throws(
        () => elementwiseBinary("+", a, b),
        (e: unknown) => e instanceof RuntimeError && e.kind === "dimension-mismatch" && e.message.includes("2 x 3") && e.message.includes(`${b.rows} x ${b.cols}`),
      );
    }
  });
});

describe("element-wise unary", () => {
  it("every function in both formats equals the scalar reference", () => {
    const input = fc.tuple(dim(8), dim(8)).chain(([m, n]) => matrixArb(m, n));
    fc.assert(
      fc.property(fc.constantFrom(...UNARY_OPS), input, (op, x) => {
        assertMatches(elementwiseUnary(op, x.m), refUnary(op, x.ref), `${op}(${x.m.format})`);
      }),
      { numRuns: 600 },
    );
  });

  it("keeps a CSR pattern when f(0) = 0 and fills f(0) around it otherwise", () => {
    const x = CsrMatrix.fromTriples(50, 50, [[1, 1, 0.3], [2, 2, -4]]);
    const rounded = elementwiseUnary("round", x);
    assert.equal(rounded.format, "sparse");
    assert.equal(rounded.nnz(), 1, "round(0.3) = 0 is dropped");
    const e = elementwiseUnary("exp", x);
    assert.equal(e.format, "dense");
    assert.equal(e.get(0, 0), 1);
    assert.equal(e.get(2, 2), Math.exp(-4));
    for (const op of UNARY_OPS) for (const v of [0, -1.5, 2, NaN, Infinity]) assert.ok(Object.is(scalarUnary(op, v), refScalarUnary(op, v)), `${op}(${v})`);
  });

  it("NaN and infinities: is.na, is.nan, is.infinite, !", () => {
    const x = new DenseMatrix(1, 4, Float64Array.of(NaN, Infinity, -Infinity, 0));
    assertMatches(elementwiseUnary("is.nan", x), ref(1, 4, [1, 0, 0, 0]), "is.nan", false);
    assertMatches(elementwiseUnary("is.infinite", x), ref(1, 4, [0, 1, 1, 0]), "is.infinite", false);
    assertMatches(elementwiseUnary("!", x), ref(1, 4, [0, 0, 0, 1]), "!", false);
  });
});

function describe_(s: Side): string {
  return typeof s.m === "number" ? `${s.m}` : `${s.m.rows}x${s.m.cols} ${s.m.format}`;
}
