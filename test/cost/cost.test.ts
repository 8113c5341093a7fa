// The cost model (engine/cost): exact FLOP / byte numbers per operation kind
// on small sizes, the storage-format rule, unknown sizes, the time formula,
// the text form and the machine-constants file.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import type { DagOp } from "../../engine/program/dag-types";
import type { NodeStats } from "../../engine/stats/sizes/node-stats";
import {
  DEFAULT_MACHINE_CONSTANTS,
  estimateOperationCost,
  estimateTime,
  formatCost,
  formatCostEstimate,
  matrixBytes,
  nodeCost,
  operandFromNodeStats,
  operationCost,
  storageFormat,
  type MachineConstants,
  type MatrixStats,
  type OperandStats,
  type OperationCost,
} from "../../engine/cost";

const m = (rows: number, cols: number, nnz: number): MatrixStats => ({ kind: "matrix", rows, cols, nnz });
const s = (value?: number): OperandStats => (value === undefined ? { kind: "scalar" } : { kind: "scalar", value });

/** The known cost, failing the test if it is unknown. */
function cost(op: DagOp, inputs: OperandStats[], output: OperandStats, constants?: MachineConstants): OperationCost {
  const e = operationCost(op, inputs, output, constants);
  assert.ok(e.known, e.known ? "" : e.reason);
  return e.cost;
}
const flops = (op: DagOp, inputs: OperandStats[], output: OperandStats) => cost(op, inputs, output).flops;

// Operands used throughout: D dense 100×50 (40,000 B); S sparse 1000×1000 at 1%
// (CSR 12·10^4 + 4·1001 = 124,004 B); S2 sparse at 2% (244,004 B); Sv a dense
// column vector of 1000 (8,000 B).
const D = m(100, 50, 5000);
const S = m(1000, 1000, 10_000);
const S2 = m(1000, 1000, 20_000);
const Sv = m(1000, 1, 1000);
const bin = (op: Extract<DagOp, { kind: "binary" }>["op"]): DagOp => ({ kind: "binary", op });

describe("storage format and bytes", () => {
  test("dense = 8·rows·cols, CSR = 12·nnz + 4·(rows+1)", () => {
    assert.equal(matrixBytes(D), 40_000);
    assert.equal(matrixBytes(S), 124_004);
    assert.equal(matrixBytes(S2), 244_004);
  });

  test("sparse below sparsity 0.4, dense at 0.4", () => {
    assert.equal(storageFormat(m(1000, 1000, 399_999)), "sparse");
    assert.equal(storageFormat(m(1000, 1000, 400_000)), "dense");
  });

  test("column vectors are dense whatever their sparsity", () => {
    assert.equal(storageFormat(m(1000, 1, 10)), "dense");
    assert.equal(storageFormat(m(1000, 1, 0)), "dense");
  });

  test("tiny and narrow matrices stay dense (SystemDS's MCSR size estimate exceeds the dense one)", () => {
    assert.equal(storageFormat(m(10, 10, 30)), "dense");
    assert.equal(storageFormat(m(100_000, 10, 100_000)), "dense"); // 10%, 10 columns
    assert.equal(storageFormat(m(100_000, 10, 10_000)), "sparse"); // ultra-sparse: most rows empty
    assert.equal(storageFormat(m(1, 1000, 10)), "sparse");
  });

  test("an empty matrix with more than one column is sparse (only row pointers)", () => {
    assert.equal(storageFormat(m(100, 100, 0)), "sparse");
    assert.equal(matrixBytes(m(100, 100, 0)), 404);
  });
});

describe("matrix multiply", () => {
  test("dense × dense: 2·m·k·n", () => {
    const c = cost({ kind: "matmul" }, [D, m(50, 20, 1000)], m(100, 20, 2000));
    assert.deepEqual(c, { ...c, flops: 200_000, bytesRead: 48_000, bytesWritten: 16_000, peakMemoryBytes: 64_000 });
  });

  test("sparse × dense: 2·nnz(A)·n", () => {
    const c = cost({ kind: "matmul" }, [S, Sv], Sv);
    assert.deepEqual(c, { ...c, flops: 20_000, bytesRead: 132_004, bytesWritten: 8000, peakMemoryBytes: 140_004 });
  });

  test("dense × sparse: 2·m·nnz(B)", () => {
    assert.equal(flops({ kind: "matmul" }, [m(10, 1000, 10_000), S], m(10, 1000, 10_000)), 200_000);
  });

  test("sparse × sparse: 2·nnz(A)·nnz(B)/k, with an 8·n accumulator row", () => {
    const out = m(1000, 1000, 99_502);
    const c = cost({ kind: "matmul" }, [S, S], out);
    assert.equal(c.flops, 200_000);
    assert.equal(c.peakMemoryBytes, 2 * 124_004 + matrixBytes(out) + 8000);
  });

  test("(sparse X) %*% v costs less than the dense X %*% v in FLOPs, bytes and time", () => {
    const sparse = cost({ kind: "matmul" }, [S, Sv], Sv);
    const dense = cost({ kind: "matmul" }, [m(1000, 1000, 1_000_000), Sv], Sv);
    assert.equal(dense.flops, 2_000_000);
    assert.ok(sparse.flops < dense.flops);
    assert.ok(sparse.bytesRead < dense.bytesRead);
    assert.ok(sparse.seconds < dense.seconds);
  });

  test("inner dimensions that differ give unknown", () => {
    const e = operationCost({ kind: "matmul" }, [D, D], D);
    assert.ok(!e.known && /inner dimensions/.test(e.reason));
  });
});

