/** Comparing matrices cell by cell within a tolerance, whatever their formats (tests and the rewrite oracle). */
import type { Matrix } from "./matrix";

export interface Tolerance {
  /** Allowed difference relative to the larger magnitude of the two values (default 1e-9). */
  relative?: number;
  /** Allowed absolute difference, for values near 0 (default 1e-12). */
  absolute?: number;
}

/** x and y equal within the tolerance; NaN equals NaN, infinities must match exactly. */
export function valuesClose(x: number, y: number, tol: Tolerance = {}): boolean {
  if (x === y) return true;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  const rel = tol.relative ?? 1e-9;
  const abs = tol.absolute ?? 1e-12;
  return Math.abs(x - y) <= abs + rel * Math.max(Math.abs(x), Math.abs(y));
}

/** The first difference between `a` and `b` (shape or a cell), or undefined when they are equal within the tolerance. */
export function matrixDifference(a: Matrix, b: Matrix, tol: Tolerance = {}): string | undefined {
  if (a.rows !== b.rows || a.cols !== b.cols) return `shapes differ: ${a.rows} x ${a.cols} vs ${b.rows} x ${b.cols}`;
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < a.cols; j++) {
      const x = a.get(i, j);
      const y = b.get(i, j);
      if (!valuesClose(x, y, tol)) return `cell (${i + 1}, ${j + 1}) differs: ${x} vs ${y}`;
    }
  }
  return undefined;
}

export function matricesEqual(a: Matrix, b: Matrix, tol: Tolerance = {}): boolean {
  return matrixDifference(a, b, tol) === undefined;
}
