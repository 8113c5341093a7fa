// fast-check generators of matrices for the runtime property tests: random
// shapes (including 0 x n, 1 x 1 and vectors), densities from 0 to 1, and
// both storage formats whatever the format rule would pick.
import fc from "fast-check";
import assert from "node:assert/strict";
import { CsrMatrix, csrInvariantViolation, DenseMatrix, denseToCsr, type Matrix, chooseFormat, valuesClose } from "../../engine/runtime/matrix";
import { ref, type Ref } from "./reference";

export type Format = "dense" | "sparse";

export const dim = (max = 6) => fc.integer({ min: 0, max });
export const formatArb = fc.constantFrom<Format>("dense", "sparse");

/** Cell values: small integers (exact arithmetic) or doubles in [-10, 10]; no -0, which a CSR matrix cannot store (nor can SystemDS's). */
const value = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }).map((v) => v + 0),
);

/** A rows x cols reference matrix with a random share of zeros (0 and 1 included). */
export function refArb(rows: number, cols: number): fc.Arbitrary<Ref> {
  return fc
    .tuple(
      fc.oneof(fc.constant(0), fc.constant(1), fc.constant(0.1), fc.double({ min: 0, max: 1, noNaN: true })),
      fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), value), { minLength: rows * cols, maxLength: rows * cols }),
    )
    .map(([density, cells]) => ref(rows, cols, cells.map(([u, v]) => (u < density ? v : 0))));
}

/** The reference matrix in the given format. */
export function toMatrix(r: Ref, format: Format): Matrix {
  const d = new DenseMatrix(r.rows, r.cols, Float64Array.from(r.cells));
  return format === "dense" ? d : denseToCsr(d);
}

/** A reference matrix and the same matrix in a random format. */
export function matrixArb(rows: number, cols: number): fc.Arbitrary<{ ref: Ref; m: Matrix }> {
  return fc.tuple(refArb(rows, cols), formatArb).map(([r, f]) => ({ ref: r, m: toMatrix(r, f) }));
}

export function shapeArb(max = 6): fc.Arbitrary<[number, number]> {
  return fc.oneof(
    fc.tuple(dim(max), dim(max)),
    fc.tuple(fc.constant(1), fc.constant(1)),
    fc.tuple(dim(max), fc.constant(1)),
    fc.tuple(fc.constant(1), dim(max)),
  );
}

/** Asserts that `m` holds the cells of `expected` (within 1e-9 relative), keeps the CSR invariants and is in its preferred format. */
export function assertMatches(m: Matrix, expected: Ref, what: string, checkFormat = true): void {
  assert.equal(`${m.rows} x ${m.cols}`, `${expected.rows} x ${expected.cols}`, `${what}: shape`);
  if (m instanceof CsrMatrix) assert.equal(csrInvariantViolation(m), undefined, `${what}: CSR invariants`);
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) {
      const x = m.get(i, j);
      const y = expected.cells[i * expected.cols + j]!;
      assert.ok(valuesClose(x, y, { relative: 1e-9, absolute: 1e-9 }), `${what}: cell (${i + 1}, ${j + 1}) is ${x}, expected ${y}`);
    }
  if (checkFormat) assert.equal(m.format, chooseFormat(m.rows, m.cols, m.nnz()), `${what}: format`);
}

export function assertClose(x: number, y: number, what: string): void {
  assert.ok(valuesClose(x, y, { relative: 1e-9, absolute: 1e-9 }), `${what}: ${x}, expected ${y}`);
}
