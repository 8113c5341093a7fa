// eigen, svd, qr and lu on random matrices: each result has SystemDS's
// shape and the decomposition reconstructs its input (A = V diag(e) V^T
// with orthonormal V and ascending e; A = U S V^T with orthonormal U, V and
// descending S; Q R = A with Q the product of the reflections H holds;
// P A = L U), and bad inputs are refused with a message.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DECOMPOSITION_BUILTINS } from "../../engine/runtime/interpreter/builtins-decompositions";
import { DmlRuntimeError } from "../../engine/runtime/interpreter/errors";
import type { Value } from "../../engine/runtime/interpreter/values";
import { DenseMatrix } from "../../engine/runtime/matrix";

type Rows = number[][];

const runs = { numRuns: 150 };

function matrixValue(rows: Rows): Value {
  const r = rows.length;
  const c = rows[0]?.length ?? 0;
  return { kind: "matrix", matrix: new DenseMatrix(r, c, Float64Array.from(rows.flat())) };
}

function decompose(name: string, a: Rows): Rows[] {
  return DECOMPOSITION_BUILTINS[name]!({ values: [matrixValue(a)], names: [undefined] }).map((v) => {
    assert.equal(v.kind, "matrix");
    const m = (v as Extract<Value, { kind: "matrix" }>).matrix as DenseMatrix;
    return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  });
}

const shape = (m: Rows) => [m.length, m[0]?.length ?? 0];
const multiply = (a: Rows, b: Rows): Rows => a.map((row) => b[0]!.map((_, j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
const transpose = (a: Rows): Rows => a[0]!.map((_, j) => a.map((row) => row[j]!));
const identity = (n: number): Rows => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
const scale = (a: Rows) => Math.max(1, ...a.flat().map(Math.abs));

function assertClose(actual: Rows, expected: Rows, tolerance: number, what: string): void {
  assert.deepEqual(shape(actual), shape(expected), `${what}: shape`);
  actual.forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs(v - expected[i]![j]!) <= tolerance, `${what}: [${i + 1}, ${j + 1}] is ${v}, expected ${expected[i]![j]}`)));
}

const entry = fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true });
const matrixArb = (rows: number, cols: number) => fc.array(fc.array(entry, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });
const squareArb = fc.integer({ min: 1, max: 8 }).chain((n) => matrixArb(n, n));
const rectangularArb = fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })).chain(([m, n]) => matrixArb(m, n));
const symmetricArb = squareArb.map((a) => a.map((row, i) => row.map((_, j) => (a[i]![j]! + a[j]![i]!) / 2)));

describe("eigen", () => {
  it("gives ascending eigenvalues (n x 1) and orthonormal eigenvectors (n x n) with A = V diag(e) V^T", () => {
    fc.assert(
      fc.property(symmetricArb, (a) => {
        const n = a.length;
        const [e, v] = decompose("eigen", a);
        assert.deepEqual(shape(e!), [n, 1]);
        assert.deepEqual(shape(v!), [n, n]);
        for (let i = 1; i < n; i++) assert.ok(e![i - 1]![0]! <= e![i]![0]!, "eigenvalues ascending");
        const tolerance = 1e-10 * scale(a) * n;
        assertClose(multiply(transpose(v!), v!), identity(n), 1e-10 * n, "V^T V");
        assertClose(multiply(multiply(v!, e!.map((x, i) => identity(n)[i]!.map((d) => d * x[0]!))), transpose(v!)), a, tolerance, "V diag(e) V^T");
      }),
      runs,
    );
  });
});

describe("svd", () => {
  it("gives U m x p, S p x p diagonal descending, V n x p with orthonormal columns and U S V^T = A", () => {
    fc.assert(
      fc.property(rectangularArb, (a) => {
        const [m, n] = shape(a);
        const p = Math.min(m!, n!);
        const [u, s, v] = decompose("svd", a);
        assert.deepEqual([shape(u!), shape(s!), shape(v!)], [[m, p], [p, p], [n, p]]);
        s!.forEach((row, i) => row.forEach((x, j) => (i === j ? assert.ok(x >= 0) : assert.equal(x, 0))));
        for (let i = 1; i < p; i++) assert.ok(s![i - 1]![i - 1]! >= s![i]![i]!, "singular values descending");
        const tolerance = 1e-10 * scale(a) * (m! + n!);
        assertClose(multiply(multiply(u!, s!), transpose(v!)), a, tolerance, "U S V^T");
        // Columns belonging to non-zero singular values are orthonormal.
        const kept = s!.map((row, i) => row[i]!).filter((x) => x > 1e-8 * scale(a)).length;
        const cols = (x: Rows) => x.map((row) => row.slice(0, kept));
        assertClose(multiply(transpose(cols(u!)), cols(u!)), identity(kept), 1e-9, "U^T U");
        assertClose(multiply(transpose(cols(v!)), cols(v!)), identity(kept), 1e-9, "V^T V");
      }),
      runs,
    );
  });
});

