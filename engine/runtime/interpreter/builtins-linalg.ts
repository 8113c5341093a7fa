/**
 * More builtins of the embedded runtime: cholesky, det, outer, roll,
 * rowIndexMin, cumprod/cummin/cummax, typeof. Dense and straightforward.
 */
import type { ElementwiseBinaryOp } from "../../program";
import { isBinaryOp, scalarBinary } from "../kernels";
import { toDense, DenseMatrix, type Matrix, RuntimeError } from "../matrix";
import { fail } from "./errors";
import { mat, num, text } from "./operations";
import { swapRows } from "./swap-rows";
import { double, str, type Value } from "./values";

type Args = { values: Value[]; names: (string | undefined)[] };
const m = (v: Matrix): Value => ({ kind: "matrix", matrix: v });

function first(a: Args, fn: string): Value {
  return a.values[0] ?? fail(`${fn}: missing argument`);
}

function cholesky(a: Args): Value {
  const x = toDense(mat(first(a, "cholesky")));
  const n = x.rows;
  if (x.cols !== n) throw new RuntimeError("dimension-mismatch", `cholesky: the matrix must be square, found ${x.rows} x ${x.cols}`);
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = x.get(j, j);
    for (let k = 0; k < j; k++) d -= l[j * n + k]! ** 2;
    if (!(d > 0)) throw new RuntimeError("invalid-argument", "cholesky: the matrix is not positive definite");
    l[j * n + j] = Math.sqrt(d);
    for (let i = j + 1; i < n; i++) {
      let s = x.get(i, j);
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = s / l[j * n + j]!;
    }
  }
  return m(new DenseMatrix(n, n, l));
}

function det(a: Args): Value {
  const x = toDense(mat(first(a, "det")));
  const n = x.rows;
  if (x.cols !== n) throw new RuntimeError("dimension-mismatch", `det: the matrix must be square, found ${x.rows} x ${x.cols}`);
  const lu = Float64Array.from(x.data);
  let d = 1;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(lu[i * n + k]!) > Math.abs(lu[p * n + k]!)) p = i;
    if (lu[p * n + k] === 0) return double(0);
    if (p !== k) {
      d = -d;
      swapRows(lu, n, k, p);
    }
    d *= lu[k * n + k]!;
    for (let i = k + 1; i < n; i++) {
      const f = lu[i * n + k]! / lu[k * n + k]!;
      for (let j = k; j < n; j++) lu[i * n + j]! -= f * lu[k * n + j]!;
    }
  }
  return double(d);
}

function outer(a: Args): Value {
  const x = toDense(mat(first(a, "outer")));
  const y = toDense(mat(a.values[1] ?? fail("outer: missing second argument")));
  const op = text(a.values[2] ?? fail("outer: missing operator"));
  if (!isBinaryOp(op)) fail(`outer: unknown operator "${op}"`);
  if (x.cols !== 1 || y.rows !== 1) throw new RuntimeError("dimension-mismatch", `outer: expects a column vector and a row vector, found ${x.rows} x ${x.cols} and ${y.rows} x ${y.cols}`);
  const out = new Float64Array(x.rows * y.cols);
  for (let i = 0; i < x.rows; i++) for (let j = 0; j < y.cols; j++) out[i * y.cols + j] = scalarBinary(op as ElementwiseBinaryOp, x.get(i, 0), y.get(0, j));
  return m(new DenseMatrix(x.rows, y.cols, out));
}

/**
 * roll(X, shift): the rows shifted cyclically down by `shift` (row i goes to
 * row (i + shift) mod nrow(X)), as SystemDS's LibMatrixReorg.roll; a
 * negative shift moves rows up.
 */
function roll(a: Args): Value {
  const x = toDense(mat(first(a, "roll")));
  const shift = Math.trunc(num(a.values[1] ?? fail("roll: missing shift")));
  const rows = x.rows;
  const out = new Float64Array(x.data.length);
  for (let i = 0; i < rows; i++) {
    const to = (((i + shift) % rows) + rows) % rows;
    out.set(x.data.subarray(i * x.cols, (i + 1) * x.cols), to * x.cols);
  }
  return m(new DenseMatrix(rows, x.cols, out));
}

function rowIndexMin(a: Args): Value {
  const x = toDense(mat(first(a, "rowIndexMin")));
  const out = new Float64Array(x.rows);
  for (let i = 0; i < x.rows; i++) {
    let best = 0;
    for (let j = 1; j < x.cols; j++) if (x.get(i, j) < x.get(i, best)) best = j;
    out[i] = x.cols === 0 ? 0 : best + 1;
  }
  return m(new DenseMatrix(x.rows, 1, out));
}

function cumulative(fn: string, step: (acc: number, v: number) => number): (a: Args) => Value {
  return (a) => {
    const x = toDense(mat(first(a, fn)));
    const out = Float64Array.from(x.data);
    for (let i = 1; i < x.rows; i++) for (let j = 0; j < x.cols; j++) out[i * x.cols + j] = step(out[(i - 1) * x.cols + j]!, out[i * x.cols + j]!);
    return m(new DenseMatrix(x.rows, x.cols, out));
  };
}

export const LINALG_BUILTINS: Record<string, (a: Args) => Value> = {
  cholesky,
  det,
  outer,
  roll,
  rowIndexMin,
  cumprod: cumulative("cumprod", (acc, v) => acc * v),
  cummin: cumulative("cummin", (acc, v) => Math.min(acc, v)),
  cummax: cumulative("cummax", (acc, v) => Math.max(acc, v)),
  typeof: (a) => {
    const v = first(a, "typeof");
    return str(v.kind === "scalar" ? "Scalar" : v.kind === "matrix" ? "Matrix" : v.kind === "frame" ? "Frame" : "List");
  },
  castAsScalar: (a) => {
    const v = first(a, "castAsScalar");
    if (v.kind === "scalar") return v;
    const x = mat(v);
    if (x.rows !== 1 || x.cols !== 1) fail(`castAsScalar: expected a 1 x 1 matrix, found ${x.rows} x ${x.cols}`);
    return double(num(v));
  },
};
