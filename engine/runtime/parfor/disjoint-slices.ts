/**
 * Whether the slices a parfor's iterations write of a result variable are
 * disjoint, decided with the values of the names in the index expressions
 * (engine/program/parfor-dependencies.ts gives their affine forms).
 *
 * A dimension separates the iterations when every write (and every indexed
 * read) of the result is affine in it with the same non-zero integer
 * coefficient c of the loop variable: iteration x then touches
 * [c·x + lo, c·x + hi] of that dimension, the union of the writes' ranges,
 * and two iterations, whose loop values differ by at least |by|, touch
 * disjoint parts when hi - lo < |c·by|. Reads must stay inside their own
 * iteration's part. `R[i, ]`, `R[, i]`, `R[i, j]` and
 * `R[(i-1)*k+1 : i*k, ]` all pass; `R[1, ]` and `R[i, ] + R[i+1, ]` do not.
 */
import { evaluatePoly, linearIn, type DimensionForm, type IndexAccess, type ResultVariable } from "../../program";

interface Interval {
  coefficient: number;
  lo: number;
  hi: number;
}

/** Undefined when the writes of different iterations are disjoint, else why they may not be. */
export function overlapReason(result: ResultVariable, loopVariable: string, by: number, valueOf: (name: string) => number | undefined): string | undefined {
  for (const dimension of ["rows", "cols"] as const) {
    if (separates(result, dimension, loopVariable, by, valueOf)) return undefined;
  }
  return `cannot show that the iterations write disjoint parts of '${result.name}'`;
}

function separates(result: ResultVariable, dimension: "rows" | "cols", x: string, by: number, valueOf: (name: string) => number | undefined): boolean {
  const writes = result.writes.map((w) => interval(w[dimension], x, valueOf));
  if (writes.some((w) => w === undefined)) return false;
  const c = writes[0]!.coefficient;
  if (c === 0 || writes.some((w) => w!.coefficient !== c)) return false;
  const lo = Math.min(...writes.map((w) => w!.lo));
  const hi = Math.max(...writes.map((w) => w!.hi));
  if (hi - lo >= Math.abs(c * by)) return false;
  return result.reads.every((r: IndexAccess) => {
    const i = interval(r[dimension], x, valueOf);
    return i !== undefined && i.coefficient === c && i.lo >= lo && i.hi <= hi;
  });
}

/** The form as c·x + [lo, hi] with integer values, or undefined. */
function interval(form: DimensionForm, x: string, valueOf: (name: string) => number | undefined): Interval | undefined {
  if (form.kind !== "affine") return undefined;
  const lower = linearIn(form.lower, x);
  const upper = linearIn(form.upper, x);
  if (!lower || !upper) return undefined;
  const c1 = evaluatePoly(lower.coefficient, valueOf);
  const c2 = evaluatePoly(upper.coefficient, valueOf);
  const lo = evaluatePoly(lower.offset, valueOf);
  const hi = evaluatePoly(upper.offset, valueOf);
  if (c1 === undefined || c2 === undefined || lo === undefined || hi === undefined) return undefined;
  if (c1 !== c2 || ![c1, lo, hi].every(Number.isSafeInteger)) return undefined;
  return { coefficient: c1, lo, hi };
}