/** Q from qr's H: the product of the reflections I - h h^T / h_j, each h a column of H. */
function qFromH(h: Rows): Rows {
  const [m, n] = shape(h);
  let q = identity(m!);
  for (let j = 0; j < Math.min(m!, n!); j++) {
    const v = h.map((row) => row[j]!);
    const reflection = identity(m!).map((row, r) => row.map((x, c) => x - (v[r]! * v[c]!) / v[j]!));
    q = multiply(q, reflection);
  }
  return q;
}

describe("qr", () => {
  it("gives H m x n (lower trapezoidal) and R m x n (upper trapezoidal) with Q R = A, Q orthogonal", () => {
    // Full column rank (a zero column makes H NaN there, as in Commons Math): diagonally dominant columns.
    const fullRank = rectangularArb.map((a) => a.map((row, i) => row.map((x, j) => (i === j ? x + 1000 : x))));
    fc.assert(
      fc.property(fullRank, (a) => {
        const [m, n] = shape(a);
        const [h, r] = decompose("qr", a);
        assert.deepEqual([shape(h!), shape(r!)], [[m, n], [m, n]]);
        h!.forEach((row, i) => row.forEach((x, j) => j > i && assert.equal(x, 0, "H above the diagonal")));
        r!.forEach((row, i) => row.forEach((x, j) => j < i && assert.equal(x, 0, "R below the diagonal")));
        const q = qFromH(h!);
        assertClose(multiply(transpose(q), q), identity(m!), 1e-12 * m!, "Q^T Q");
        assertClose(multiply(q, r!), a, 1e-12 * scale(a) * m!, "Q R");
      }),
      runs,
    );
  });
});

describe("lu", () => {
  it("gives a permutation P, unit lower L and upper U (n x n each) with P A = L U", () => {
    const regular = squareArb.map((a) => a.map((row, i) => row.map((x, j) => (i === j ? x + 1000 : x))));
    fc.assert(
      fc.property(regular, (a) => {
        const n = a.length;
        const [p, l, u] = decompose("lu", a);
        for (const x of [p!, l!, u!]) assert.deepEqual(shape(x), [n, n]);
        p!.forEach((row) => assert.equal(row.filter((x) => x === 1).length, 1));
        assert.deepEqual(transpose(p!).map((col) => col.reduce((s, x) => s + x, 0)), Array(n).fill(1));
        l!.forEach((row, i) => row.forEach((x, j) => (j > i ? assert.equal(x, 0) : j === i ? assert.equal(x, 1) : assert.ok(Math.abs(x) <= 1, "partial pivoting bounds L"))));
        u!.forEach((row, i) => row.forEach((x, j) => j < i && assert.equal(x, 0)));
        assertClose(multiply(p!, a), multiply(l!, u!), 1e-10 * scale(a) * n, "P A = L U");
      }),
      runs,
    );
  });
});

describe("decompositions: bad input", () => {
  const message = (name: string, a: Rows): string => {
    try {
      decompose(name, a);
    } catch (error) {
      assert.ok(error instanceof DmlRuntimeError, String(error));
      return error.message;
    }
    return assert.fail(`${name} accepted the input`);
  };

  it("refuses non-square input to eigen and lu, naming the shape", () => {
    assert.equal(message("eigen", [[1, 2, 3], [4, 5, 6]]), "eigen: an eigen decomposition needs a square matrix, found 2 x 3");
    assert.equal(message("lu", [[1, 2]]), "lu: an LU decomposition needs a square matrix, found 1 x 2");
  });

  it("refuses NaN and infinite values with their position, and empty matrices", () => {
    assert.equal(message("svd", [[1, 2], [Number.NaN, 4]]), "svd: the matrix contains NaN at [2, 1]");
    assert.equal(message("qr", [[1, Number.POSITIVE_INFINITY]]), "qr: the matrix contains Infinity at [1, 2]");
    assert.equal(message("eigen", []), "eigen: the matrix is empty (0 x 0)");
  });

  it("refuses a non-symmetric matrix to eigen and a singular one to lu", () => {
    assert.equal(message("eigen", [[1, 2], [3, 4]]), "eigen: the matrix is not symmetric (A[1, 2] = 2, A[2, 1] = 3); the embedded runtime decomposes symmetric matrices only");
    assert.equal(message("lu", [[1, 2], [2, 4]]), "lu: the matrix is singular (no pivot of magnitude 1e-11 or more in column 2)");
  });
});

describe("eigen of a nearly symmetric matrix", () => {
  it("decomposes (A + A^T) / 2 when A is symmetric to 1e-10 of its largest entry (kernels' rounding across the diagonal)", () => {
    const a = [[2, 1 + 1e-13], [1, 3]];
    const [e] = decompose("eigen", a);
    const [eSymmetric] = decompose("eigen", [[2, 1 + 5e-14], [1 + 5e-14, 3]]);
    assert.deepEqual(e, eSymmetric);
  });
});

it("eigen of a matrix with subnormal cells (fast-check's counterexample) gives the eigenvalues, not a crash", () => {
  const [values] = decompose("eigen", [
    [0.8050547622714159, -5e-324, 1.8645851828000517e-155],
    [-5e-324, 0, 0],
    [1.8645851828000517e-155, 0, 0],
  ]);
  assert.deepEqual(values!.map((row) => row[0]), [0, 0, 0.8050547622714159]);
});
