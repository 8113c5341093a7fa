// The non-zero structure type, its exact operations (boolean semantics) and the csv loader.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { repoRoot } from "../repo-root";
import {
  colCounts,
  rowCounts,
  structureFromCoordinates,
  structureFromDense,
  structureFromRows,
  structureNnz,
  transposeStructure,
} from "../../engine/stats/structure";
import { exactAggregate, exactElementwise, exactProduct, exactProductNnz } from "../../engine/stats/structure-ops";
import { csvTextToStructure, readCsvStructure } from "../../engine/stats/structure-csv";
import { columnSelection, permuteRows, rowSelection, zipfStructure } from "../../engine/stats/structure-random";
import { dense, dim, structureOf } from "./arbitraries";

describe("sparsity structure", () => {
  it("builds CSR from dense values, rows and coordinates alike", () => {
    const a = structureFromRows([
      [1, 0, 2],
      [0, 0, 0],
      [0, 3, Number.NaN],
    ]);
    assert.deepEqual(Array.from(a.rowPointers), [0, 2, 2, 4]);
    assert.deepEqual(Array.from(a.colIndices), [0, 2, 1, 2]);
    const b = structureFromCoordinates(3, 3, [[2, 2], [0, 2], [2, 1], [0, 0], [0, 2]]);
    assert.deepEqual(b, a);
    assert.equal(structureNnz(a), 4);
    assert.deepEqual(Array.from(rowCounts(a)), [2, 0, 2]);
    assert.deepEqual(Array.from(colCounts(a)), [1, 1, 2]);
    assert.throws(() => structureFromCoordinates(2, 2, [[2, 0]]), /outside/);
    assert.throws(() => structureFromDense(2, 2, [1, 2, 3]), /3 values/);
  });

  it("transposes", () => {
    const a = structureFromRows([
      [1, 0, 1],
      [0, 1, 0],
    ]);
    assert.deepEqual(dense(transposeStructure(a)), [
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
  });

  it("exact product, element-wise ops and aggregates on a hand example", () => {
    const a = structureFromRows([
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const b = structureFromRows([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    assert.deepEqual(dense(exactProduct(a, b)), [
      [1, 1],
      [1, 1],
      [0, 0],
    ]);
    assert.equal(exactProductNnz(a, b), 4);
    const v = structureFromRows([[1], [0], [1]]);
    assert.deepEqual(dense(exactElementwise("intersect", [a, v], a)), [
      [1, 1, 0],
      [0, 0, 0],
      [0, 0, 1],
    ]);
    const u = structureFromRows([[0, 0, 1]]);
    assert.deepEqual(dense(exactElementwise("union", [a, u], a)), [
      [1, 1, 1],
      [0, 1, 1],
      [0, 0, 1],
    ]);
    assert.deepEqual(dense(exactAggregate(b, "cols")), [[1], [1], [0]]);
    assert.deepEqual(dense(exactAggregate(b, "rows")), [[1, 1]]);
    assert.deepEqual(dense(exactAggregate(b, "all")), [[1]]);
  });

  it("exact product agrees with a dense boolean product (property)", () => {
    const pair = fc
      .tuple(dim(), dim(), dim())
      .chain(([m, n, l]) => fc.tuple(structureOf(m, n), structureOf(n, l)));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const da = dense(a);
        const db = dense(b);
        const expected = da.map((row) => db[0]!.map((_, k) => (row.some((x, j) => x === 1 && db[j]![k] === 1) ? 1 : 0)));
        assert.deepEqual(dense(exactProduct(a, b)), expected);
        assert.equal(exactProductNnz(a, b), expected.flat().filter((x) => x === 1).length);
        assert.deepEqual(dense(transposeStructure(transposeStructure(a))), da);
      }),
    );
  });
});

describe("random structures", () => {
  it("are reproducible from the seed and have the requested shape", () => {
    const o = { rows: 50, cols: 40, nnz: 200, rowSkew: 1.2, colSkew: 0.8, seed: 7 };
    const a = zipfStructure(o);
    assert.deepEqual(zipfStructure(o), a);
    assert.equal(a.rows, 50);
    assert.equal(structureNnz(a), 200);
    assert.notDeepEqual(zipfStructure({ ...o, seed: 8 }), a);
  });

  it("selections have one non-zero per row (rows) or per column (columns)", () => {
    const p = rowSelection(5, 20, 1);
    assert.deepEqual(Array.from(rowCounts(p)), [1, 1, 1, 1, 1]);
    const q = columnSelection(20, 4, 2);
    assert.deepEqual(Array.from(colCounts(q)), [1, 1, 1, 1]);
    const z = zipfStructure({ rows: 30, cols: 30, nnz: 100, rowSkew: 1, colSkew: 1, seed: 3 });
    const shuffled = permuteRows(z, 9);
    assert.deepEqual(Array.from(rowCounts(shuffled)).sort(), Array.from(rowCounts(z)).sort());
    assert.deepEqual(colCounts(shuffled), colCounts(z));
  });
});

describe("csv loader", () => {
  it("reads the example data sets with their .mtd sizes", () => {
    for (const [name, rows, cols] of [
      ["iris_X", 150, 4],
      ["breast_cancer_X", 569, 30],
      ["digits_X", 1797, 64],
      ["digits_y", 1797, 1],
    ] as const) {
      const result = readCsvStructure(path.join(repoRoot, "examples", "data", `${name}.csv`));
      assert.ok(result.ok, result.ok ? "" : result.message);
      assert.equal(result.structure.rows, rows);
      assert.equal(result.structure.cols, cols);
      assert.equal(structureNnz(result.structure), result.declaredNnz, name);
    }
  });

  it("reports bad fields, size mismatches and missing files as messages", () => {
    const sidecar = { rows: null, cols: null, nnz: null, header: true, sep: ";" };
    const ok = csvTextToStructure("a;b\n1;0\n;2\n", sidecar);
    assert.ok(ok.ok);
    assert.deepEqual(dense(ok.structure), [
      [1, 0],
      [0, 1],
    ]);
    const bad = csvTextToStructure("a;b\n1;x\n", sidecar, "m.csv");
    assert.ok(!bad.ok && /m\.csv:2: 'x' in column 2 is not a number/.test(bad.message));
    const wrong = csvTextToStructure("1,2\n", { ...sidecar, header: false, sep: ",", rows: 3 }, "m.csv");
    assert.ok(!wrong.ok && /1 rows, but the .mtd says 3/.test(wrong.message));
    assert.ok(!readCsvStructure(path.join(repoRoot, "examples", "data", "missing.csv")).ok);
  });
});