describe("element-wise binary", () => {
  test("dense + dense touches every cell", () => {
    const c = cost(bin("+"), [D, D], D);
    assert.deepEqual(c, { ...c, flops: 5000, bytesRead: 80_000, bytesWritten: 40_000, peakMemoryBytes: 120_000 });
  });

  test("sparse * sparse touches the intersection (the output's non-zeros)", () => {
    assert.equal(flops(bin("*"), [S, S2], m(1000, 1000, 200)), 200);
  });

  test("sparse + sparse touches the expected union", () => {
    // 10,000 + 20,000 − 10,000·20,000/10^6
    assert.equal(flops(bin("+"), [S, S2], m(1000, 1000, 29_800)), 29_800);
  });

  test("a dense-format operand makes union operators touch every cell", () => {
    assert.equal(flops(bin("+"), [S, m(1000, 1000, 1_000_000)], m(1000, 1000, 1_000_000)), 1_000_000);
  });

  test("operators with op(0,0) ≠ 0 touch every cell, with their weight", () => {
    assert.equal(flops(bin("=="), [S, S2], m(1000, 1000, 1_000_000)), 1_000_000);
    assert.equal(flops(bin("/"), [S, S2], m(1000, 1000, 1_000_000)), 22_000_000);
  });

  test("matrix–scalar: sparse-safe ops touch nnz, a non-zero `+` densifies", () => {
    assert.equal(flops(bin("*"), [S, s(2)], S), 10_000);
    assert.equal(flops(bin("*"), [S, s()], S), 10_000);
    assert.equal(flops(bin("+"), [S, s(1)], m(1000, 1000, 1_000_000)), 1_000_000);
    assert.equal(flops(bin("+"), [S, s(0)], S), 10_000);
    assert.equal(flops(bin("+"), [S, s()], m(1000, 1000, 1_000_000)), 1_000_000);
    assert.equal(flops(bin("/"), [S, s(2)], S), 220_000);
    assert.equal(flops(bin("/"), [s(2), S], m(1000, 1000, 1_000_000)), 22_000_000);
    assert.equal(flops(bin("^"), [S, s(2)], S), 10_000);
    assert.equal(flops(bin("^"), [S, s(0.5)], S), 160_000);
    assert.equal(flops(bin("^"), [S, s(0)], m(1000, 1000, 1_000_000)), 16_000_000);
  });

  test("matrix–scalar on a dense-format matrix visits every cell", () => {
    const c = cost(bin("*"), [D, s(2)], D);
    assert.deepEqual(c, { ...c, flops: 5000, bytesRead: 40_008, bytesWritten: 40_000 });
  });

  test("row-vector broadcasting", () => {
    const dense = m(1, 1000, 1000);
    const sparse = m(1, 1000, 10);
    assert.equal(flops(bin("*"), [S, dense], S), 10_000);
    assert.equal(flops(bin("+"), [S, dense], m(1000, 1000, 1_000_000)), 1_000_000);
    // the sparse row replicated to 10,000 non-zeros: 10,000 + 10,000 − 10^8/10^6
    assert.equal(flops(bin("+"), [S, sparse], m(1000, 1000, 19_900)), 19_900);
  });

  test("scalar op scalar", () => {
    const c = cost(bin("+"), [s(1), s(2)], s());
    assert.deepEqual(c, { ...c, flops: 1, bytesRead: 16, bytesWritten: 8, peakMemoryBytes: 24 });
  });

  test("shapes that do not broadcast give unknown", () => {
    const e = operationCost(bin("+"), [D, S], S);
    assert.ok(!e.known && /broadcast/.test(e.reason));
  });
});

