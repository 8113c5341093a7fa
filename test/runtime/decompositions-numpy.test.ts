// eigen, svd, qr and lu against numpy/scipy (LAPACK) on random matrices.
// Eigenvectors and singular vectors are unique only up to sign: both sides
// are normalised so that the largest-magnitude entry of each column is
// positive before comparing. qr's H and R are compared with LAPACK's
// Householder form (numpy's qr mode="raw": H column j = tau_j * v_j with
// v_j[j] = 1), which Commons Math's equals for tall matrices; on square and
// wide ones the last reflection differs (LAPACK skips a 1-element one,
// Commons Math flips its sign), so R is compared up to the sign of each row.
// lu: scipy's A = p l u, so SystemDS's P is p transposed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DECOMPOSITION_BUILTINS } from "../../engine/runtime/interpreter/builtins-decompositions";
import type { Value } from "../../engine/runtime/interpreter/values";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { lazyReference, uniformStream } from "./python-reference";

type Rows = number[][];

function decompose(name: string, a: Rows): Rows[] {
  const input: Value = { kind: "matrix", matrix: new DenseMatrix(a.length, a[0]!.length, Float64Array.from(a.flat())) };
  return DECOMPOSITION_BUILTINS[name]!({ values: [input], names: [undefined] }).map((v) => {
    const m = (v as Extract<Value, { kind: "matrix" }>).matrix as DenseMatrix;
    return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  });
}

function randomMatrix(rows: number, cols: number, seed: number): Rows {
  const next = uniformStream(seed);
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => 2 * next() - 1));
}

function symmetric(n: number, seed: number): Rows {
  const a = randomMatrix(n, n, seed);
  return a.map((row, i) => row.map((_, j) => a[i]![j]! + a[j]![i]!));
}

/** Each column multiplied by the sign of its largest-magnitude entry. */
function signNormalised(m: Rows): Rows {
  const signs = m[0]!.map((_, j) => {
    let best = 0;
    for (const row of m) if (Math.abs(row[j]!) > Math.abs(best)) best = row[j]!;
    return best < 0 ? -1 : 1;
  });
  return m.map((row) => row.map((x, j) => x * signs[j]!));
}

function maxDifference(a: Rows, b: Rows): number {
  assert.deepEqual([a.length, a[0]?.length], [b.length, b[0]?.length], "shapes differ");
  return Math.max(0, ...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i]![j]!))));
}

interface Expected {
  eigen: { values: number[]; vectors: Rows }[];
  svd: { u: Rows; s: number[]; v: Rows }[];
  qr: { h: Rows; r: Rows }[];
  lu: { p: Rows; l: Rows; u: Rows }[];
}

const cases = {
  eigen: [1, 2, 7, 20, 50].map((n, k) => symmetric(n, 11 + k)),
  svd: [randomMatrix(30, 12, 3), randomMatrix(12, 30, 4), randomMatrix(9, 9, 5), randomMatrix(1, 6, 6)],
  qr: [randomMatrix(9, 5, 7), randomMatrix(20, 20, 8), randomMatrix(4, 7, 9)],
  lu: [randomMatrix(1, 1, 21), randomMatrix(6, 6, 22), randomMatrix(25, 25, 23)],
};

const reference = lazyReference<Expected>(
  [
    "out = {'eigen': [], 'svd': [], 'qr': [], 'lu': []}",
    "for a in data['eigen']:",
    "    w, v = np.linalg.eigh(np.array(a))",
    "    out['eigen'].append({'values': w.tolist(), 'vectors': v.tolist()})",
    "for a in data['svd']:",
    "    u, s, vt = np.linalg.svd(np.array(a), full_matrices=False)",
    "    out['svd'].append({'u': u.tolist(), 's': s.tolist(), 'v': vt.T.tolist()})",
    "for a in data['qr']:",
    "    a = np.array(a); m, n = a.shape",
    "    raw, tau = np.linalg.qr(a, mode='raw')",
    "    f = raw.T",
    "    h = np.zeros((m, n))",
    "    for j in range(min(m, n)):",
    "        v = np.zeros(m); v[j] = 1.0; v[j+1:] = f[j+1:, j]",
    "        h[:, j] = tau[j] * v",
    "    out['qr'].append({'h': h.tolist(), 'r': np.triu(f).tolist()})",
    "for a in data['lu']:",
    "    p, l, u = scipy.linalg.lu(np.array(a))",
    "    out['lu'].append({'p': p.T.tolist(), 'l': l.tolist(), 'u': u.tolist()})",
    "print(json.dumps(out))",
  ].join("\n"),
  () => cases,
);

