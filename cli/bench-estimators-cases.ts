/**
 * The cases of `dml bench estimators`: products, element-wise operations and
 * aggregates over the example data sets (examples/data/*.csv) and over
 * seeded synthetic matrices with Zipf-skewed rows and columns.
 */
import path from "node:path";
import {
  colSums,
  input,
  matmul,
  plus,
  rowSums,
  type SparsityExpr,
  t,
  times,
} from "../engine/stats/estimators";
import type { SparsityStructure } from "../engine/stats/structure";
import { readCsvStructure } from "../engine/stats/structure-csv";
import { columnSelection, permuteRows, rowSelection, zipfStructure } from "../engine/stats/structure-random";

type CaseKind = "product" | "elementwise" | "aggregate" | "chain";

export interface EstimatorCase {
  /** Where the inputs come from: a data set or a synthetic configuration. */
  source: string;
  kind: CaseKind;
  expr: SparsityExpr;
}

/** The data sets of examples/data with a features matrix X and a label vector y. */
const benchDataSets = ["iris", "breast_cancer", "digits"] as const;

interface SyntheticConfig {
  name: string;
  rows: number;
  cols: number;
  density: number;
  skew: number;
}

const syntheticConfigs: readonly SyntheticConfig[] = [
  { name: "zipf 2000x1000 1% s=0", rows: 2000, cols: 1000, density: 0.01, skew: 0 },
  { name: "zipf 2000x1000 1% s=1", rows: 2000, cols: 1000, density: 0.01, skew: 1 },
  { name: "zipf 2000x1000 0.2% s=1.5", rows: 2000, cols: 1000, density: 0.002, skew: 1.5 },
  { name: "zipf 5000x2000 0.1% s=1.2", rows: 5000, cols: 2000, density: 0.001, skew: 1.2 },
];

function load(dataDir: string, name: string): SparsityStructure {
  const result = readCsvStructure(path.join(dataDir, `${name}.csv`));
  if (!result.ok) throw new Error(`dml bench estimators: ${result.message}`);
  return result.structure;
}

/** Cases on one data set: X (features), y (labels), Y (X with its rows shuffled), P and S (row and column selections). */
function dataSetCases(dataDir: string, name: string): EstimatorCase[] {
  const xs = load(dataDir, `${name}_X`);
  const X = input("X", xs);
  const y = input("y", load(dataDir, `${name}_y`));
  const Y = input("Y", permuteRows(xs, 11));
  const P = input("P", rowSelection(Math.min(100, xs.rows), xs.rows, 12));
  const S = input("S", columnSelection(xs.cols, Math.ceil(xs.cols / 2), 13));
  const c = (kind: CaseKind, expr: SparsityExpr): EstimatorCase => ({ source: name, kind, expr });
  return [
    c("product", matmul(X, t(X))),
    c("product", matmul(t(X), X)),
    c("product", matmul(t(X), y)),
    c("product", matmul(P, X)),
    c("product", matmul(X, S)),
    c("elementwise", times(X, Y)),
    c("elementwise", plus(X, Y)),
    c("elementwise", times(X, y)),
    c("aggregate", rowSums(X)),
    c("aggregate", colSums(X)),
    c("aggregate", rowSums(times(X, Y))),
    c("chain", matmul(matmul(t(X), X), t(X))),
  ];
}

/**
 * Cases on one synthetic configuration. X has its heavy rows and columns at
 * the low indices; Ya and Wa (same skew, other seeds) share them ("aligned",
 * the hard case for the uniform assumption), Yr and Wr put theirs elsewhere.
 */
function syntheticCases(config: SyntheticConfig, seed: number): EstimatorCase[] {
  const { rows, cols, density, skew } = config;
  const zipf = (r: number, k: number, s: number, shuffle: boolean) =>
    zipfStructure({ rows: r, cols: k, nnz: Math.round(r * k * density), rowSkew: skew, colSkew: skew, seed: s, shuffle });
  const X = input("X", zipf(rows, cols, seed, false));
  const Ya = input("Ya", zipf(rows, cols, seed + 1, false));
  const Yr = input("Yr", zipf(rows, cols, seed + 2, true));
  const Wa = input("Wa", zipf(cols, 100, seed + 3, false));
  const Wr = input("Wr", zipf(cols, 100, seed + 4, true));
  const P = input("P", rowSelection(200, rows, seed + 5));
  const S = input("S", columnSelection(cols, 100, seed + 6));
  const c = (kind: CaseKind, expr: SparsityExpr): EstimatorCase => ({ source: config.name, kind, expr });
  return [
    c("product", matmul(X, t(X))),
    c("product", matmul(t(X), X)),
    c("product", matmul(X, Wa)),
    c("product", matmul(X, Wr)),
    c("product", matmul(P, X)),
    c("product", matmul(X, S)),
    c("elementwise", times(X, Ya)),
    c("elementwise", times(X, Yr)),
    c("elementwise", plus(X, Ya)),
    c("aggregate", rowSums(X)),
    c("aggregate", colSums(X)),
    c("aggregate", colSums(matmul(X, Wa))),
    c("chain", matmul(matmul(t(X), X), Wa)),
  ];
}

export function allEstimatorCases(dataDir: string): EstimatorCase[] {
  return [
    ...benchDataSets.flatMap((name) => dataSetCases(dataDir, name)),
    ...syntheticConfigs.flatMap((config, n) => syntheticCases(config, 1000 * (n + 1))),
  ];
}
