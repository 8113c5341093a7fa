// The session's record of assigned variables (what `dml run --json` and the
// Run Cell variables view show): non-zeros are counted when asked for, not
// at every assignment of a loop, and stay right for function locals and for
// values replaced from outside.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSession } from "../../engine/runtime/interpreter";
import { DenseMatrix } from "../../engine/runtime/matrix";

function countingNonZeroCalls<T>(body: () => T): { result: T; calls: number } {
  const original = DenseMatrix.prototype.nnz;
  let calls = 0;
  DenseMatrix.prototype.nnz = function (this: DenseMatrix) {
    calls++;
    return original.call(this);
  };
  try {
    return { result: body(), calls };
  } finally {
    DenseMatrix.prototype.nnz = original;
  }
}

describe("session variables", () => {
  it("does not count non-zeros at each assignment of a loop, and counts them when asked", () => {
    const session = createSession({ print: () => undefined });
    const script = "v = matrix(0, rows=2000, cols=1)\nfor (i in 1:50) {\n  v = v + (v == 0) * i\n}\nw = v - 1";
    const { result, calls } = countingNonZeroCalls(() => session.runCell(script));
    assert.equal(result.ok, true, result.errors.join("\n"));
    assert.ok(calls < 10, `non-zeros counted ${calls} times during a 50-iteration loop`);
    const v = session.variables().find((x) => x.name === "v");
    const w = session.variables().find((x) => x.name === "w");
    assert.deepEqual(v, { name: "v", kind: "matrix", rows: 2000, cols: 1, nnz: 2000 });
    assert.deepEqual(w, { name: "w", kind: "matrix", rows: 2000, cols: 1, nnz: 0 });
  });

  it("records a function's locals with their non-zeros", () => {
    const session = createSession({ print: () => undefined });
    const script = "f = function(Matrix[Double] X) return (Matrix[Double] Y) {\n  Z = X * 2\n  Z[1, 1] = 0\n  Y = Z\n}\nR = f(matrix(1, rows=2, cols=3))";
    const result = session.runCell(script);
    assert.equal(result.ok, true, result.errors.join("\n"));
    assert.deepEqual(
      session.variables().find((x) => x.name === "Z"),
      { name: "Z", kind: "matrix", rows: 2, cols: 3, nnz: 5 },
    );
    assert.deepEqual(
      session.variables().find((x) => x.name === "R"),
      { name: "R", kind: "matrix", rows: 2, cols: 3, nnz: 5 },
    );
  });

  it("leaves out the non-zeros of a value that was replaced from outside (its buffer may be reused)", () => {
    const session = createSession({ print: () => undefined });
    assert.equal(session.runCell("A = matrix(3, rows=4, cols=5)\nx = 2").ok, true);
    session.env.set("A", { kind: "matrix", matrix: new DenseMatrix(1, 1) });
    assert.deepEqual(session.variables().find((v) => v.name === "A"), { name: "A", kind: "matrix", rows: 4, cols: 5 });
    assert.deepEqual(session.variables().find((v) => v.name === "x"), { name: "x", kind: "scalar", valueType: "int", rows: 0, cols: 0, nnz: 0 });
  });

  it("a session continuing another keeps its record", () => {
    const first = createSession({ print: () => undefined });
    assert.equal(first.runCell("B = matrix(1, rows=3, cols=3)").ok, true);
    const second = createSession({ print: () => undefined });
    second.continueFrom(first);
    assert.deepEqual(second.variables(), [{ name: "B", kind: "matrix", rows: 3, cols: 3, nnz: 9 }]);
  });
});