/** The reference values, or undefined after skipping the test with the reason they are missing. */
function expected(t: { skip(message: string): void }): Expected | undefined {
  const r = reference();
  if (r.ok) return r.value;
  t.skip(r.reason);
  return undefined;
}

describe("decompositions against numpy/scipy", () => {
  it("eigen: eigenvalues within 1e-10 and eigenvectors (up to sign) within 1e-8 of numpy.linalg.eigh, random symmetric up to 50 x 50", (t) => {
    const e = expected(t);
    if (!e) return;
    cases.eigen.forEach((a, k) => {
      const [values, vectors] = decompose("eigen", a);
      const scale = Math.max(...e.eigen[k]!.values.map(Math.abs));
      assert.ok(maxDifference(values!, e.eigen[k]!.values.map((x) => [x])) <= 1e-10 * scale, `eigenvalues of case ${k}`);
      assert.ok(maxDifference(signNormalised(vectors!), signNormalised(e.eigen[k]!.vectors)) <= 1e-8, `eigenvectors of case ${k}`);
    });
  });

  it("svd: singular values within 1e-12 (relative) and U, V (up to sign) within 1e-9 of numpy.linalg.svd, tall, wide and square", (t) => {
    const e = expected(t);
    if (!e) return;
    cases.svd.forEach((a, k) => {
      const [u, s, v] = decompose("svd", a);
      const ref = e.svd[k]!;
      const diagonal = ref.s.map((x, i) => ref.s.map((_, j) => (i === j ? x : 0)));
      assert.ok(maxDifference(s!, diagonal) <= 1e-12 * ref.s[0]!, `S of case ${k}`);
      assert.ok(maxDifference(signNormalised(u!), signNormalised(ref.u)) <= 1e-9, `U of case ${k}`);
      assert.ok(maxDifference(signNormalised(v!), signNormalised(ref.v)) <= 1e-9, `V of case ${k}`);
    });
  });

  it("qr: H and R equal LAPACK's Householder form (numpy qr raw) on tall matrices; R up to row signs on square and wide ones", (t) => {
    const e = expected(t);
    if (!e) return;
    const [tallH, tallR] = decompose("qr", cases.qr[0]!);
    assert.ok(maxDifference(tallH!, e.qr[0]!.h) <= 1e-12, "H of the tall matrix");
    assert.ok(maxDifference(tallR!, e.qr[0]!.r) <= 1e-12, "R of the tall matrix");
    const rowSigns = (m: Rows) => m.map((row) => row.map((x) => x * Math.sign(row.find((y) => y !== 0) ?? 1)));
    for (const k of [1, 2]) {
      const [, r] = decompose("qr", cases.qr[k]!);
      assert.ok(maxDifference(rowSigns(r!), rowSigns(e.qr[k]!.r)) <= 1e-12, `R of case ${k}`);
    }
  });

  it("lu: P, L and U equal scipy.linalg.lu's (P transposed) within 1e-12", (t) => {
    const e = expected(t);
    if (!e) return;
    cases.lu.forEach((a, k) => {
      const [p, l, u] = decompose("lu", a);
      assert.deepEqual(p, e.lu[k]!.p, `P of case ${k}`);
      assert.ok(maxDifference(l!, e.lu[k]!.l) <= 1e-12, `L of case ${k}`);
      assert.ok(maxDifference(u!, e.lu[k]!.u) <= 1e-12, `U of case ${k}`);
    });
  });
});
