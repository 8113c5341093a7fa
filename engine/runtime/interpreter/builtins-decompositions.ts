/**
 * The multi-result matrix decompositions, with the results SystemDS gives
 * (runtime/matrix/data/LibCommonsMath.java, which calls Apache Commons Math):
 *
 * | DML | results |
 * |---|---|
 * | `[evalues, evectors] = eigen(A)` | A symmetric n x n (within 1e-10 of its largest entry): eigenvalues ascending (n x 1), eigenvectors as the columns of an n x n matrix in the same order |
 * | `[U, S, V] = svd(A)` | A m x n, p = min(m, n): U m x p, S the p x p diagonal matrix of the singular values (descending), V n x p; A = U S t(V) |
 * | `[H, R] = qr(A)` | A m x n: H m x n holds the Householder vectors (column j is the vector of reflection j, scaled so that the reflection is I - h h^T / h_j), R m x n upper trapezoidal; not Q |
 * | `[P, L, U] = lu(A)` | A n x n: partial pivoting, P A = L U, L unit lower triangular |
 *
 * eigen and svd use ml-matrix (ports of JAMA's tridiagonal QL and
 * Golub-Kahan algorithms); eigenvector and singular vector signs are
 * whatever those algorithms give (as in SystemDS, where Commons Math
 * chooses them). qr and lu follow Commons Math's QRDecomposition and
 * LUDecomposition step by step, so H, R, P, L and U are the ones SystemDS
 * prints (a column with no non-zero on and below the diagonal gives NaN in
 * that column of H, as there). Inputs that are empty, contain NaN or
 * infinity, are not square (eigen, lu), not symmetric (eigen) or singular
 * (lu) are runtime errors.
 */
import { EigenvalueDecomposition, Matrix as MlMatrix, SingularValueDecomposition } from "ml-matrix";
import { toDense, DenseMatrix } from "../matrix";
import type { CallArgs } from "./builtins";
import { fail } from "./errors";
import { mat } from "./operations";
import type { Value } from "./values";

/** Commons Math's LUDecomposition.DEFAULT_TOO_SMALL: a pivot below it makes the matrix singular. */
const LU_SINGULARITY_THRESHOLD = 1e-11;

const result = (rows: number, cols: number, data: Float64Array): Value => ({ kind: "matrix", matrix: new DenseMatrix(rows, cols, data) });

/** The one matrix argument: dense, non-empty, all values finite. */
function input(a: CallArgs, fn: string): DenseMatrix {
  if (a.values.length !== 1) fail(`${fn} takes one matrix argument, found ${a.values.length}`);
  const value = a.values[0]!;
  if (value.kind !== "matrix") fail(`${fn}: expected a matrix argument`);
  const x = toDense(mat(value, fn));
  if (x.rows === 0 || x.cols === 0) fail(`${fn}: the matrix is empty (${x.rows} x ${x.cols})`);
  for (let k = 0; k < x.data.length; k++) {
    if (!Number.isFinite(x.data[k])) fail(`${fn}: the matrix contains ${x.data[k]} at [${Math.floor(k / x.cols) + 1}, ${(k % x.cols) + 1}]`);
  }
  return x;
}

function square(x: DenseMatrix, fn: string, what: string): void {
  if (x.rows !== x.cols) fail(`${fn}: ${what} needs a square matrix, found ${x.rows} x ${x.cols}`);
}

/**
 * A power of two that brings the largest magnitude of `x` near 1 (exactly,
 * for all but subnormal values): eigen and svd run on the scaled matrix and
 * scale the eigenvalues or singular values back, so that values near the
 * ends of the double range neither overflow nor lose the algorithms' accuracy.
 */
function balancingScale(x: DenseMatrix): number {
  const largest = largestMagnitude(x);
  return largest === 0 ? 1 : 2 ** Math.min(1023, -Math.floor(Math.log2(largest)));
}

/** The largest absolute value of the cells of `x` (0 for a matrix of zeros). */
function largestMagnitude(x: DenseMatrix): number {
  let largest = 0;
  for (const value of x.data) largest = Math.max(largest, Math.abs(value));
  return largest;
}

