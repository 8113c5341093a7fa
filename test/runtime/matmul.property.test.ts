// Matrix multiply in every dense/CSR combination, t(X) %*% X and transpose
// against naive triple loops, on random shapes including empty, 1 x 1 and
// vectors, and on sizes that cross the GEMM's cache and register blocks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { matmul, transpose, transposedLeftProduct, tsmm } from "../../engine/runtime/kernels";
import { isDense, RuntimeError } from "../../engine/runtime/matrix";
import { assertMatches, dim, formatArb, matrixArb, refArb, toMatrix } from "./arbitraries";
import { ref, refMatmul, refTranspose } from "./reference";

const runs = { numRuns: 300 };

const productPair = fc
  .tuple(dim(7), dim(7), dim(7))
  .chain(([m, k, n]) => fc.tuple(matrixArb(m, k), matrixArb(k, n)));

describe("matmul", () => {
  it("equals the naive triple loop for every format combination", () => {
    fc.assert(
      fc.property(productPair, ([a, b]) => {
        assertMatches(matmul(a.m, b.m), refMatmul(a.ref, b.ref), `${a.m.format} x ${b.m.format}`);
      }),
      runs,
    );
  });

  it("matrix-vector and vector-matrix products (GEMV, SpMV)", () => {
    const pair = fc.tuple(dim(9), dim(9)).chain(([m, k]) => fc.tuple(matrixArb(m, k), matrixArb(k, 1), matrixArb(1, m)));
    fc.assert(
      fc.property(pair, ([a, x, y]) => {
        assertMatches(matmul(a.m, x.m), refMatmul(a.ref, x.ref), "A x");
        assertMatches(matmul(y.m, a.m), refMatmul(y.ref, a.ref), "y A");
      }),
      runs,
    );
  });

  it("crosses the GEMM's cache blocks and 4 x 4 register blocks", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[number, number, number]>([7, 130, 515], [9, 259, 3], [5, 3, 1030], [1, 300, 600], [4, 4, 4], [13, 129, 17]),
        formatArb,
        formatArb,
        ([m, k, n], fa, fb) => {
          const a = randomRef(m, k, 0.7, m * 31 + k);
          const b = randomRef(k, n, 0.7, n * 17 + k);
          assertMatches(matmul(toMatrix(a, fa), toMatrix(b, fb)), refMatmul(a, b), `${m}x${k}x${n} ${fa} x ${fb}`);
        },
      ),
      { numRuns: 12 },
    );
  });

  it("rejects inner dimensions that differ with a RuntimeError", () => {
    const a = toMatrix(ref(2, 3), "dense");
    const b = toMatrix(ref(4, 2), "sparse");
    assert.throws(() => matmul(a, b), (e: unknown) => e instanceof RuntimeError && e.kind === "dimension-mismatch" && /2 x 3.*4 x 2/.test(e.message));
  });
});

