// The real data files of examples/data read through their .mtd sidecars.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { matrixDataGet, matrixDataNnz, readMatrixFile, type LoadedData, type MatrixData } from "../../engine/runtime/io";
import { repoRoot } from "../repo-root";

const dataDir = path.join(repoRoot, "examples", "data");

function read(name: string): { data: MatrixData; loaded: LoadedData } {
  const result = readMatrixFile(name, { scriptPath: path.join(dataDir, "..", "script.dml") });
  if (!result.ok) throw result.error;
  assert.deepEqual(result.warnings, []);
  return { data: result.value.value.data, loaded: result.value };
}

describe("examples/data through the .mtd sidecars", () => {
  const cases: [string, number, number][] = [
    ["iris_X.csv", 150, 4],
    ["iris_y.csv", 150, 1],
    ["breast_cancer_X.csv", 569, 30],
    ["breast_cancer_y.csv", 569, 1],
    ["digits_X.csv", 1797, 64],
    ["digits_y.csv", 1797, 1],
  ];
  for (const [name, rows, cols] of cases) {
    test(`${name} is ${rows} x ${cols} with the .mtd's nnz`, () => {
      const { data, loaded } = read(`data/${name}`);
      assert.equal(data.format, "dense");
      assert.deepEqual([data.rows, data.cols], [rows, cols]);
      assert.equal(loaded.format, "csv");
      assert.equal(loaded.path, path.join(dataDir, name));
      const mtd = JSON.parse(readFileSync(path.join(dataDir, `${name}.mtd`), "utf8")) as { nnz: number };
      assert.equal(matrixDataNnz(data), mtd.nnz);
      // Every value equals the file's text parsed directly.
      const lines = readFileSync(path.join(dataDir, name), "utf8").trim().split("\n");
      assert.equal(lines.length, rows);
      for (let i = 0; i < rows; i += 7) {
        const fields = lines[i]!.split(",").map(Number);
        for (let j = 0; j < cols; j++) assert.equal(matrixDataGet(data, i, j), fields[j]);
      }
    });
  }

  test("iris_X: the first and last rows", () => {
    const { data } = read("data/iris_X.csv");
    assert.deepEqual([0, 1, 2, 3].map((j) => matrixDataGet(data, 0, j)), [5.1, 3.5, 1.4, 0.2]);
    assert.deepEqual([0, 1, 2, 3].map((j) => matrixDataGet(data, 149, j)), [5.9, 3.0, 5.1, 1.8]);
  });
});
