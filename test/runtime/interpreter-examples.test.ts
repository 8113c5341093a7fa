// The example scripts run end to end on the shipped data with sane results
// (issue 4's "done means"): classifiers' training accuracy, linear
// regressions against the least-squares optimum, k-means converging.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { repoRoot } from "../repo-root";
import { at } from "../checked-access";

const examples = path.join(repoRoot, "examples");

function runExample(name: string, params: Record<string, string>): string[] {
  const file = path.join(examples, name);
  const lines: string[] = [];
  const session = createSession({ scriptPath: file, params, print: (l) => lines.push(l) });
  const result = session.runScript(readFileSync(file, "utf8"));
  assert.deepEqual(result.errors, []);
  return lines;
}

function lastNumber(lines: string[], label: RegExp): number {
  const line = [...lines].reverse().find((l) => label.test(l));
  assert.ok(line, `no line matching ${label} in:\n${lines.join("\n")}`);
  return Number(line.split(/[ :]+/).pop());
}

const cancer = { X: "data/breast_cancer_X.csv", Y: "data/breast_cancer_y.csv" };
const iris = { A: "data/iris_X.csv", b: "data/iris_y.csv" };
/** sum((A x - b)^2) at the least-squares optimum (numpy's lstsq gives the same). */
const OPTIMUM = 7.000398439152709;

describe("examples end to end", () => {
  it("iris_tour prints numpy's means, standard deviations and correlations", () => {
    // From numpy 1.24 on the same file: X.mean(0), X.std(0, ddof=1), corrcoef(X.T), rounded to 3 decimals.
    const lines = runExample("iris_tour.dml", {}).flatMap((l) => l.split("\n")).map((l) => l.trim()).filter((l) => l.length > 0);
    assert.equal(lines[1], "5.843 3.057 3.758 1.199");
    assert.equal(lines[2], "0.828 0.436 1.765 0.762");
    assert.deepEqual(lines.slice(3, 7), [
      "1.000 -0.118 0.872 0.818",
      "-0.118 1.000 -0.428 -0.366",
      "0.872 -0.428 1.000 0.963",
      "0.818 -0.366 0.963 1.000",
    ]);
  });

  it("l2svm and glm_logit reach training accuracy >= 0.9 on breast_cancer", () => {
    assert.ok(lastNumber(runExample("l2svm.dml", cancer), /^training accuracy/) >= 0.9);
    assert.ok(lastNumber(runExample("glm_logit.dml", cancer), /^training accuracy/) >= 0.9);
  });

  it("mlogreg reaches training accuracy >= 0.9 on digits", () => {
    assert.ok(lastNumber(runExample("mlogreg.dml", { X: "data/digits_X.csv", Y: "data/digits_y.csv" }), /^training accuracy/) >= 0.9);
  });

  it("linreg_dfp and linreg_bfgs reach the least-squares optimum; linreg_gd ends within 10%", () => {
    for (const name of ["linreg_dfp.dml", "linreg_bfgs.dml"]) {
      const loss = lastNumber(runExample(name, iris), /^loss/);
      assert.ok(Math.abs(loss - OPTIMUM) / OPTIMUM < 1e-6, `${name}: ${loss}`);
    }
    const gd = lastNumber(runExample("linreg_gd.dml", iris), /^loss/);
    assert.ok(gd <= OPTIMUM * 1.1, `gd: ${gd}`);
  });

  it("kmeans converges on iris", () => {
    const lines = runExample("kmeans.dml", { X: "data/iris_X.csv", k: "3" });
    const wcss = lines.filter((l) => l.startsWith("iteration")).map((l) => Number(l.split(" ").pop()));
    assert.ok(wcss.length >= 2);
    for (let i = 1; i < wcss.length; i++) assert.ok(at(wcss, i) <= at(wcss, i - 1) + 1e-9, `not decreasing: ${wcss.join(", ")}`);
    assert.ok(at(wcss, -1) < 150);
  });
});
