// Properties of the sparsity estimators over random sparse structures (fast-check):
// the chain bound never underestimates, MNC is exact where it claims to be,
// the uniform estimator is its formula.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { structureNnz, type SparsityStructure } from "../../engine/stats/structure";
import {
  chainBoundEstimator as chain,
  colSums,
  evaluateExact,
  evaluateWith,
  exprText,
  input,
  matmul,
  mncEstimator as mnc,
  mncProductIsExact,
  plus,
  rowSums,
  type SparsityEstimator,
  type SparsityExpr,
  sumAll,
  t,
  times,
  uniformEstimator as uniform,
} from "../../engine/stats/estimators";
import { atMostOnePer, dim, structureOf } from "./arbitraries";

const runs = { numRuns: 300 };

const trueNnz = (e: SparsityExpr) => structureNnz(evaluateExact(e));

/** Statistics from data, or from (rows, cols, nnz) only. */
function fromMetadata<S>(est: SparsityEstimator<S>): (name: string, s: SparsityStructure) => S {
  return (_, s) => est.fromMetadata(s.rows, s.cols, structureNnz(s));
}

function assertBound(e: SparsityExpr): void {
  const truth = trueNnz(e);
  for (const leaf of [undefined, fromMetadata(chain)]) {
    const bound = chain.estimate(evaluateWith(chain, e, leaf));
    assert.ok(bound >= truth, `${exprText(e)}: chain bound ${bound} < true ${truth}${leaf ? " (metadata)" : ""}`);
  }
}

// Generators of small expressions over random structures.
const productPair = fc.tuple(dim(), dim(), dim()).chain(([m, n, l]) => fc.tuple(structureOf(m, n), structureOf(n, l)));
const productTriple = fc
  .tuple(dim(), dim(), dim(), dim())
  .chain(([m, n, k, l]) => fc.tuple(structureOf(m, n), structureOf(n, k), structureOf(k, l)));
const samePair = fc.tuple(dim(), dim()).chain(([m, n]) => fc.tuple(structureOf(m, n), structureOf(m, n)));
/** A matrix and a broadcast partner: same shape, column vector, row vector or 1 x 1. */
const broadcastPair = fc
  .tuple(dim(), dim(), fc.constantFrom("same", "column", "row", "scalar"))
  .chain(([m, n, how]) =>
    fc.tuple(
      structureOf(m, n),
      structureOf(how === "same" || how === "column" ? m : 1, how === "same" || how === "row" ? n : 1),
    ),
  );

describe("chain bound never underestimates (data and metadata statistics)", () => {
  it("products", () => {
    fc.assert(fc.property(productPair, ([a, b]) => assertBound(matmul(input("A", a), input("B", b)))), runs);
  });
  it("products with transposes: A %*% t(A), t(A) %*% A", () => {
    fc.assert(
      fc.property(structureOf(5, 4), (a) => {
        assertBound(matmul(input("A", a), t(input("A", a))));
        assertBound(matmul(t(input("A", a)), input("A", a)));
      }),
      runs,
    );
  });
  it("chains of three products", () => {
    fc.assert(
      fc.property(productTriple, ([a, b, c]) => {
        assertBound(matmul(matmul(input("A", a), input("B", b)), input("C", c)));
        assertBound(matmul(input("A", a), matmul(input("B", b), input("C", c))));
      }),
      runs,
    );
  });
  it("element-wise * and + with broadcasting", () => {
    fc.assert(
      fc.property(broadcastPair, ([a, b]) => {
        assertBound(times(input("A", a), input("B", b)));
        assertBound(plus(input("A", a), input("B", b)));
        assertBound(times(input("B", b), input("A", a), input("A", a)));
      }),
      runs,
    );
  });
  it("row, column and full aggregates, also of products and element-wise results", () => {
    fc.assert(
      fc.property(productPair, samePair, ([a, b], [x, y]) => {
        for (const agg of [rowSums, colSums, sumAll]) {
          assertBound(agg(input("A", a)));
          assertBound(agg(matmul(input("A", a), input("B", b))));
          assertBound(agg(times(input("X", x), input("Y", y))));
          assertBound(agg(plus(input("X", x), input("Y", y))));
        }
        assertBound(times(matmul(input("A", a), input("B", b)), rowSums(matmul(input("A", a), input("B", b)))));
      }),
      runs,
    );
  });
  it("is exact on inputs and their aggregates from data", () => {
    fc.assert(
      fc.property(structureOf(6, 5), (a) => {
        for (const e of [input("A", a), t(input("A", a)), rowSums(input("A", a)), colSums(input("A", a)), sumAll(input("A", a))]) {
          assert.equal(chain.estimate(evaluateWith(chain, e)), trueNnz(e), exprText(e));
        }
      }),
      runs,
    );
  });
});

