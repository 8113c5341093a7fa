// The interpreter gives dead matrices' buffers back to the pool
// (buffer-liveness.ts): a loop over large vectors reuses them, and a buffer
// still reachable (another variable, a caller's argument, a list item, data
// put into the session from outside) is never reused while it is readable.
// Each script overwrites freed buffers after the risky step (more
// same-sized results), so a buffer recycled too early would change the
// printed sums.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSession, matrixValue } from "../../engine/runtime/interpreter";
import { bufferPool, DenseMatrix } from "../../engine/runtime/matrix";

const N = 3000;
/** sum(seq(1, N)) */
const SUM = (N * (N + 1)) / 2;

function run(script: string, setup?: (env: Map<string, ReturnType<typeof matrixValue>>) => void): string[] {
  const lines: string[] = [];
  const session = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line) });
  setup?.(session.env as Map<string, ReturnType<typeof matrixValue>>);
  const result = session.runScript(script);
  assert.deepEqual(result.errors, []);
  return lines;
}

/** Statements that allocate several fresh N x 1 results (reusing any freed buffer) and keep none. */
const CHURN = `for (k in 1:4) { T1 = seq(1, ${N}) * k; T2 = T1 + 1; T3 = T2 * 2; }`;

describe("buffer recycling", () => {
  it("reuses the buffers of overwritten loop variables", () => {
    const before = bufferPool.stats().hits;
    const lines = run(`x = seq(1, ${N})\ns = 0\nfor (i in 1:10) { y = x * i; z = y + 1; s = s + sum(z) }\nprint(s)`);
    // sum over i of (i * SUM + N)
    assert.equal(Number(lines[0]), 55 * SUM + 10 * N);
    assert.ok(bufferPool.stats().hits - before >= 8, `pool hits ${bufferPool.stats().hits - before}`);
  });

  it("keeps a buffer another variable still refers to", () => {
    const lines = run(`X = seq(1, ${N})\nZ = X\nX = X + 1\n${CHURN}\nprint(sum(Z))\nprint(sum(X))`);
    assert.deepEqual(lines.map(Number), [SUM, SUM + N]);
  });

  it("keeps a caller's argument that the function overwrites", () => {
    const script = `f = function(matrix[double] A) return (double s) {\n  A = A * 2\n  ${CHURN}\n  s = sum(A)\n}\nX = seq(1, ${N})\nr = f(X * 1)\nq = f(X)\n${CHURN}\nprint(r)\nprint(q)\nprint(sum(X))`;
    assert.deepEqual(run(script).map(Number), [2 * SUM, 2 * SUM, SUM]);
  });

  it("keeps a matrix held in a list", () => {
    const lines = run(`X = seq(1, ${N})\nl = list(X)\nX = X + 1\n${CHURN}\nY = as.matrix(l[1])\nprint(sum(Y))`);
    assert.deepEqual(lines.map(Number), [SUM]);
  });

  it("never recycles data put into the session from outside the run", () => {
    const data = new DenseMatrix(N, 1);
    for (let i = 0; i < N; i++) data.data[i] = i + 1;
    const lines = run(`D = D + 1\n${CHURN}\nprint(sum(D))`, (env) => env.set("D", matrixValue(data)));
    assert.deepEqual(lines.map(Number), [SUM + N]);
    assert.equal(data.data.reduce((a, b) => a + b, 0), SUM);
  });

  it("keeps a previous cell's variables (another run) intact", () => {
    const lines: string[] = [];
    const session = createSession({ scriptPath: "/tmp/t.dml", print: (line) => lines.push(line) });
    assert.ok(session.runCell(`X = seq(1, ${N})\nZ = X * 1`).ok);
    const z = session.env.get("Z");
    assert.ok(session.runCell(`Z = Z + 1\n${CHURN}\nprint(sum(Z))`).ok);
    assert.equal(z?.kind === "matrix" ? (z.matrix as DenseMatrix).data.reduce((a: number, b: number) => a + b, 0) : NaN, SUM);
    assert.deepEqual(lines.map(Number), [SUM + N]);
  });
});
