// A SystemDS installation written for the tests of builtin-script calls
// (checker and runtime): small scripts of our own in SystemDS's layout
// (scripts/builtin/NAME.dml with m_/s_ functions, scripts/nn/...).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { folderInstallation } from "../../engine/program/folder-installation";
import type { SystemdsInstallation } from "../../engine/program/systemds-installation";

export const FIXTURE_SCRIPTS: Readonly<Record<string, string>> = {
  // m_ for a matrix first argument, s_ for a scalar; a default; a scalar parameter cast to double
  "builtin/twice.dml": [
    "m_twice = function(Matrix[Double] X, Double f = 2) return (Matrix[Double] Y) {",
    "  Y = f * X",
    "}",
    "s_twice = function(Double x) return (Double y) {",
    "  y = 2 * x",
    "}",
  ].join("\n"),
  // two results, and a private helper other builtin scripts call by plain name
  "builtin/pair.dml": [
    "m_pair = function(Matrix[Double] X, Integer k = 3) return (Matrix[Double] A, Matrix[Double] B) {",
    "  A = X + k",
    "  B = pairHelper(X)",
    "}",
    "pairHelper = function(Matrix[Double] X) return (Matrix[Double] Z) {",
    "  Z = t(X) %*% X",
    "}",
  ].join("\n"),
  // calls the private helper of pair.dml before calling pair (SystemDS loads pair.dml with this script)
  "builtin/usesHelper.dml": [
    "m_usesHelper = function(Matrix[Double] X) return (Matrix[Double] Y) {",
    "  G = pairHelper(X)",
    "  [A, B] = pair(X=X, k=1)",
    "  Y = G - B + sum(A)",
    "}",
  ].join("\n"),
  // sources the installation's nn library
  "builtin/layered.dml": [
    'source("nn/layers/double.dml") as dbl',
    "m_layered = function(Matrix[Double] X) return (Matrix[Double] Y) {",
    "  Y = dbl::forward(X)",
    "}",
  ].join("\n"),
  "nn/layers/double.dml": "forward = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Y = X + X\n}\n",
  // a builtin calling another builtin
  "builtin/nested.dml": "m_nested = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Y = twice(X=X, f=3) + 1\n}\n",
  // a name only the installation knows (not in DML Lens's builtin table)
  "builtin/onlyThere.dml": "m_onlyThere = function(Matrix[Double] X) return (Double s) {\n  s = sum(X)\n}\n",
  // a runtime error inside the body, on line 3
  "builtin/failing.dml": "m_failing = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Z = X\n  Y = X %*% Z\n}\n",
  // broken scripts: a syntax error, no m_ function
  "builtin/broken.dml": "m_broken = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Y = X +\n}\n",
  "builtin/misnamed.dml": "m_other = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Y = X\n}\n",
  // a builtin of DML Lens's table, with the script's own parameters
  "builtin/lm.dml": "m_lm = function(Matrix[Double] X, Matrix[Double] y, Integer icpt = 0) return (Matrix[Double] B) {\n  B = t(X) %*% y + icpt\n}\n",
};

/** A fresh folder installation holding FIXTURE_SCRIPTS (plus `extra` files under scripts/). */
export function fixtureInstallation(extra: Readonly<Record<string, string>> = {}): SystemdsInstallation {
  const root = mkdtempSync(path.join(tmpdir(), "dml-builtin-scripts-"));
  for (const [file, text] of Object.entries({ ...FIXTURE_SCRIPTS, ...extra })) {
    const full = path.join(root, "scripts", file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return folderInstallation(root, "test")!;
}
