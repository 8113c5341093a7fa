// aggregate(target=, groups=, fn=, weights=, ngroups=, order=) as SystemDS's
// groupedAggregate: per-group sum/count/mean/variance/centralmoment/min/max
// against numpy on random data; row vectors, matrix targets with ngroups,
// skipped ids above ngroups, empty groups; bad arguments are located errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { printed, runError } from "./run-script";
import { lazyReference, uniformStream } from "./python-reference";

/** The values of a matrix printed one per line (toString of a column). */
function column(script: string, variable: string): number[] {
  return printed(`${script}\nfor (i in 1:nrow(${variable})) { for (j in 1:ncol(${variable})) { print(as.scalar(${variable}[i, j])) } }`)
    .split("\n")
    .map(Number);
}

const matrixLiteral = (xs: number[]) => `matrix("${xs.join(" ")}", rows=${xs.length}, cols=1)`;

const next = uniformStream(17);
const n = 40;
const x = Array.from({ length: n }, () => Math.round((20 * next() - 7) * 1000) / 1000);
const g = Array.from({ length: n }, () => 1 + Math.floor(4 * next()));
const w = Array.from({ length: n }, () => 1 + Math.floor(3 * next()));

interface Expected {
  [fn: string]: number[];
}
const reference = lazyReference<Expected>(
  `x = np.array(data["x"]); g = np.array(data["g"]); w = np.array(data["w"])
out = {"sum": [], "count": [], "mean": [], "variance": [], "min": [], "max": [], "cm3": [], "wsum": [], "wmean": [], "wvariance": []}
for k in range(1, 5):
    v = x[g == k]; u = w[g == k]
    out["sum"].append(float(v.sum())); out["count"].append(float(len(v))); out["mean"].append(float(v.mean()))
    out["variance"].append(float(v.var(ddof=1))); out["min"].append(float(v.min())); out["max"].append(float(v.max()))
    out["cm3"].append(float(((v - v.mean()) ** 3).mean()))
    out["wsum"].append(float((v * u).sum())); m = float((v * u).sum() / u.sum()); out["wmean"].append(m)
    out["wvariance"].append(float((u * (v - m) ** 2).sum() / (u.sum() - 1)))
print(json.dumps(out))`,
  () => ({ x, g, w }),
);

describe("aggregate (grouped aggregates)", () => {
  const data = `X = ${matrixLiteral(x)}\nG = ${matrixLiteral(g)}\nW = ${matrixLiteral(w)}\n`;
  const close = (actual: number[], expected: number[]) => {
    assert.equal(actual.length, expected.length);
    actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) <= 1e-9 * Math.max(1, Math.abs(expected[i]!)), `cell ${i + 1}: ${a} vs ${expected[i]}`));
  };

  it("sum, count, mean, variance, centralmoment, min, max per group agree with numpy", (t) => {
    const ref = reference();
    if (!ref.ok) return t.skip(ref.reason);
    for (const fn of ["sum", "count", "mean", "variance", "min", "max"]) close(column(`${data}R = aggregate(target=X, groups=G, fn="${fn}")`, "R"), ref.value[fn]!);
    close(column(`${data}R = aggregate(target=X, groups=G, fn="centralmoment", order=3)`, "R"), ref.value["cm3"]!);
  });

  it("weights act as frequencies for sum, mean and variance", (t) => {
    const ref = reference();
    if (!ref.ok) return t.skip(ref.reason);
    close(column(`${data}R = aggregate(target=X, groups=G, weights=W, fn="sum")`, "R"), ref.value["wsum"]!);
    close(column(`${data}R = aggregate(target=X, groups=G, weights=W, fn="mean")`, "R"), ref.value["wmean"]!);
    close(column(`${data}R = aggregate(target=X, groups=G, weights=W, fn="variance")`, "R"), ref.value["wvariance"]!);
  });

  it("ngroups gives the rows: ids above it are skipped, groups without rows are 0", () => {
    const base = 'X = matrix("1 2 3 4 5", rows=5, cols=1)\nG = matrix("1 3 3 1 2", rows=5, cols=1)\n';
    assert.deepEqual(column(`${base}R = aggregate(target=X, groups=G, fn="sum", ngroups=2)`, "R"), [5, 5]);
    assert.deepEqual(column(`${base}R = aggregate(target=X, groups=G, fn="mean", ngroups=5)`, "R"), [2.5, 5, 2.5, 0, 0]);
    assert.deepEqual(column(`${base}R = aggregate(target=X, groups=G, fn="count")`, "R"), [2, 1, 2]);
    // a group of one row has variance 0
    assert.deepEqual(column(`${base}R = aggregate(target=X, groups=G, fn="variance")`, "R"), [4.5, 0, 0.5]);
  });

  it("a matrix target aggregates each column; a row vector one id per column", () => {
    const m = 'X = matrix("1 10 2 20 3 30 4 40", rows=4, cols=2)\nG = matrix("2 1 2 1", rows=4, cols=1)\n';
    assert.deepEqual(column(`${m}R = aggregate(target=X, groups=G, fn="sum", ngroups=2)`, "R"), [6, 60, 4, 40]);
    assert.deepEqual(column('X = matrix("1 2 3 4", rows=1, cols=4)\nG = matrix("1 2 1 2", rows=1, cols=4)\nR = aggregate(target=X, groups=G, fn="max")', "R"), [3, 4]);
  });

  it("NaN values propagate into their group's sum; group ids are truncated", () => {
    const out = column('X = matrix("1 2 3", rows=3, cols=1)\nX[2, 1] = NaN\nG = matrix("1.7 2.2 1", rows=3, cols=1)\nR = aggregate(target=X, groups=G, fn="sum")', "R");
    assert.deepEqual(out.map(String), ["4", "NaN"]);
  });

  it("bad arguments are located errors", () => {
    const base = 'X = matrix("1 2 3", rows=3, cols=1)\nG = matrix("1 2 1", rows=3, cols=1)\n';
    assert.match(runError(`${base}R = aggregate(target=X, groups=G, fn="median")\nprint(sum(R))`), /t\.dml:3:5.*aggregate: fn must be one of/);
    assert.match(runError(`${base}R = aggregate(target=X, groups=matrix("1 0 1", rows=3, cols=1), fn="sum")\nprint(sum(R))`), /group ids must be 1 or more, but cell 2 of groups is 0/);
    assert.match(runError(`${base}R = aggregate(target=X, groups=matrix(1, rows=2, cols=1), fn="sum")\nprint(sum(R))`), /one group id per row/);
    assert.match(runError(`${base}R = aggregate(target=X, groups=G, fn="centralmoment")\nprint(sum(R))`), /order=2, 3 or 4/);
    assert.match(runError(`${base}R = aggregate(target=cbind(X, X), groups=G, fn="sum")\nprint(sum(R))`), /a matrix target needs ngroups/);
    assert.match(runError(`${base}R = aggregate(target=X, groups=G, fn="sum", bogus=1)\nprint(sum(R))`), /unknown argument 'bogus'/);
  });
});