describe("t(X) %*% B without forming t(X)", () => {
  it("t(X) %*% y has the bits of t(X) times y (GEMV, SpMV), and t(X) %*% X the values of t(X) times X", () => {
    // Up to 13 rows: row counts on both sides of a multiple of four (the tail of GEMV's four accumulators).
    const cases = fc.tuple(dim(13), dim(9)).chain(([m, n]) => fc.tuple(matrixArb(m, n), matrixArb(m, 1)));
    fc.assert(
      fc.property(cases, ([x, y]) => {
        const viaTranspose = matmul(transpose(x.m), y.m);
        const direct = transposedLeftProduct(x.m, y.m);
        assert.ok(direct !== undefined, "a column y is taken");
        assert.equal(direct.rows, viaTranspose.rows);
        assert.equal(direct.cols, 1);
        for (let i = 0; i < direct.rows; i++) assert.ok(Object.is(direct.get(i, 0), viaTranspose.get(i, 0)), `${x.m.format} X, cell ${i + 1}: ${direct.get(i, 0)} vs ${viaTranspose.get(i, 0)}`);
        const gram = transposedLeftProduct(x.m, x.m);
        if (gram !== undefined) assertMatches(gram, refMatmul(refTranspose(x.ref), x.ref), `t(X) X ${x.m.format}`, false);
      }),
      runs,
    );
  });

  it("t(X) %*% B for a dense X and a CSR B has the bits of t(X) times B; other matrices B are left to the caller", () => {
    const cases = fc.tuple(dim(13), dim(7), fc.integer({ min: 2, max: 6 })).chain(([m, k, n]) => fc.tuple(matrixArb(m, k), matrixArb(m, n)));
    fc.assert(
      fc.property(cases, ([x, b]) => {
        const direct = transposedLeftProduct(x.m, b.m);
        if (!(isDense(x.m) && !isDense(b.m))) return assert.equal(direct, undefined, `${x.m.format} X, ${b.m.format} B`);
        assert.ok(direct !== undefined);
        const viaTranspose = matmul(transpose(x.m), b.m);
        assert.deepEqual([direct.rows, direct.cols, direct.format], [viaTranspose.rows, viaTranspose.cols, viaTranspose.format]);
        for (let i = 0; i < direct.rows; i++) for (let j = 0; j < direct.cols; j++) assert.ok(Object.is(direct.get(i, j), viaTranspose.get(i, j)), `cell (${i + 1}, ${j + 1}): ${direct.get(i, j)} vs ${viaTranspose.get(i, j)}`);
      }),
      runs,
    );
  });

  it("leaves a product of mismatched rows to the caller", () => {
    const x = toMatrix(ref(5, 3), "dense");
    assert.equal(transposedLeftProduct(x, toMatrix(ref(4, 1), "dense")), undefined);
    assert.equal(transposedLeftProduct(x, toMatrix(ref(4, 2), "sparse")), undefined);
  });
});

describe("tsmm: t(X) %*% X", () => {
  it("equals t(X) times X", () => {
    fc.assert(
      fc.property(fc.tuple(dim(9), dim(9)).chain(([m, n]) => matrixArb(m, n)), (x) => {
        assertMatches(tsmm(x.m), refMatmul(refTranspose(x.ref), x.ref), `tsmm ${x.m.format}`);
      }),
      runs,
    );
  });

  it("on sizes across its blocks, and on a wide sparse X (CSR upper triangle)", () => {
    for (const [m, n, density] of [[300, 133, 0.5], [40, 530, 0.9], [20, 2100, 0.003]] as const) {
      const x = randomRef(m, n, density, m + n);
      const expected = n > 1000 ? refGramFromPairs(x) : refMatmul(refTranspose(x), x);
      for (const f of ["dense", "sparse"] as const) assertMatches(tsmm(toMatrix(x, f)), expected, `tsmm ${m}x${n} ${f}`);
    }
  });
});

describe("transpose", () => {
  it("swaps rows and columns in both formats", () => {
    fc.assert(
      fc.property(fc.tuple(dim(40), dim(40)).chain(([m, n]) => matrixArb(m, n)), (x) => {
        assertMatches(transpose(x.m), refTranspose(x.ref), `t ${x.m.format}`, false);
      }),
      { numRuns: 200 },
    );
  });

  it("is an involution", () => {
    fc.assert(
      fc.property(fc.tuple(dim(), dim()).chain(([m, n]) => refArb(m, n)), formatArb, (r, f) => {
        assertMatches(transpose(transpose(toMatrix(r, f))), r, "t(t(X))", false);
      }),
    );
  });
});

/** t(X) X summed over the pairs of non-zeros of each row (the naive product is too slow for a 2100-column X). */
function refGramFromPairs(x: ReturnType<typeof ref>): ReturnType<typeof ref> {
  const out = ref(x.cols, x.cols);
  for (let r = 0; r < x.rows; r++) {
    const nz = x.cells.slice(r * x.cols, (r + 1) * x.cols).flatMap((v, j) => (v !== 0 ? [[j, v] as const] : []));
    for (const [i, a] of nz) for (const [j, b] of nz) out.cells[i * x.cols + j]! += a * b;
  }
  return out;
}

/** A deterministic pseudo-random reference matrix (the sizes here are too large to shrink usefully). */
function randomRef(rows: number, cols: number, density: number, seed: number): ReturnType<typeof ref> {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return ref(rows, cols, Array.from({ length: rows * cols }, () => (next() < density ? Math.round((next() * 20 - 10) * 100) / 100 : 0)));
}
