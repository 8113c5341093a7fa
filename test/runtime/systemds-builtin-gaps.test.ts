// Runtime pieces SystemDS's builtin scripts rely on (found by running them):
// as.frame / as.matrix between matrices and frames, cumsumprod and
// rowcumsum, strings that Java parses as doubles ("NaN"), calling a function
// without results as a statement, and a for loop whose increment has the
// wrong sign (no iteration, as SystemDS's ForProgramBlock).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { printed, runError } from "./run-script";
import { frameFromMatrix, matrixFromFrame } from "../../engine/runtime/interpreter/frame-casts";
import type { FrameData } from "../../engine/runtime/io/frame-data";
import { toDense } from "../../engine/runtime/matrix/convert";
import { DenseMatrix } from "../../engine/runtime/matrix/dense-matrix";

describe("as.frame and as.matrix", () => {
  it("a matrix becomes a frame of FP64 columns C1..Cn and back, cell for cell", () => {
    const out = printed('X = matrix("1.5 2 3 -4 NaN 6", rows=3, cols=2)\nF = as.frame(X)\nprint(nrow(F) + "x" + ncol(F))\nY = as.matrix(F)\nprint(sum(replace(target=Y, pattern=NaN, replacement=0)) + " " + sum(is.nan(Y)))');
    assert.equal(out, "3x2\n8.5 1.0");
    const frame = frameFromMatrix(new DenseMatrix(1, 2, Float64Array.of(1, 2)));
    assert.deepEqual(frame.names, ["C1", "C2"]);
    assert.deepEqual(frame.columns.map((c) => c.type), ["double", "double"]);
  });

  it("a frame of strings becomes numbers as Java parses them; a word is an error naming its cell", () => {
    const frame: FrameData = { rows: 3, cols: 2, names: ["a", "b"], columns: [{ type: "string", values: ["2.5", null, "NaN"] }, { type: "string", values: ["true", "F", "-1e3"] }] };
    const m = toDense(matrixFromFrame(frame));
    assert.deepEqual(Array.from(m.data).map(String), ["2.5", "1", "0", "0", "NaN", "-1000"]);
    const bad: FrameData = { rows: 1, cols: 1, names: ["a"], columns: [{ type: "string", values: ["abc"] }] };
    assert.throws(() => matrixFromFrame(bad), /frame cell \(1, 1\) holds "abc", which is not a number/);
  });
});

describe("cumsumprod and rowcumsum", () => {
  it("cumsumprod([a, b]) is y[i] = a[i] + b[i] * y[i-1]", () => {
    assert.equal(printed('Y = cumsumprod(matrix("1 0 2 1 3 0.5 4 2", rows=4, cols=2))\nprint(toString(t(Y)))').trim(), "1.000 3.000 4.500 13.000");
  });

  it("rowcumsum sums along each row", () => {
    assert.equal(printed('Y = rowcumsum(matrix("1 2 3 4 5 6", rows=2, cols=3))\nprint(toString(Y))').trim(), "1.000 3.000 6.000\n4.000 9.000 15.000");
  });

  it("cumsumprod of anything but two columns is a located error", () => {
    assert.match(runError("Y = cumsumprod(matrix(1, rows=3, cols=3))\nprint(sum(Y))"), /t\.dml:1:5.*cumsumprod: needs a matrix of two columns/);
  });
});

describe("scripts' idioms", () => {
  it("the string 'NaN' assigned into a matrix is NaN (Java's parseDouble)", () => {
    assert.equal(printed("M = matrix(0, rows=2, cols=2)\nM[1, 2] = 'NaN'\nM[2, 1] = 'Infinity'\nprint(sum(is.nan(M)) + \" \" + as.scalar(M[2, 1]))"), "1.0 Infinity");
    assert.match(runError("M = matrix(0, rows=2, cols=2)\nM[1, 2] = 'abc'\nprint(sum(M))"), /expected a number, found the string "abc"/);
  });

  it("a function without results runs as a call statement (also inside if and loops)", () => {
    const f = 'show = function(String s, Matrix[Double] v) {\n  print(s + sum(v))\n}\nX = matrix(2, rows=2, cols=2)\n';
    assert.equal(printed(`${f}show("a ", X)\nif (sum(X) > 0) { show("b ", X) }\nfor (i in 1:2) { show("c ", X * i) }`), "a 8.0\nb 8.0\nc 8.0\nc 16.0");
    assert.match(runError(`${f}y = show("a ", X)\nprint(y)`), /function show has no result 1/);
  });

  it("a for loop over seq(1, 0, 1) runs no iteration; an increment of 0 is an error", () => {
    assert.equal(printed("n = 0\nfor (i in seq(1, n, 1)) { print(i) }\nprint(\"done\")"), "done");
    assert.match(runError("for (i in seq(1, 3, 0)) { print(i) }"), /increment of 0/);
  });
});

describe("unique", () => {
  it("a column's distinct values ascending; a matrix's distinct rows sorted by the first column", () => {
    assert.equal(printed('u = unique(matrix("3 1 2 3 1 5", rows=6, cols=1))\nprint(toString(t(u)))').trim(), "1.000 2.000 3.000 5.000");
    assert.equal(printed('U = unique(matrix("2 1 1 0 2 1 1 0 1 1", rows=5, cols=2))\nprint(toString(U))').trim(), "1.000 0.000\n1.000 1.000\n2.000 1.000");
    assert.equal(printed('u = unique(matrix(7, rows=1, cols=1))\nprint(nrow(u))'), "1");
  });

  it("unique of a list is a located error", () => {
    assert.match(runError("u = unique(list(1, 2))\nprint(sum(u))"), /t\.dml:1:5.*unique: expects a matrix/);
  });
});