describe("element-wise unary", () => {
  const un = (op: Extract<DagOp, { kind: "unary" }>["op"]): DagOp => ({ kind: "unary", op });
  const full = m(1000, 1000, 1_000_000);
  test("sparse-safe functions touch nnz of a sparse input", () => {
    assert.equal(flops(un("abs"), [S], S), 10_000);
    assert.equal(flops(un("-"), [S], S), 10_000);
    assert.equal(flops(un("sqrt"), [S], S), 20_000);
    assert.equal(flops(un("round"), [S], S), 10_000);
    assert.equal(flops(un("sin"), [S], S), 180_000);
  });
  test("functions with f(0) ≠ 0 touch every cell", () => {
    assert.equal(flops(un("exp"), [S], full), 18_000_000);
    assert.equal(flops(un("log"), [S], full), 32_000_000);
    assert.equal(flops(un("cos"), [S], full), 22_000_000);
    assert.equal(flops(un("!"), [S], full), 1_000_000);
  });
  test("a dense-format input is visited in full", () => {
    assert.equal(flops(un("abs"), [D], D), 5000);
  });
});

describe("aggregates", () => {
  const agg = (fn: Extract<DagOp, { kind: "aggregate" }>["fn"], direction: "full" | "row" | "col"): DagOp => ({
    kind: "aggregate",
    fn,
    direction,
  });
  test("Kahan sum of a sparse matrix touches nnz", () => {
    const c = cost(agg("sum", "full"), [S], s());
    assert.deepEqual(c, { ...c, flops: 40_000, bytesRead: 124_004, bytesWritten: 8, peakMemoryBytes: 124_012 });
  });
  test("row / column aggregates and finalization per output cell", () => {
    assert.equal(flops(agg("sum", "row"), [D], m(100, 1, 100)), 20_000);
    assert.equal(flops(agg("mean", "full"), [D], s()), 20_001);
    assert.equal(flops(agg("mean", "col"), [D], m(1, 50, 50)), 20_050);
    assert.equal(flops(agg("sd", "full"), [D], s()), 80_003);
    assert.equal(flops(agg("max", "full"), [S], s()), 10_000);
  });
});

describe("reorganizations and data movement", () => {
  test("transpose: no FLOPs, bytes in and out, a column-count array for CSR", () => {
    const c = cost({ kind: "transpose" }, [S], S);
    assert.deepEqual(c, { ...c, flops: 0, bytesRead: 124_004, bytesWritten: 124_004, peakMemoryBytes: 252_008 });
    assert.equal(cost({ kind: "transpose" }, [D], m(50, 100, 5000)).peakMemoryBytes, 80_000);
  });

  test("index reads the slice (and the bounds)", () => {
    const c = cost({ kind: "index" }, [D, s(1), s(10), s(-1), s(-1)], m(10, 50, 500));
    assert.deepEqual(c, { ...c, flops: 0, bytesRead: 4032, bytesWritten: 4000, peakMemoryBytes: 44_032 });
  });

  test("left indexing copies X and writes Y into it", () => {
    const c = cost({ kind: "leftIndex" }, [D, m(10, 50, 500), s(1), s(10), s(-1), s(-1)], D);
    assert.deepEqual(c, { ...c, flops: 0, bytesRead: 44_032, bytesWritten: 40_000, peakMemoryBytes: 84_032 });
  });

  test("cbind / rbind", () => {
    const c = cost({ kind: "cbind" }, [D, D], m(100, 100, 10_000));
    assert.deepEqual(c, { ...c, flops: 0, bytesRead: 80_000, bytesWritten: 80_000 });
    assert.equal(cost({ kind: "rbind" }, [D, D], m(200, 50, 10_000)).bytesWritten, 80_000);
  });

  test("diag of a vector and of a matrix", () => {
    const v2m = cost({ kind: "diag" }, [m(50, 1, 50)], m(50, 50, 50));
    assert.deepEqual(v2m, { ...v2m, flops: 0, bytesRead: 400, bytesWritten: 804 });
    const m2v = cost({ kind: "diag" }, [m(50, 50, 2500)], m(50, 1, 50));
    assert.deepEqual(m2v, { ...m2v, bytesRead: 400, bytesWritten: 400, peakMemoryBytes: 20_400 });
  });

  test("table: 3 FLOPs per pair", () => {
    const c = cost({ kind: "table" }, [Sv, Sv], m(10, 10, 100));
    assert.deepEqual(c, { ...c, flops: 3000, bytesRead: 16_000, bytesWritten: 800 });
  });
});