/** The smallest normal double: below it (subnormals) ml-matrix's iterations can index past their arrays. */
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** The matrix times `scale` for ml-matrix, subnormal cells flushed to 0 (a change far below any normal cell's precision). */
function toMl(x: DenseMatrix, scale = 1): MlMatrix {
  const m = new MlMatrix(x.rows, x.cols);
  for (let i = 0; i < x.rows; i++) {
    for (let j = 0; j < x.cols; j++) {
      const value = x.get(i, j) * scale;
      m.set(i, j, Math.abs(value) < SMALLEST_NORMAL ? 0 : value);
    }
  }
  return m;
}

function fromMl(m: MlMatrix): Float64Array {
  const out = new Float64Array(m.rows * m.columns);
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.columns; j++) out[i * m.columns + j] = m.get(i, j);
  return out;
}

/**
 * Relative asymmetry (to the largest magnitude of A) below which eigen
 * treats A as symmetric and decomposes (A + A^T) / 2: products such as
 * t(X) %*% X computed by blocked kernels can differ in the last bits across
 * the diagonal, where Commons Math (whose own tolerance is 10 n^2 eps, per
 * entry) would switch to its general algorithm and find the same values.
 */
const SYMMETRY_TOLERANCE = 1e-10;

/** A symmetric copy of `x`, or a runtime error naming the most asymmetric pair of entries. */
function symmetric(x: DenseMatrix): DenseMatrix {
  const n = x.rows;
  const largest = largestMagnitude(x);
  const out = new DenseMatrix(n, n, Float64Array.from(x.data));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = x.get(i, j);
      const b = x.get(j, i);
      if (Math.abs(a - b) > SYMMETRY_TOLERANCE * largest) {
        fail(`eigen: the matrix is not symmetric (A[${i + 1}, ${j + 1}] = ${a}, A[${j + 1}, ${i + 1}] = ${b}); the embedded runtime decomposes symmetric matrices only`);
      }
      out.data[i * n + j] = out.data[j * n + i] = (a + b) / 2;
    }
  }
  return out;
}

function eigen(a: CallArgs): Value[] {
  const x = input(a, "eigen");
  square(x, "eigen", "an eigen decomposition");
  const symmetricX = symmetric(x);
  const n = symmetricX.rows;
  const scale = balancingScale(symmetricX);
  const evd = new EigenvalueDecomposition(toMl(symmetricX, scale), { assumeSymmetric: true });
  const values = Float64Array.from(evd.realEigenvalues, (e) => e / scale);
  const vectors = fromMl(evd.eigenvectorMatrix);
  // SystemDS's sortEVs: selection sort into ascending order, swapping eigenvector columns along.
  for (let i = 0; i < n; i++) {
    let k = i;
    for (let j = i + 1; j < n; j++) if (values[j]! < values[k]!) k = j;
    if (k === i) continue;
    swap(values, i, k);
    for (let r = 0; r < n; r++) swap(vectors, r * n + i, r * n + k);
  }
  return [result(n, 1, values), result(n, n, vectors)];
}

/** Exchanges a[i] and a[k] (both within `a`). */
function swap(a: Float64Array, i: number, k: number): void {
  const t = a[i]!;
  a[i] = a[k]!;
  a[k] = t;
}

function svd(a: CallArgs): Value[] {
  const x = input(a, "svd");
  const p = Math.min(x.rows, x.cols);
  const scale = balancingScale(x);
  const decomposition = new SingularValueDecomposition(toMl(x, scale), { autoTranspose: true });
  const sigma = new Float64Array(p * p);
  decomposition.diagonal.slice(0, p).forEach((s, i) => (sigma[i * p + i] = s / scale));
  return [result(x.rows, p, fromMl(decomposition.leftSingularVectors)), result(p, p, sigma), result(x.cols, p, fromMl(decomposition.rightSingularVectors))];
}