describe("MNC is exact in its exact cases", () => {
  const mncNnz = (e: SparsityExpr) => mnc.estimate(evaluateWith(mnc, e));
  it("A %*% B when A has at most one non-zero per row", () => {
    const pair = fc.tuple(dim(), dim(), dim()).chain(([m, n, l]) => fc.tuple(atMostOnePer(m, n, true), structureOf(n, l)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        assert.ok(mncProductIsExact(mnc.fromData(a), mnc.fromData(b)));
        const e = matmul(input("A", a), input("B", b));
        assert.equal(mncNnz(e), trueNnz(e));
      }),
      runs,
    );
  });
  it("A %*% B when B has at most one non-zero per column", () => {
    const pair = fc.tuple(dim(), dim(), dim()).chain(([m, n, l]) => fc.tuple(structureOf(m, n), atMostOnePer(n, l, false)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const e = matmul(input("A", a), input("B", b));
        assert.equal(mncNnz(e), trueNnz(e));
      }),
      runs,
    );
  });
  it("aggregates, transposes and element-wise ops with a broadcast vector", () => {
    fc.assert(
      fc.property(broadcastPair, ([a, b]) => {
        const exact = [rowSums(input("A", a)), colSums(input("A", a)), sumAll(input("A", a)), t(input("A", a))];
        if (b.rows !== a.rows || b.cols !== a.cols) exact.push(times(input("A", a), input("B", b)), plus(input("A", a), input("B", b)));
        for (const e of exact) assert.ok(Math.abs(mncNnz(e) - trueNnz(e)) < 1e-9, `${exprText(e)}: ${mncNnz(e)} vs ${trueNnz(e)}`);
      }),
      runs,
    );
  });
  it("a derived sketch with inconsistent counts still stays within the cells (found by the property below)", () => {
    const a = { rows: 3, cols: 6, rowPointers: Int32Array.from([0, 1, 3, 5]), colIndices: Int32Array.from([3, 0, 5, 0, 4]) };
    const b = { rows: 6, cols: 2, rowPointers: Int32Array.from([0, 1, 3, 5, 6, 7, 7]), colIndices: Int32Array.from([0, 0, 1, 0, 1, 0, 1]) };
    const c = { rows: 2, cols: 6, rowPointers: Int32Array.from([0, 6, 12]), colIndices: Int32Array.from([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]) };
    const abc = matmul(matmul(input("A", a), input("B", b)), input("C", c));
    assert.ok(mncNnz(abc) <= 18, `${mncNnz(abc)}`);
    assert.equal(trueNnz(abc), 18);
  });
  it("stays within 0 and the number of cells", () => {
    fc.assert(
      fc.property(productTriple, ([a, b, c]) => {
        const e = rowSums(matmul(matmul(input("A", a), input("B", b)), input("C", c)));
        const n = mncNnz(matmul(matmul(input("A", a), input("B", b)), input("C", c)));
        assert.ok(n >= 0 && n <= a.rows * c.cols + 1e-9);
        assert.ok(mncNnz(e) <= a.rows);
      }),
      runs,
    );
  });
});

describe("uniform estimator is its formula", () => {
  const density = (s: SparsityStructure) => structureNnz(s) / (s.rows * s.cols);
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  it("products, element-wise ops and aggregates", () => {
    fc.assert(
      fc.property(productPair, samePair, ([a, b], [x, y]) => {
        const [m, n, l] = [a.rows, a.cols, b.cols];
        const u = (e: SparsityExpr) => uniform.estimate(evaluateWith(uniform, e));
        assert.ok(near(u(matmul(input("A", a), input("B", b))), m * l * (1 - Math.pow(1 - density(a) * density(b), n))));
        const cells = x.rows * x.cols;
        assert.ok(near(u(times(input("X", x), input("Y", y))), cells * density(x) * density(y)));
        assert.ok(near(u(plus(input("X", x), input("Y", y))), cells * (1 - (1 - density(x)) * (1 - density(y)))));
        assert.ok(near(u(rowSums(input("A", a))), m * (1 - Math.pow(1 - density(a), n))));
        assert.ok(near(u(colSums(input("A", a))), n * (1 - Math.pow(1 - density(a), m))));
      }),
      runs,
    );
  });
});