describe("constructors, read and casts", () => {
  test("seq: one addition per element", () => {
    const c = cost({ kind: "seq" }, [s(1), s(100), s(1)], m(100, 1, 100));
    assert.deepEqual(c, { ...c, flops: 100, bytesRead: 24, bytesWritten: 800 });
  });

  test("matrix: a fill or a reshape, no FLOPs", () => {
    const fill = cost({ kind: "matrix" }, [s(0), s(100), s(100)], m(100, 100, 0));
    assert.deepEqual(fill, { ...fill, flops: 0, bytesRead: 24, bytesWritten: 404 });
    const reshape = cost({ kind: "matrix" }, [D, s(50), s(100)], m(50, 100, 5000));
    assert.deepEqual(reshape, { ...reshape, flops: 0, bytesRead: 40_016, bytesWritten: 40_000 });
  });

  test("rand: 8 FLOPs per draw", () => {
    assert.equal(flops({ kind: "rand" }, [s(100), s(50)], D), 40_000); // one value per cell
    assert.equal(flops({ kind: "rand" }, [s(1000), s(1000)], S), 160_000); // position + value per non-zero
    assert.equal(flops({ kind: "rand" }, [s(100), s(100)], m(100, 100, 5000)), 120_000); // keep draw per cell + values
  });

  test("read: bytes from disk, time from the disk bandwidth", () => {
    const c = cost({ kind: "read" }, [{ kind: "scalar" }], D);
    assert.deepEqual(c, {
      flops: 0,
      bytesRead: 40_000,
      diskBytesRead: 40_000,
      bytesWritten: 40_000,
      peakMemoryBytes: 40_000,
      seconds: 40_000 / DEFAULT_MACHINE_CONSTANTS.diskReadBytesPerSecond + 40_000 / DEFAULT_MACHINE_CONSTANTS.writeBandwidthBytesPerSecond,
    });
  });

  test("casts", () => {
    const toScalar = cost({ kind: "cast", to: "scalar" }, [m(1, 1, 1)], s());
    assert.deepEqual(toScalar, { ...toScalar, flops: 0, bytesRead: 8, bytesWritten: 8 });
    assert.equal(flops({ kind: "cast", to: "double" }, [D], D), 5000);
    assert.equal(flops({ kind: "cast", to: "int" }, [s(2.5)], s()), 1);
  });

  test("nrow / ncol / length, literals and inputs are free", () => {
    for (const op of [{ kind: "nrow" }, { kind: "ncol" }, { kind: "length" }, { kind: "literal", value: 1 }, { kind: "input", name: "X" }] as DagOp[]) {
      const c = cost(op, op.kind === "literal" || op.kind === "input" ? [] : [S], s());
      assert.deepEqual(c, { flops: 0, bytesRead: 0, diskBytesRead: 0, bytesWritten: 0, peakMemoryBytes: 0, seconds: 0 }, op.kind);
    }
  });

  test("opaque calls are unknown", () => {
    const e = operationCost({ kind: "call", name: "solve", user: false, output: 0 }, [D, Sv], Sv);
    assert.ok(!e.known && /opaque/.test(e.reason));
    assert.match(formatCostEstimate(e), /^cost unknown: builtin 'solve' is opaque/);
  });
});

describe("unknown sizes", () => {
  test("any unknown size gives unknown, never a guess", () => {
    const e1 = estimateOperationCost({ kind: "matmul" }, [{ kind: "matrix", rows: 1000, cols: 1000, nnz: null }, Sv], Sv);
    assert.ok(!e1.known && /input 1: nnz unknown/.test(e1.reason));
    const e2 = estimateOperationCost(bin("+"), [D, D], { kind: "matrix", rows: null, cols: 50, nnz: null });
    assert.ok(!e2.known && /output: rows, nnz unknown/.test(e2.reason));
    const e3 = estimateOperationCost({ kind: "transpose" }, [{ kind: "unknown" }], D);
    assert.ok(!e3.known && /type is unknown/.test(e3.reason));
  });

  test("fully known partial stats give the same cost as operationCost", () => {
    assert.deepEqual(estimateOperationCost({ kind: "matmul" }, [S, Sv], Sv), operationCost({ kind: "matmul" }, [S, Sv], Sv));
  });

  test("size-free operations need no sizes", () => {
    const e = estimateOperationCost({ kind: "nrow" }, [{ kind: "unknown" }], { kind: "scalar" });
    assert.ok(e.known && e.cost.seconds === 0);
  });

  test("impossible sizes (nnz above rows·cols, negative) are unknown", () => {
    assert.ok(!operationCost({ kind: "transpose" }, [m(2, 2, 5)], m(2, 2, 5)).known);
    assert.ok(!estimateOperationCost({ kind: "transpose" }, [{ kind: "matrix", rows: -1, cols: 2, nnz: 0 }], D).known);
  });
});