/**
 * Commons Math's QRDecomposition: Householder reflections on the columns
 * (held as the rows of `qrt`, A transposed), the diagonal of R apart.
 */
function qr(a: CallArgs): Value[] {
  const x = input(a, "qr");
  const m = x.rows;
  const n = x.cols;
  const qrt = Array.from({ length: n }, (_, j) => Float64Array.from({ length: m }, (_, i) => x.get(i, j)));
  const rDiag = new Float64Array(Math.min(m, n));
  for (let minor = 0; minor < rDiag.length; minor++) {
    const column = qrt[minor]!;
    let normSquared = 0;
    for (let row = minor; row < m; row++) normSquared += column[row]! * column[row]!;
    const alpha = column[minor]! > 0 ? -Math.sqrt(normSquared) : Math.sqrt(normSquared);
    rDiag[minor] = alpha;
    if (alpha === 0) continue;
    column[minor]! -= alpha;
    for (let col = minor + 1; col < n; col++) {
      const other = qrt[col]!;
      let factor = 0;
      for (let row = minor; row < m; row++) factor -= other[row]! * column[row]!;
      factor /= alpha * column[minor]!;
      for (let row = minor; row < m; row++) other[row]! -= factor * column[row]!;
    }
  }
  const h = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < Math.min(i + 1, n); j++) h[i * n + j] = qrt[j]![i]! / -rDiag[j]!;
  const r = new Float64Array(m * n);
  for (let row = rDiag.length - 1; row >= 0; row--) {
    r[row * n + row] = rDiag[row]!;
    for (let col = row + 1; col < n; col++) r[row * n + col] = qrt[col]![row]!;
  }
  return [result(m, n, h), result(m, n, r)];
}

/** Commons Math's LUDecomposition: Crout's algorithm with partial pivoting (the first largest pivot). */
function lu(a: CallArgs): Value[] {
  const x = input(a, "lu");
  square(x, "lu", "an LU decomposition");
  const n = x.rows;
  const rows = Array.from({ length: n }, (_, i) => Float64Array.from(x.data.subarray(i * n, (i + 1) * n)));
  const pivot = Array.from({ length: n }, (_, i) => i);
  for (let col = 0; col < n; col++) {
    for (let row = 0; row < col; row++) {
      const r = rows[row]!;
      let sum = r[col]!;
      for (let i = 0; i < row; i++) sum -= r[i]! * rows[i]![col]!;
      r[col] = sum;
    }
    let max = col;
    let largest = -Infinity;
    for (let row = col; row < n; row++) {
      const r = rows[row]!;
      let sum = r[col]!;
      for (let i = 0; i < col; i++) sum -= r[i]! * rows[i]![col]!;
      r[col] = sum;
      if (Math.abs(sum) > largest) {
        largest = Math.abs(sum);
        max = row;
      }
    }
    if (Math.abs(rows[max]![col]!) < LU_SINGULARITY_THRESHOLD) {
      fail(`lu: the matrix is singular (no pivot of magnitude ${LU_SINGULARITY_THRESHOLD} or more in column ${col + 1})`);
    }
    if (max !== col) {
      [rows[max], rows[col]] = [rows[col]!, rows[max]!];
      [pivot[max], pivot[col]] = [pivot[col]!, pivot[max]!];
    }
    const diagonal = rows[col]![col]!;
    for (let row = col + 1; row < n; row++) rows[row]![col]! /= diagonal;
  }
  const p = new Float64Array(n * n);
  const l = new Float64Array(n * n);
  const u = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    p[i * n + pivot[i]!] = 1;
    for (let j = 0; j < n; j++) {
      const v = rows[i]![j]!;
      if (j < i) l[i * n + j] = v;
      else u[i * n + j] = v;
    }
    l[i * n + i] = 1;
  }
  return [result(n, n, p), result(n, n, l), result(n, n, u)];
}

/** Builtins with several results, each returning all of them in order. */
export const DECOMPOSITION_BUILTINS: Record<string, (a: CallArgs) => Value[]> = { eigen, svd, qr, lu };
