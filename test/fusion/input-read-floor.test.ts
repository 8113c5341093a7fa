import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_MACHINE_CONSTANTS, matrixBytes } from "../../engine/cost";
import { inputReadFloorSeconds, planFusion } from "../../engine/fusion";
import { DagBuilder } from "./selection-fixtures";

const READ = DEFAULT_MACHINE_CONSTANTS.memoryBandwidthBytesPerSecond;

describe("input read floor", () => {
  it("is one read of each matrix input the roots are computed from, however often they read it", () => {
    const b = new DagBuilder();
    const X = b.matrix("X", 100_000, 10);
    const y = b.matrix("y", 100_000, 1);
    b.matrix("Z", 100_000, 50); // read by no root
    const Xy = b.matmul(b.binary("*", X, X), b.matrix("v", 10, 1));
    const root = b.sum(b.binary("+", Xy, y));
    const dag = b.dag([root]);
    const expected = (8 * 100_000 * 10 + 8 * 100_000 + 8 * 10) / READ;
    assert.ok(Math.abs(inputReadFloorSeconds(dag) - expected) < 1e-15, `${inputReadFloorSeconds(dag)} vs ${expected}`);
  });

  it("counts a sparse input in its sparse format's bytes", () => {
    const b = new DagBuilder();
    const S = b.matrix("S", 20_000, 20_000, 0.001);
    const dag = b.dag([b.sum(b.binary("*", S, S))]);
    const bytes = matrixBytes({ kind: "matrix", rows: 20_000, cols: 20_000, nnz: 400_000 });
    assert.ok(bytes < 8 * 20_000 * 20_000 / 100, "stored sparse");
    assert.equal(inputReadFloorSeconds(dag), bytes / READ);
  });

  it("is at most the fused plan's cost: a Row operator over X costs about the floor, a chain of cell-wise passes far more", () => {
    const row = new DagBuilder();
    const X = row.matrix("X", 1_000_000, 10);
    const y = row.matrix("y", 1_000_000, 1);
    const gradient = row.dag([row.matmul(row.matrix("v", 1, 1_000_000), row.binary("*", y, row.matmul(X, row.matrix("w", 10, 1))))]);
    const floor = inputReadFloorSeconds(gradient);
    const fused = planFusion(gradient).cost.fused;
    assert.ok(fused >= floor, `fused ${fused} >= floor ${floor}`);
    const cells = new DagBuilder();
    const A = cells.matrix("A", 1_000_000, 10);
    const chain = cells.dag([cells.unary("exp", cells.binary("*", cells.binary("+", A, A), A))]);
    const unfused = planFusion(chain).cost.unfused;
    assert.ok(unfused > 3 * inputReadFloorSeconds(chain), `three passes and an exp: ${unfused} vs ${inputReadFloorSeconds(chain)}`);
  });
});