describe("time", () => {
  const c: MachineConstants = {
    memoryBandwidthBytesPerSecond: 1e9,
    writeBandwidthBytesPerSecond: 0.5e9,
    flopsPerSecond: 1e9,
    sparseFlopsPerSecond: 0.25e9,
    diskReadBytesPerSecond: 1e8,
  };
  const t = (flops: number, bytesRead: number, bytesWritten: number, sparseKernel = false, diskBytesRead = 0) =>
    estimateTime({ flops, bytesRead, bytesWritten, sparseKernel, diskBytesRead }, c).seconds;

  test("write + max(read, compute): compute-bound and memory-bound", () => {
    assert.equal(t(2e9, 1e9, 0.5e9), 1 + Math.max(1, 2));
    assert.equal(t(1e8, 1e9, 0.5e9), 1 + Math.max(1, 0.1));
  });

  test("a sparse kernel uses the sparse throughput; disk adds its own time", () => {
    assert.equal(t(1e9, 0, 0, true), 4);
    assert.equal(t(0, 1e8, 0, false, 1e8), 1);
  });

  test("operationCost's seconds follow the formula with the given constants", () => {
    // D + D: read 80,000 B (80 µs), compute 5,000 FLOP (5 µs), write 40,000 B (80 µs)
    assert.equal(cost(bin("+"), [D, D], D, c).seconds, 80e-6 + Math.max(80e-6, 5e-6));
    // S %*% Sv is a sparse kernel: 20,000 FLOP at 0.25 GFLOP/s = 80 µs vs 132,004 B read = 132 µs
    assert.equal(cost({ kind: "matmul" }, [S, Sv], Sv, c).seconds, 8000 / 0.5e9 + Math.max(132_004 / 1e9, 20_000 / 0.25e9));
  });
});

describe("text form", () => {
  test("FLOPs, bytes read / written, peak and time with SI prefixes", () => {
    const c: OperationCost = { flops: 2e6, bytesRead: 1.6e6, diskBytesRead: 0, bytesWritten: 8e5, peakMemoryBytes: 2.4e6, seconds: 3e-4 };
    assert.equal(formatCost(c), "2.00 MFLOP, 1.60 MB read, 800 kB written, peak 2.40 MB, ~300 µs");
  });

  test("read shows the disk part; small and zero values stay readable", () => {
    assert.equal(
      formatCost(cost({ kind: "read" }, [], D)),
      "0 FLOP, 40.0 kB read (40.0 kB from disk), 40.0 kB written, peak 40.0 kB, ~88.0 µs",
    );
    assert.equal(formatCost(cost(bin("+"), [s(1), s(2)], s())), "1 FLOP, 16 B read, 8 B written, peak 24 B, ~3.20 ns");
  });
});

describe("from NodeStats", () => {
  test("matrix, scalar constants and unknown types map to operands", () => {
    const matrix: NodeStats = { type: { dataType: "matrix", valueType: "double" }, rows: 1000, cols: 1000, nnz: 10_000 };
    const two: NodeStats = { type: { dataType: "scalar", valueType: "int" }, rows: 0, cols: 0, nnz: null, value: 2 };
    const frame: NodeStats = { type: { dataType: "frame", valueType: "unknown" }, rows: 10, cols: 2, nnz: null };
    assert.deepEqual(operandFromNodeStats(matrix), S);
    assert.deepEqual(operandFromNodeStats(two), s(2));
    assert.deepEqual(operandFromNodeStats(frame), { kind: "unknown" });
    const e = nodeCost(bin("*"), [matrix, two], matrix);
    assert.ok(e.known && e.cost.flops === 10_000);
    // Unknown non-zeros of known dims count as dense (the worst case); unknown dims leave the cost unknown.
    assert.deepEqual(operandFromNodeStats({ ...matrix, nnz: null }), { kind: "matrix", rows: 1000, cols: 1000, nnz: 1_000_000 });
    const dense = nodeCost(bin("*"), [{ ...matrix, nnz: null }, two], { ...matrix, nnz: null });
    assert.ok(dense.known && dense.cost.flops === 1_000_000);
    assert.ok(!nodeCost(bin("*"), [{ ...matrix, rows: null, nnz: null }, two], { ...matrix, rows: null, nnz: null }).known);
  });
});
