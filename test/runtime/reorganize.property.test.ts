// Indexing, left indexing, cbind / rbind, diag, cumsum, rowIndexMax,
// reshape and table against plain loops, in both formats.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { cbind, cumsum, diag, leftIndex, rbind, reshape, rightIndex, rowIndexMax, table } from "../../engine/runtime/kernels";
import { DenseMatrix, RuntimeError } from "../../engine/runtime/matrix";
import { assertMatches, dim, matrixArb, shapeArb, toMatrix } from "./arbitraries";
import { at, ref, refCbind, refCumsum, refIndex, refLeftIndex, refRbind, refReshape, refRowIndexMax, refTable } from "./reference";

const runs = { numRuns: 300 };

/** A matrix of at least 1 x 1 and a valid 1-based range in it. */
const withRange = fc
  .tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }))
  .chain(([m, n]) =>
    fc.tuple(matrixArb(m, n), fc.integer({ min: 1, max: m }), fc.integer({ min: 1, max: m }), fc.integer({ min: 1, max: n }), fc.integer({ min: 1, max: n })),
  )
  .map(([x, r1, r2, c1, c2]) => ({ x, rl: Math.min(r1, r2), ru: Math.max(r1, r2), cl: Math.min(c1, c2), cu: Math.max(c1, c2) }));

