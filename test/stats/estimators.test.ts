// Sparsity estimators on small matrices whose estimates are worked out by hand.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { broadcastSketch } from "../../engine/stats/estimators/mnc-sketch";
import { structureFromRows } from "../../engine/stats/structure";
import {
  chainBound,
  chainBoundEstimator as chain,
  mncEstimator as mnc,
  mncProductIsExact,
  product,
  sketchFromCounts,
  type SparsityEstimator,
  uniformEstimator as uniform,
} from "../../engine/stats/estimators";

// A (3 x 3, nnz 4)   B (3 x 2, nnz 3)   A %*% B = [1 1; 1 1; 0 0], nnz 4
const A = structureFromRows([
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
]);
const B = structureFromRows([
  [1, 0],
  [1, 1],
  [0, 0],
]);
// P, Q (2 x 2, nnz 3 each); P * Q = I (nnz 2), P + Q full (nnz 4)
const P = structureFromRows([
  [1, 1],
  [0, 1],
]);
const Q = structureFromRows([
  [1, 0],
  [1, 1],
]);
const v = structureFromRows([[1], [0], [1]]); // 3 x 1
const square = { rows: 2, cols: 2 };

function est<S>(e: SparsityEstimator<S>, build: (e: SparsityEstimator<S>) => S): number {
  return e.estimate(build(e));
}

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

describe("uniform estimator (SystemDS average case)", () => {
  it("product: m·l·(1 − (1 − sA·sB)^n)", () => {
    // sA = 4/9, sB = 1/2: 6 · (1 − (7/9)^3) = 2316/729
    close(est(uniform, (e) => e.matmul(e.fromData(A), e.fromData(B))), 2316 / 729);
  });
  it("element-wise: cells · sP · sQ and cells · (1 − (1 − sP)(1 − sQ))", () => {
    close(est(uniform, (e) => e.annihilatingMap([e.fromData(P), e.fromData(Q)], square)), 4 * (9 / 16));
    close(est(uniform, (e) => e.nonAnnihilatingMap([e.fromData(P), e.fromData(Q)], square)), 4 * (15 / 16));
    // broadcast: 9 cells · 4/9 · 2/3
    close(est(uniform, (e) => e.annihilatingMap([e.fromData(A), e.fromData(v)], A)), 8 / 3);
  });
  it("aggregates: out cells · (1 − (1 − s)^span)", () => {
    close(est(uniform, (e) => e.aggregate(e.fromData(A), "cols")), 3 * (1 - Math.pow(5 / 9, 3)));
    close(est(uniform, (e) => e.aggregate(e.fromData(A), "all")), 1 - Math.pow(5 / 9, 9));
  });
  it("metadata and data give the same statistics; transpose keeps nnz", () => {
    assert.deepEqual(uniform.fromMetadata(3, 3, 4), uniform.fromData(A));
    assert.deepEqual(uniform.transpose(uniform.fromData(B)), { rows: 2, cols: 3, nnz: 3 });
    assert.throws(() => uniform.fromMetadata(2, 2, 5), /bad matrix metadata/);
  });
});

