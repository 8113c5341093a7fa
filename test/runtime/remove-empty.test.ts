// removeEmpty(target=, margin=, select=, empty.return=) as SystemDS's
// LibMatrixReorg.rmempty: rows/columns with a non-zero (NaN counts) or
// selected, in order; nothing kept gives one zero row/column unless
// empty.return=FALSE; bad arguments are located errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { printed, runError } from "./run-script";

const shape = (v: string) => `print(nrow(${v}) + "x" + ncol(${v}) + " " + sum(${v}))`;
const X = 'X = matrix("0 0 0 1 0 2 0 0 0 3 0 0", rows=4, cols=3)\n';

describe("removeEmpty", () => {
  it("keeps the rows / columns with a non-zero cell, in order", () => {
    assert.equal(printed(`${X}R = removeEmpty(target=X, margin="rows")\n${shape("R")}\nprint(as.scalar(R[2, 1]))`), "2x3 6.0\n3.0");
    assert.equal(printed(`${X}C = removeEmpty(target=X, margin="cols")\n${shape("C")}\nprint(as.scalar(C[2, 1]) + " " + as.scalar(C[4, 1]))`), "4x2 6.0\n1.0 3.0");
  });

  it("NaN is not empty", () => {
    assert.equal(printed(`X = matrix(0, rows=3, cols=2)\nX[2, 2] = NaN\nR = removeEmpty(target=X, margin="rows")\nprint(nrow(R))`), "1");
  });

  it("select chooses the rows / columns by its non-zero cells (a column or a row vector)", () => {
    assert.equal(printed(`${X}R = removeEmpty(target=X, margin="rows", select=matrix("1 1 0 0", rows=4, cols=1))\n${shape("R")}`), "2x3 3.0");
    assert.equal(printed(`${X}C = removeEmpty(target=X, margin="cols", select=matrix("0 0 1", rows=1, cols=3))\n${shape("C")}`), "4x1 2.0");
  });

  it("nothing kept: one row (column) of zeros, or none with empty.return=FALSE", () => {
    const Z = "Z = matrix(0, rows=3, cols=4)\n";
    assert.equal(printed(`${Z}R = removeEmpty(target=Z, margin="rows")\n${shape("R")}`), "1x4 0.0");
    assert.equal(printed(`${Z}C = removeEmpty(target=Z, margin="cols")\n${shape("C")}`), "3x1 0.0");
    assert.equal(printed(`${Z}R = removeEmpty(target=Z, margin="rows", empty.return=FALSE)\nprint(nrow(R) + "x" + ncol(R))`), "0x4");
    assert.equal(printed(`${X}C = removeEmpty(target=X, margin="cols", select=matrix(0, rows=1, cols=3), empty.return=FALSE)\nprint(nrow(C) + "x" + ncol(C))`), "4x0");
    assert.equal(printed(`${X}C = removeEmpty(target=X, margin="cols", select=matrix(0, rows=1, cols=3))\nprint(nrow(C) + "x" + ncol(C))`), "4x1");
  });

  it("bad arguments are located errors", () => {
    assert.match(runError(`${X}R = removeEmpty(target=X, margin="diag")\nprint(sum(R))`), /t\.dml:2:5.*margin must be "rows" or "cols", found "diag"/);
    assert.match(runError(`${X}R = removeEmpty(target=X, margin="rows", select=matrix(1, rows=3, cols=1))\nprint(sum(R))`), /select must be a vector of one cell per row \(4\), found 3 x 1/);
    assert.match(runError(`${X}R = removeEmpty(target=X, margin="rows", empty=TRUE)\nprint(sum(R))`), /unknown argument 'empty'/);
    assert.match(runError(`R = removeEmpty(target=list(1), margin="rows")\nprint(sum(R))`), /target must be a matrix/);
  });
});