describe("indexing", () => {
  it("X[rl:ru, cl:cu] copies the range", () => {
    fc.assert(
      fc.property(withRange, ({ x, rl, ru, cl, cu }) => {
        const got = rightIndex(x.m, { rowLower: rl, rowUpper: ru, colLower: cl, colUpper: cu });
        assertMatches(got, refIndex(x.ref, rl, ru, cl, cu), `${x.m.format}[${rl}:${ru}, ${cl}:${cu}]`);
      }),
      runs,
    );
  });

  it("omitted bounds take the whole extent, also of an empty matrix", () => {
    const x = toMatrix(ref(3, 2, [1, 2, 3, 4, 5, 6]), "dense");
    assertMatches(rightIndex(x, { colLower: 2, colUpper: 2 }), ref(3, 1, [2, 4, 6]), "X[, 2]");
    assertMatches(rightIndex(x, { rowLower: 2, rowUpper: 2 }), ref(1, 2, [3, 4]), "X[2, ]");
    assertMatches(rightIndex(new DenseMatrix(0, 4), {}), ref(0, 4), "empty X[, ]");
  });

  it("X[rl:ru, cl:cu] = Y replaces the range and leaves X unchanged", () => {
    fc.assert(
      fc.property(
        withRange.chain((r) => fc.tuple(fc.constant(r), matrixArb(r.ru - r.rl + 1, r.cu - r.cl + 1))),
        fc.boolean(),
        ([{ x, rl, ru, cl, cu }, y], scalar) => {
          const before = x.ref.cells.slice();
          const range = { rowLower: rl, rowUpper: ru, colLower: cl, colUpper: cu };
          const got = leftIndex(x.m, scalar ? 7 : y.m, range);
          assertMatches(got, refLeftIndex(x.ref, scalar ? 7 : y.ref, rl, ru, cl, cu), `${x.m.format}[..] = ${scalar ? 7 : y.m.format}`);
          assertMatches(x.m, ref(x.ref.rows, x.ref.cols, before), "target unchanged", false);
        },
      ),
      runs,
    );
  });

  it("in place on a dense target when asked", () => {
    const x = new DenseMatrix(2, 2);
    const out = leftIndex(x, 5, { rowLower: 2, rowUpper: 2, colLower: 1, colUpper: 2 }, { inPlace: true });
    assert.equal(out, x);
    assert.deepEqual(x.toRows(), [[0, 0], [5, 5]]);
  });

  it("out-of-range indices and mismatched right-hand sides are RuntimeErrors", () => {
    const x = new DenseMatrix(10, 5);
    const check = (f: () => unknown, kind: string, pattern: RegExp) =>
      assert.throws(f, (e: unknown) => e instanceof RuntimeError && e.kind === kind && pattern.test(e.message));
    check(() => rightIndex(x, { rowLower: 0, rowUpper: 3 }), "index-out-of-range", /\[0:3, \] on a 10 x 5 matrix: row index out of range \(valid rows are 1\.\.10/);
    check(() => rightIndex(x, { colLower: 6, colUpper: 6 }), "index-out-of-range", /column index out of range \(valid columns are 1\.\.5/);
    check(() => rightIndex(x, { rowLower: 4, rowUpper: 2 }), "index-out-of-range", /lower row bound 4 exceeds the upper bound 2/);
    check(() => leftIndex(x, new DenseMatrix(2, 2), { rowLower: 1, rowUpper: 3, colLower: 1, colUpper: 2 }), "dimension-mismatch", /right-hand side is 2 x 2 .* is 3 x 2/);
    check(() => leftIndex(x, 1, { rowLower: 11, rowUpper: 11 }), "index-out-of-range", /left indexing/);
  });
});

describe("cbind, rbind", () => {
  const parts = (byRows: boolean) =>
    fc.tuple(dim(), fc.array(dim(), { minLength: 1, maxLength: 4 })).chain(([shared, sizes]) =>
      fc.tuple(...sizes.map((s) => (byRows ? matrixArb(shared, s) : matrixArb(s, shared)))),
    );

  it("cbind puts matrices side by side", () => {
    fc.assert(fc.property(parts(true), (ps) => assertMatches(cbind(...ps.map((p) => p.m)), refCbind(ps.map((p) => p.ref)), "cbind")), runs);
  });

  it("rbind stacks them", () => {
    fc.assert(fc.property(parts(false), (ps) => assertMatches(rbind(...ps.map((p) => p.m)), refRbind(ps.map((p) => p.ref)), "rbind")), runs);
  });

  it("mismatched sides are RuntimeErrors", () => {
    assert.throws(() => cbind(new DenseMatrix(2, 1), new DenseMatrix(3, 1)), /cbind: the matrices must have the same number of rows, but a 2 x 1 is combined with a 3 x 1/);
    assert.throws(() => rbind(new DenseMatrix(2, 1), new DenseMatrix(2, 2)), /rbind: .* same number of columns/);
  });
});

describe("diag, cumsum, rowIndexMax", () => {
  it("diag of a column vector is a diagonal matrix; of a square matrix its diagonal", () => {
    fc.assert(
      fc.property(dim(8).chain((n) => fc.tuple(matrixArb(n, 1), matrixArb(n, n))), ([v, x]) => {
        const n = v.ref.rows;
        const d = ref(n, n);
        for (let i = 0; i < n; i++) d.cells[i * n + i] = v.ref.cells[i]!;
        assertMatches(diag(v.m), d, "diag(v)");
        if (n !== 1) assertMatches(diag(x.m), ref(n, 1, Array.from({ length: n }, (_, i) => at(x.ref, i, i))), "diag(X)");
      }),
      runs,
    );
    assert.throws(() => diag(new DenseMatrix(2, 3)), (e: unknown) => e instanceof RuntimeError && /square matrix, got a 2 x 3/.test(e.message));
  });

  it("cumsum runs down each column", () => {
    fc.assert(fc.property(shapeArb(8).chain(([m, n]) => matrixArb(m, n)), (x) => assertMatches(cumsum(x.m), refCumsum(x.ref), `cumsum ${x.m.format}`)), runs);
  });

  it("rowIndexMax gives the last column of each row's maximum", () => {
    const smallInts = shapeArb(8).chain(([m, n]) => matrixArb(m, n)).map((x) => x);
    fc.assert(fc.property(smallInts, (x) => assertMatches(rowIndexMax(x.m), refRowIndexMax(x.ref), `rowIndexMax ${x.m.format}`, false)), runs);
    const ties = DenseMatrix.fromRows([[3, 1, 3], [NaN, NaN, NaN], [-1, 0, -2], [NaN, 2, NaN]]);
    assert.deepEqual((rowIndexMax(ties) as DenseMatrix).toRows(), [[3], [0], [2], [2]]);
    assert.deepEqual(rowIndexMax(toMatrix(ref(2, 3, [-1, 0, 0, 0, -2, 0]), "sparse")).toRows(), [[3], [3]]);
  });
});

describe("reshape and table", () => {
  it("matrix(X, rows, cols, byrow) keeps the cells in row or column order", () => {
    const input = fc
      .tuple(dim(), dim(), dim())
      .chain(([a, b, c]) => fc.tuple(matrixArb(a * b, c), fc.constant([a, b * c] as const), fc.boolean()));
    fc.assert(
      fc.property(input, ([x, [rows, cols], byRow]) => {
        assertMatches(reshape(x.m, rows, cols, byRow), refReshape(x.ref, rows, cols, byRow), `reshape ${x.m.format} byrow=${byRow}`);
      }),
      runs,
    );
    assert.throws(() => reshape(new DenseMatrix(3, 4), 5, 2), /cannot reshape a 3 x 4 matrix \(12 cells\) into 5 x 2 \(10 cells\)/);
  });

  it("table(A, B, W) sums the weights per pair of categories", () => {
    const cats = fc.integer({ min: 1, max: 5 });
    const data = fc.integer({ min: 0, max: 12 }).chain((n) =>
      fc.tuple(fc.array(cats, { minLength: n, maxLength: n }), fc.array(cats, { minLength: n, maxLength: n }), fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n })),
    );
    fc.assert(
      fc.property(data, fc.constantFrom("dense", "sparse" as const), ([a, b, w], f) => {
        const col = (v: number[]) => toMatrix(ref(v.length, 1, v), f);
        assertMatches(table(col(a), col(b), col(w)), refTable(a, b, w), "table(A, B, W)");
        assertMatches(table(col(a), col(b)), refTable(a, b, a.map(() => 1)), "table(A, B)");
      }),
      runs,
    );
  });

  it("table(A, B, W) with rows of many cells (a comparison sort) and of few (an insertion sort)", () => {
    const data = fc.integer({ min: 0, max: 150 }).chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 1, max: 2 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }),
      ),
    );
    fc.assert(
      fc.property(data, ([a, b, w]) => {
        const col = (v: number[]) => toMatrix(ref(v.length, 1, v), "dense");
        assertMatches(table(col(a), col(b), col(w)), refTable(a, b, w), "table(A, B, W)");
      }),
      { numRuns: 100 },
    );
  });

  it("table(A, B, W) with increasing rows (one-hot labels: one entry per row, built as CSR directly), and rows that repeat", () => {
    const data = fc.integer({ min: 0, max: 40 }).chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: n % 3 === 0 ? 0 : 1, max: 3 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: -2, max: 2 }), { minLength: n, maxLength: n }),
        fc.option(fc.tuple(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 1, max: 4 }))),
      ),
    );
    fc.assert(
      fc.property(data, ([gaps, b, w, dims]) => {
        const a: number[] = [];
        gaps.forEach((g, k) => a.push(Math.max(1, (a[k - 1] ?? 0) + g)));
        const col = (v: number[]) => toMatrix(ref(v.length, 1, v), "dense");
        const [rows, cols] = dims ?? [Math.max(0, ...a), Math.max(0, ...b)];
        const sized = (weights: number[]) => {
          const out = ref(rows, cols);
          a.forEach((r, k) => {
            if (r <= rows && b[k]! <= cols) out.cells[(r - 1) * cols + (b[k]! - 1)]! += weights[k]!;
          });
          return out;
        };
        const given = dims === null ? undefined : { rows, cols };
        assertMatches(table(col(a), col(b), col(w), given), sized(w), "table(A, B, W)");
        assertMatches(table(col(a), col(b), 1, given), sized(a.map(() => 1)), "table(A, B)");
      }),
      runs,
    );
  });

  it("table skips NaN, takes a scalar, honours given dimensions, rejects categories below 1", () => {
    const a = new DenseMatrix(4, 1, Float64Array.of(1, 2, NaN, 3));
    assertMatches(table(a, 2), ref(3, 2, [0, 1, 0, 1, 0, 1]), "table(A, 2)");
    assertMatches(table(a, a, 1, { rows: 2, cols: 2 }), ref(2, 2, [1, 0, 0, 1]), "table with dims");
    assert.throws(
      () => table(new DenseMatrix(2, 1, Float64Array.of(1, 0)), 1),
      (e: unknown) => e instanceof RuntimeError && /categories must be positive integers, but cell 2 has \(0, 1\)/.test(e.message),
    );
  });
});
