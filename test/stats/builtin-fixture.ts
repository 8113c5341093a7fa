/**
 * A SystemDS source tree written for the tests of analysis through builtin
 * scripts (our own small scripts in the style of SystemDS's, not SystemDS's):
 * `kmeans` (a helper function, a table/sample initialization, the best run's
 * block of centroids), `lmCG` (a CG loop, an optional intercept column),
 * `lm` (calls `lmCG`, and a function of a sourced nn-style library), and
 * `scale` with `m_` and `s_` functions.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { folderInstallation } from "../../engine/program/folder-installation";
import type { SystemdsInstallation } from "../../engine/program/systemds-installation";

export const KMEANS = `m_kmeans = function(Matrix[Double] X, Integer k = 10, Integer runs = 3)
  return (Matrix[Double] C, Matrix[Double] Y)
{
  All = initial(X, k * runs)
  wcss = rowSums(All ^ 2)
  best = as.scalar(rowIndexMax(t(wcss[1:runs, ])))
  C = All[(k * (best - 1) + 1):(k * best), ]
  D = -2 * (X %*% t(C)) + t(rowSums(C ^ 2))
  Y = rowIndexMin(D)
}

initial = function(Matrix[Double] X, Integer n) return (Matrix[Double] S) {
  S = table(seq(1, n), sample(nrow(X), n, TRUE), n, nrow(X)) %*% X
}
`;

export const LMCG = `m_lmCG = function(Matrix[Double] X, Matrix[Double] y, Integer icpt = 0, Double reg = 1e-7, Integer maxi = 5)
  return (Matrix[Double] B)
{
  if (icpt == 1) {
    X = cbind(X, matrix(1, rows = nrow(X), cols = 1))
  }
  B = matrix(0, rows = ncol(X), cols = 1)
  r = -(t(X) %*% y)
  p = -r
  i = 0
  while (i < maxi) {
    q = t(X) %*% (X %*% p) + reg * p
    a = sum(r ^ 2) / sum(p * q)
    B = B + a * p
    r = r + a * q
    p = -r
    i = i + 1
  }
}
`;

export const LM = `source("nn/util.dml") as util
m_lm = function(Matrix[Double] X, Matrix[Double] y, Integer icpt = 0) return (Matrix[Double] B) {
  B = util::firstColumn(lmCG(X = X, y = y, icpt = icpt))
}
`;

export const UTIL = `firstColumn = function(Matrix[Double] X) return (Matrix[Double] Y) {
  Y = X[, 1]
}
`;

export const SCALE = `m_scale = function(Matrix[Double] X) return (Matrix[Double] Y) { Y = X / 2 }
s_scale = function(Double x) return (Matrix[Double] Y) { Y = matrix(x, rows = 2, cols = 3) }
`;

/** A fresh source tree holding `files` (paths under it) and its installation. */
export function writeInstallation(files: Record<string, string> = { "scripts/builtin/kmeans.dml": KMEANS, "scripts/builtin/lmCG.dml": LMCG, "scripts/builtin/lm.dml": LM, "scripts/nn/util.dml": UTIL, "scripts/builtin/scale.dml": SCALE }): { root: string; installation: SystemdsInstallation } {
  const root = mkdtempSync(path.join(tmpdir(), "dml-ipa-systemds-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return { root, installation: folderInstallation(root, "test")! };
}
