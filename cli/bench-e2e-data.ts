/**
 * The data of `dml bench e2e`, made in-process from the seeded streams of
 * bench-runtime-data.ts (the same numbers on every machine):
 * - ALS-CG ratings: a users x items matrix with `entries` distinct cells,
 *   each a rating drawn uniformly from 1..5, written as Matrix Market
 *   (coordinate) with its .mtd into a folder, which both sides read
 *   (untimed);
 * - the 1e6 x 10 sets of l2svm, glm_logit, mlogreg and kmeans: features
 *   uniform in [-1, 1), labels that fit each algorithm (a noisy linear
 *   separator for l2svm, Bernoulli draws of a logistic model for glm_logit,
 *   the arg-max of three noisy linear scores for mlogreg, five clusters for
 *   kmeans). They go to our session as values and to numpy as raw
 *   little-endian float64 files (row-major), so both sides hold the very
 *   same numbers.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DenseMatrix, toDense, type Matrix } from "../engine/runtime/matrix";
import { hashUniform } from "./bench-runtime-data";

/** Seeds of the e2e streams (distinct from the runtime suite's). */
const SEED = { ratingCell: 21, ratingValue: 22, features: 23, noise: 24, weights: 25, centers: 26 } as const;

export interface RatingsFile {
  /** Path of the .mtx file (its metadata at `${path}.mtd`). */
  path: string;
  rows: number;
  cols: number;
  entries: number;
}

/** Writes the ALS-CG ratings matrix into `dir` as Matrix Market with its .mtd. */
export function writeRatings(dir: string, rows: number, cols: number, entries: number): RatingsFile {
  const cells = rows * cols;
  if (!(entries <= cells / 2)) throw new RangeError(`bench e2e: ${entries} ratings do not fit sparsely in ${rows} x ${cols}`);
  const taken = new Set<number>();
  for (let i = 0; taken.size < entries; i++) taken.add(Math.floor(hashUniform(i, SEED.ratingCell) * cells));
  const sorted = [...taken].sort((a, b) => a - b);
  const lines = [`%%MatrixMarket matrix coordinate real general`, `${rows} ${cols} ${entries}`];
  sorted.forEach((cell, k) => {
    const rating = 1 + Math.floor(hashUniform(k, SEED.ratingValue) * 5);
    lines.push(`${Math.floor(cell / cols) + 1} ${(cell % cols) + 1} ${rating}`);
  });
  const file = path.join(dir, "ratings.mtx");
  writeFileSync(file, `${lines.join("\n")}\n`);
  writeFileSync(`${file}.mtd`, JSON.stringify({ data_type: "matrix", value_type: "double", rows, cols, nnz: entries, format: "mm" }, null, 1));
  return { path: file, rows, cols, entries };
}

/** A labelled data set: features and one label column. */
export interface LabelledData {
  X: DenseMatrix;
  Y: DenseMatrix;
  /** What the labels are, for the report. */
  labels: string;
}

export type E2eAlgorithm = "l2svm" | "glm_logit" | "mlogreg" | "kmeans";

/** rows x cols features uniform in [-1, 1). */
function features(rows: number, cols: number): DenseMatrix {
  const X = new DenseMatrix(rows, cols);
  for (let i = 0; i < X.data.length; i++) X.data[i] = 2 * hashUniform(i, SEED.features) - 1;
  return X;
}

/** The planted weight of feature j of score k: alternating signs, growing with j. */
function weight(j: number, k: number): number {
  return (2 * hashUniform(j * 7 + k, SEED.weights) - 1) * (1 + (j % 3));
}

function score(X: DenseMatrix, i: number, k: number): number {
  let s = 0;
  for (let j = 0; j < X.cols; j++) s += X.data[i * X.cols + j]! * weight(j, k);
  return s;
}

/** The data set the bench gives `algorithm`, rows x cols. */
export function labelledData(algorithm: E2eAlgorithm, rows: number, cols: number): LabelledData {
  const Y = new DenseMatrix(rows, 1);
  if (algorithm === "kmeans") {
    // Five clusters: row i belongs to cluster i mod 5, centred in [-3, 3)^cols, spread [-1, 1).
    const X = features(rows, cols);
    for (let i = 0; i < rows; i++) {
      const c = i % 5;
      Y.data[i] = c + 1;
      for (let j = 0; j < cols; j++) X.data[i * cols + j]! += 6 * hashUniform(c * cols + j, SEED.centers) - 3;
    }
    return { X, Y, labels: "5 clusters (the true cluster in Y, unused by kmeans)" };
  }
  const X = features(rows, cols);
  for (let i = 0; i < rows; i++) {
    const noise = hashUniform(i, SEED.noise);
    if (algorithm === "l2svm") Y.data[i] = score(X, i, 0) + 0.5 * (2 * noise - 1) > 0 ? 1 : -1;
    else if (algorithm === "glm_logit") Y.data[i] = noise < 1 / (1 + Math.exp(-score(X, i, 0))) ? 1 : 0;
    else {
      let best = 0;
      let bestScore = -Infinity;
      for (let k = 0; k < 3; k++) {
        const s = score(X, i, k) + 0.5 * hashUniform(i * 3 + k, SEED.noise);
        if (s > bestScore) [best, bestScore] = [k, s];
      }
      Y.data[i] = best + 1;
    }
  }
  const labels = { l2svm: "+1/-1 by a noisy linear separator", glm_logit: "0/1 drawn from a logistic model", mlogreg: "classes 1..3, arg-max of three noisy linear scores" }[algorithm];
  return { X, Y, labels };
}

/** Writes a matrix (densified) as raw little-endian float64, row-major (numpy: np.fromfile(path).reshape(rows, cols)). */
export function writeRaw(file: string, m: Matrix): string {
  const dense = toDense(m);
  writeFileSync(file, new Uint8Array(dense.data.buffer, dense.data.byteOffset, dense.data.byteLength));
  return file;
}
