// The decompositions and statistics called from DML: PCA by eigen (as
// SystemDS's pca.dml computes it) on a 20 x 5 matrix prints the eigenvalues
// and the rank-2 reconstruction numpy computes; several results of one
// call; named arguments of the distribution functions; runtime errors with
// the call's position.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { lazyReference, uniformStream } from "./python-reference";

function run(script: string): { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const session = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line) });
  const result = session.runScript(script);
  return { lines, errors: result.errors };
}

const next = uniformStream(2024);
const data = Array.from({ length: 20 }, (_, i) => Array.from({ length: 5 }, (_, j) => Number((10 * next() + i * (j % 2) - j).toFixed(6))));

const pcaScript = [
  `X = matrix("${data.flat().join(" ")}", rows=20, cols=5)`,
  "N = nrow(X)",
  "D = ncol(X)",
  "K = 2",
  "mu = colSums(X) / N",
  "C = (t(X) %*% X) / (N - 1) - (N / (N - 1)) * t(mu) %*% mu",
  "[evalues, evectors] = eigen(C)",
  "decreasing = order(target=evalues, by=1, decreasing=TRUE, index.return=TRUE)",
  "diagmat = table(seq(1, D), decreasing)",
  "evalues = diagmat %*% evalues",
  "evectors = evectors %*% diagmat",
  "dominant = evectors[, 1:K]",
  "Xout = X %*% dominant",
  "R = Xout %*% t(dominant)",
  "for (i in 1:D) { print(as.scalar(evalues[i, 1])) }",
  "for (i in 1:N) { for (j in 1:D) { print(as.scalar(R[i, j])) } }",
].join("\n");

const numpyPca = lazyReference<number[]>(
  [
    "X = np.array(data)",
    "N = X.shape[0]",
    "mu = X.mean(axis=0, keepdims=True)",
    "C = X.T @ X / (N - 1) - (N / (N - 1)) * mu.T @ mu",
    "w, v = np.linalg.eigh(C)",
    "order = np.argsort(-w)",
    "w, v = w[order], v[:, order]",
    "R = X @ v[:, :2] @ v[:, :2].T",
    "print(json.dumps(w.tolist() + R.flatten().tolist()))",
  ].join("\n"),
  () => data,
);

describe("decompositions and statistics in DML", () => {
  it("PCA by eigen on a 20 x 5 matrix prints numpy's eigenvalues and rank-2 reconstruction (sign-free) within 1e-9", (t) => {
    const expected = numpyPca();
    if (!expected.ok) return t.skip(expected.reason);
    const { lines, errors } = run(pcaScript);
    assert.deepEqual(errors, []);
    assert.equal(lines.length, 5 + 100);
    lines.forEach((line, k) => {
      const e = expected.value[k]!;
      assert.ok(Math.abs(Number(line) - e) <= 1e-9 * Math.max(1, Math.abs(e)), `line ${k + 1}: ${line}, numpy ${e}`);
    });
  });

  it("gives every result of one call: eigen, svd, qr, lu reconstruct their input", () => {
    const script = [
      'A = matrix("4 1 2 1 3 0 2 0 5", rows=3, cols=3)',
      "[e, V] = eigen(A)",
      "[U, S, W] = svd(A)",
      "[P, L, UU] = lu(A)",
      "[H, R] = qr(A)",
      'print(nrow(e) + " " + ncol(e) + " " + nrow(S) + " " + ncol(S) + " " + nrow(H) + " " + ncol(R))',
      "print(max(abs(V %*% diag(e) %*% t(V) - A)) < 1e-12)",
      "print(max(abs(U %*% S %*% t(W) - A)) < 1e-12)",
      "print(max(abs(P %*% A - L %*% UU)) < 1e-12)",
    ].join("\n");
    const { lines, errors } = run(script);
    assert.deepEqual(errors, []);
    assert.deepEqual(lines, ["3 1 3 3 3 3", "TRUE", "TRUE", "TRUE"]);
  });

  it("runs the statistics and the distribution functions with SystemDS's argument forms (values checked against scipy)", () => {
    const script = [
      'X = matrix("3 1 4 1 5 9 2 6", rows=8, cols=1)',
      'W = matrix("1 2 1 1 3 1 2 1", rows=8, cols=1)',
      'print(moment(X, 2) + " " + moment(X, W, 3) + " " + cov(X, W))',
      'print(quantile(X, 0.25) + " " + median(X) + " " + interQuartileMean(X) + " " + median(X, W))',
      'print(toString(quantile(X, matrix("0.1 0.5 0.9", rows=3, cols=1))))',
      'print(pnorm(target=1.96) + " " + qt(target=0.975, df=10) + " " + pchisq(target=3.84, df=1, lower.tail=FALSE))',
      'print(cdf(target=2, dist="f", df1=3, df2=7) + " " + icdf(target=0.5, dist="exp", rate=2))',
    ].join("\n");
    const { lines, errors } = run(script);
    assert.deepEqual(errors, []);
    assert.deepEqual(lines, [
      "6.609375 8.759259259259265 -0.35714285714285715",
      "1.0 3.5 3.5 3.5",
      "1.000\n3.000\n9.000\n",
      "0.9750021048517795 2.2281388519862744 0.05004352124870515",
      "0.7973063575133491 0.34657359027997264",
    ]);
  });

  it("reports bad input at the call's position", () => {
    const error = (script: string) => run(script).errors.join("\n");
    assert.equal(error('A = matrix("1 2 3 4 5 6", rows=2, cols=3)\n[e, V] = eigen(A)'), "/tmp/t.dml:2:10: error: eigen: an eigen decomposition needs a square matrix, found 2 x 3");
    assert.equal(error("X = matrix(1, rows=3, cols=2)\nq = quantile(X, 0.5)"), "/tmp/t.dml:2:5: error: quantile: X must be a column vector, found 3 x 2");
    assert.equal(error("X = matrix(1, rows=3, cols=1)\nq = quantile(X, 1.5)"), "/tmp/t.dml:2:5: error: quantile: the probability must be between 0 and 1, found 1.5");
    assert.equal(error('p = cdf(target=1, dist="gamma")'), '/tmp/t.dml:1:5: error: cdf: unknown distribution dist="gamma" (expected "normal", "exp", "chisq", "f" or "t")');
    assert.equal(error("p = qnorm(target=0.5, sd=0)"), "/tmp/t.dml:1:5: error: qnorm: the standard deviation sd= of the normal distribution must be positive, found 0");
    assert.equal(error("X = matrix(1, rows=3, cols=1)\nm = moment(X, 5)"), "/tmp/t.dml:2:5: error: moment: the order must be 2, 3 or 4 (or 0 for the mean), found 5");
  });
});

describe("decompositions: memory budget", () => {
  it("refuses a decomposition whose results would pass the memory budget before computing it", () => {
    const lines: string[] = [];
    const session = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line), memoryBudget: 20_000_000 });
    const result = session.runScript("A = matrix(1, rows=1000, cols=1000)\n[e, V] = eigen(A)");
    assert.equal(result.errors.length, 1);
    assert.match(result.errors[0]!, /^\/tmp\/t\.dml:2:10: error: 'eigen\(A\)' would build the results of eigen of a 1000 x 1000 matrix: it needs .* above the memory budget/);
  });
});
