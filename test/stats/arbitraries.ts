// fast-check generators of random sparse structures for the stats tests.
import fc from "fast-check";
import { structureCoordinates, structureFromDense, type SparsityStructure } from "../../engine/stats/structure";

/** A rows x cols structure whose cells are non-zero with a random density (0 and 1 included). */
export function structureOf(rows: number, cols: number): fc.Arbitrary<SparsityStructure> {
  return fc
    .tuple(
      fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: rows * cols, maxLength: rows * cols }),
    )
    .map(([density, u]) => structureFromDense(rows, cols, u.map((x) => (x < density ? 1 : 0))));
}

/** A structure with at most one non-zero per row (`perRow`) or per column. */
export function atMostOnePer(rows: number, cols: number, perRow: boolean): fc.Arbitrary<SparsityStructure> {
  const lines = perRow ? rows : cols;
  const width = perRow ? cols : rows;
  return fc.array(fc.integer({ min: -1, max: width - 1 }), { minLength: lines, maxLength: lines }).map((picks) => {
    const values = new Array<number>(rows * cols).fill(0);
    picks.forEach((p, line) => {
      if (p >= 0) values[perRow ? line * cols + p : p * cols + line] = 1;
    });
    return structureFromDense(rows, cols, values);
  });
}

export const dim = (max = 7) => fc.integer({ min: 1, max });

/** A dense 0/1 copy, for comparisons. */
export function dense(s: SparsityStructure): number[][] {
  const out = Array.from({ length: s.rows }, () => new Array<number>(s.cols).fill(0));
  for (const [i, j] of structureCoordinates(s)) out[i]![j] = 1;
  return out;
}