describe("MNC estimator", () => {
  it("product with extension vectors: exact part 3 (h^ec·h^r + (h^c − h^ec)·h^er) plus E_dm 1", () => {
    // h^ec_A = [0,1,1], h^er_B = [0,1,0]; residual p = (3−2)·(2−1) = 1, E_dm = 1.
    const a = mnc.fromData(A);
    const b = mnc.fromData(B);
    assert.deepEqual(Array.from(a.colCountsInSingleRows!), [0, 1, 1]);
    assert.deepEqual(Array.from(b.rowCountsInSingleCols!), [0, 1, 0]);
    assert.equal(mncProductIsExact(a, b), false);
    assert.equal(mnc.estimate(mnc.matmul(a, b)), 4);
  });
  it("product is exact when the left side has at most one non-zero per row", () => {
    const S = structureFromRows([
      [0, 1, 0],
      [0, 0, 0],
      [1, 0, 0],
    ]);
    // rows: B[1,:] (2 nnz), nothing, B[0,:] (1 nnz)
    const s = mnc.fromData(S);
    assert.ok(mncProductIsExact(s, mnc.fromData(B)));
    assert.equal(mnc.estimate(mnc.matmul(s, mnc.fromData(B))), 3);
  });
  it("element-wise: h^r_P·h^r_Q·(Σ h^c_P h^c_Q)/(nnz_P nnz_Q) per row", () => {
    // rows: min(2, 1, 2·1·4/9) + min(1, 2, 1·2·4/9) = 16/9
    close(est(mnc, (e) => e.annihilatingMap([e.fromData(P), e.fromData(Q)], square)), 16 / 9);
    // 3 + 3 − 16/9, capped at the 4 cells
    close(est(mnc, (e) => e.nonAnnihilatingMap([e.fromData(P), e.fromData(Q)], square)), 4);
    // broadcasting a vector is exact: rows 0 and 2 of A
    close(est(mnc, (e) => e.annihilatingMap([e.fromData(A), e.fromData(v)], A)), 3);
    close(est(mnc, (e) => e.nonAnnihilatingMap([e.fromData(A), e.fromData(v)], A)), 7);
  });
  it("aggregates and transposes are exact", () => {
    const b = mnc.fromData(B);
    assert.equal(mnc.estimate(mnc.aggregate(b, "cols")), 2);
    assert.equal(mnc.estimate(mnc.aggregate(b, "rows")), 2);
    assert.equal(mnc.estimate(mnc.aggregate(b, "all")), 1);
    assert.deepEqual(Array.from(mnc.transpose(b).rowCounts), [2, 1]);
  });
  it("a metadata sketch spreads the counts evenly and falls back to the uniform formulas", () => {
    const m = mnc.fromMetadata(3, 3, 4);
    assert.deepEqual(Array.from(m.rowCounts), [1, 2, 1]);
    assert.equal(m.origin, "metadata");
    assert.equal(mnc.estimate(m), 4);
    // with any metadata input, products, maps and aggregates are the uniform estimates
    close(mnc.estimate(mnc.matmul(m, mnc.fromData(B))), 2316 / 729);
    close(mnc.estimate(mnc.matmul(mnc.fromMetadata(30, 30, 20), mnc.fromMetadata(30, 30, 20))), 900 * (1 - Math.pow(1 - 4 / 8100, 30)));
    close(mnc.estimate(mnc.aggregate(m, "cols")), 3 * (1 - Math.pow(5 / 9, 3)));
    close(est(mnc, (e) => e.annihilatingMap([e.fromMetadata(2, 2, 3), e.fromData(Q)], square)), 4 * (9 / 16));
    assert.equal(mnc.matmul(m, mnc.fromData(B)).origin, "metadata");
  });
  it("counts known to be uniform give the summaries counting them gives", () => {
    const uniformCases: [number, number, number, number][] = [
      [4, 3, 3, 4], // a full 4 x 3 constant
      [5, 2, 0, 0], // an empty one
      [3, 1, 1, 3], // a full column: single rows
      [1, 6, 6, 1], // a full row: columns with one non-zero, over half full
    ];
    for (const [rows, cols, perRow, perCol] of uniformCases) {
      const hr = new Float64Array(rows).fill(perRow);
      const hc = new Float64Array(cols).fill(perCol);
      const counted = sketchFromCounts(rows, cols, hr, hc, { origin: "data" });
      const known = sketchFromCounts(rows, cols, hr, hc, { origin: "data", uniform: true });
      assert.deepEqual(known, counted, `${rows} x ${cols} with ${perRow} per row`);
    }
    // a 1 x 1 broadcast over a matrix is uniform too
    const broadcast = broadcastSketch(mnc.fromData(structureFromRows([[1]])), { rows: 3, cols: 2 });
    const counted = sketchFromCounts(3, 2, broadcast.rowCounts, broadcast.colCounts, { her: broadcast.rowCountsInSingleCols, hec: broadcast.colCountsInSingleRows, origin: "data" });
    assert.deepEqual(broadcast, counted);
    assert.equal(broadcast.nnz, 6);
  });
  it("a full diagonal factor passes the other sketch through", () => {
    const I = structureFromRows([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const b = mnc.fromData(B);
    assert.equal(mnc.matmul(mnc.fromData(I), b), b);
  });
});

describe("chain bound estimator", () => {
  it("product: the cheapest chain (non-empty rows of A × non-empty columns of B = 6)", () => {
    // nnz_A·maxRow_B = 8, nnz_B·maxCol_A = 6, 3·2 = 6: the bound is 6 (true 4)
    const c = chain.matmul(chain.fromData(A), chain.fromData(B));
    assert.deepEqual(c, { rows: 3, cols: 2, nnz: 6, maxRowNnz: 2, maxColNnz: 3, nonEmptyRows: 3, nonEmptyCols: 2 });
  });
  it("element-wise: * bounded by the joined constraints, + by the sum", () => {
    close(est(chain, (e) => e.annihilatingMap([e.fromData(P), e.fromData(Q)], square)), 3);
    close(est(chain, (e) => e.nonAnnihilatingMap([e.fromData(P), e.fromData(Q)], square)), 4);
    // A * v: 2 non-empty rows of v × at most 2 per row of A = 4 (true 3)
    close(est(chain, (e) => e.annihilatingMap([e.fromData(A), e.fromData(v)], A)), 4);
  });
  it("aggregates: non-empty rows, non-empty columns, at most 1", () => {
    const b = chain.fromData(B);
    assert.equal(chain.estimate(chain.aggregate(b, "cols")), 2);
    assert.equal(chain.estimate(chain.aggregate(b, "rows")), 2);
    assert.equal(chain.estimate(chain.aggregate(b, "all")), 1);
  });
  it("metadata gives bounds only from the counts and dims", () => {
    assert.deepEqual(chain.fromMetadata(10, 4, 3), {
      rows: 10,
      cols: 4,
      nnz: 3,
      maxRowNnz: 3,
      maxColNnz: 3,
      nonEmptyRows: 3,
      nonEmptyCols: 3,
    });
    // 3 x 3 (nnz 4) by 3 x 2 (nnz 3) from metadata: min(4·2, 3·3, 3·2) = 6
    assert.equal(chain.estimate(chain.matmul(chain.fromMetadata(3, 3, 4), chain.fromMetadata(3, 2, 3))), 6);
  });
  it("the chain solver takes the cheapest path over subsets", () => {
    // R(a, b) with 10 tuples and degree 2 of b given a; S(b, c) with 5 tuples, degree 3 of c given b
    const dcs = [
      { x: 0b011, y: 0, d: 10 },
      { x: 0b010, y: 0b001, d: 2 },
      { x: 0b110, y: 0, d: 5 },
      { x: 0b100, y: 0b010, d: 3 },
    ];
    assert.equal(chainBound(3, dcs, 0, 0b111), 30);
    assert.equal(chainBound(3, dcs, 0b001, 0b100), 5);
    assert.equal(chainBound(3, [], 0, 0b001), Infinity);
  });
});

describe("product helper", () => {
  it("multiplies left to right with any estimator", () => {
    const c = product(uniform, uniform.fromData(A), uniform.fromData(A), uniform.fromData(B));
    assert.deepEqual(uniform.shape(c), { rows: 3, cols: 2 });
    assert.throws(() => product(chain, chain.fromData(B), chain.fromData(B)), /inner dimensions differ/);
  });
});
