/**
 * The code that folds a root's cell values in a generated cell loop, per
 * aggregation and direction, and its accumulator slots:
 * - sums (sum, sumSq, mean, the dot product) are Kahan-compensated as the
 *   runtime sums (kernels/kahan.ts): two compensated accumulators taking
 *   the cells in turn (the pair is swapped after each cell, which halves
 *   the dependency chain), combined at the end of a range (full: the sum
 *   and its correction in two slots, both combined by "sum") or of a row
 *   (row aggregates, written to `out[i]`); so a range over all cells sums
 *   exactly as kahanSum over the same values in the same order. A loop
 *   that visits a one-column domain two rows at a time (`paired`) folds the
 *   first row of each pair into one accumulator and the second into the
 *   other, as kahanSum does, without the swap: about a sixth faster
 *   (l2svm's line-search kernel over 1e6 rows, one thread: 6.0 -> 5.0 ms),
 *   and the same sums when no cell is skipped (a skipped cell leaves its
 *   position's accumulator as it is, where the swapping loop hands its
 *   turn to the next cell). Column
 *   aggregates: one compensated sum per column as KahanColumns (sums in
 *   slots [0, n), corrections in [n, 2n); the result is the sum).
 *   The `plain` variant sums without compensation: the runtime's result
 *   for a sum that is not finite, which the caller runs only then;
 * - min, max, prod fold with Math.min / Math.max / `*` (NaN propagates);
 * - a cell-wise root writes its cells to `out` (dense: `out[ix + j]`;
 *   CSR: `out[p]`, the position of the main input's non-zero).
 * `zero` folds a cell the loop skips (a zero of a sparse-safe main input,
 * whose value is 0 in the reference skeleton).
 */
import type { Combine } from "./kernel-program";
import type { CellFold } from "./cell-roots";
import { numberCode } from "./operation-code";

export interface FoldCode {
  /** Before the main loop. */
  readonly before: string;
  /** At the start of each row. */
  readonly rowStart: string;
  /** Folds the cell value `v` (a name or literal); `second`: the second row of a pair (a paired full sum's other accumulator). */
  cell(v: string, second?: boolean): string;
  /** Folds a skipped cell (value 0); empty when that changes nothing. */
  readonly zero: string;
  /** At the end of each row. */
  readonly rowEnd: string;
  /** After the main loop (writes the range's accumulators). */
  readonly after: string;
}

export interface FoldSlots {
  readonly init: number[];
  readonly combine: Combine[];
}

/** Whether the fold is a Kahan sum (its result falls back to the plain sum when not finite). */
export function isSumFold(fold: CellFold): boolean {
  return fold.kind === "dot" || (fold.kind === "aggregate" && (fold.fn === "sum" || fold.fn === "sumSq" || fold.fn === "mean"));
}

/** Whether the fold is a Kahan sum over all cells (a full sum, mean or dot product): what a paired loop folds into two accumulators. */
export function isFullSumFold(fold: CellFold): boolean {
  return isSumFold(fold) && (fold.kind === "dot" || (fold.kind === "aggregate" && fold.direction === "full"));
}

/** The extremum-like function of a fold (min, max, prod), else undefined. */
export function extremumOf(fold: CellFold): "min" | "max" | "prod" | undefined {
  return fold.kind === "aggregate" && (fold.fn === "min" || fold.fn === "max" || fold.fn === "prod") ? fold.fn : undefined;
}

function identityOf(fn: "min" | "max" | "prod"): number {
  return fn === "min" ? Infinity : fn === "max" ? -Infinity : 1;
}

/** Folds one 0 into an extremum-like value (a cell the loop skipped). */
export function foldZero(fn: "min" | "max" | "prod", acc: number): number {
  return fn === "min" ? Math.min(acc, 0) : fn === "max" ? Math.max(acc, 0) : acc * 0;
}

/** The accumulator slots of a fold over a domain with `cols` columns (full: at `base`; column: from 0). */
export function foldSlots(fold: CellFold, cols: number): FoldSlots {
  const ext = extremumOf(fold);
  const width = fold.kind === "aggregate" && fold.direction === "col" ? cols : 1;
  if (fold.kind === "cells" || (fold.kind === "aggregate" && fold.direction === "row")) return { init: [], combine: [] };
  if (ext !== undefined) return { init: new Array<number>(width).fill(identityOf(ext)), combine: new Array<Combine>(width).fill(ext) };
  return { init: new Array<number>(2 * width).fill(0), combine: new Array<Combine>(2 * width).fill("sum") };
}

const EXTREMUM_CODE = { min: (a: string, v: string) => `${a} = Math.min(${a}, ${v});`, max: (a: string, v: string) => `${a} = Math.max(${a}, ${v});`, prod: (a: string, v: string) => `${a} *= ${v};` };

/**
 * The fold code of root number `k` (names its locals), whose full-aggregate
 * slots start at `base`; `csrOut`: cells are written at the main input's
 * non-zero position `p`; `paired`: the loop visits rows two at a time.
 */
export function foldCode(fold: CellFold, k: number, base: number, plain: boolean, csrOut: boolean, paired = false): FoldCode {
  const empty = { before: "", rowStart: "", zero: "", rowEnd: "", after: "" };
  if (fold.kind === "cells") return { ...empty, cell: (v) => (csrOut ? `out[p] = ${v};` : `out[ix + j] = ${v};`) };
  const direction = fold.kind === "dot" ? "full" : fold.direction;
  const ext = extremumOf(fold);
  const squared = fold.kind === "aggregate" && fold.fn === "sumSq";
  const term = (v: string) => (squared ? `${v} * ${v}` : v);
  if (ext !== undefined) {
    const fold1 = EXTREMUM_CODE[ext];
    const init = numberCode(identityOf(ext));
    if (direction === "col") return { ...empty, cell: (v) => fold1("acc[j]", v), zero: fold1("acc[j]", "0") };
    const m = `m${k}`;
    if (direction === "row") return { ...empty, rowStart: `let ${m} = ${init};`, cell: (v) => fold1(m, v), zero: fold1(m, "0"), rowEnd: `out[i] = ${m};` };
    const combineInto = ext === "prod" ? `acc[${base}] *= ${m};` : `acc[${base}] = Math.${ext}(acc[${base}], ${m});`;
    return { ...empty, before: `let ${m} = ${init};`, cell: (v) => fold1(m, v), zero: fold1(m, "0"), after: combineInto };
  }
  // sums
  if (direction === "col") {
    if (plain) return { ...empty, cell: (v) => `acc[j] += ${term(v)};` };
    return { ...empty, cell: (v) => `{ const y = ${term(v)} - acc[n + j]; const s0 = acc[j]; const t = s0 + y; acc[n + j] = (t - s0) - y; acc[j] = t; }` };
  }
  const [s0, c0, s1, c1, q] = [`s${k}`, `c${k}`, `u${k}`, `e${k}`, `q${k}`];
  const compensated = (v: string, s: string, c: string) => `{ const y = ${term(v)} - ${c}; const t = ${s} + y; ${c} = (t - ${s}) - y; ${s} = t; }`;
  if (plain) {
    const declare = `let ${s0} = 0;`;
    const add = (v: string) => `${s0} += ${term(v)};`;
    if (direction === "row") return { ...empty, rowStart: declare, cell: add, rowEnd: `out[i] = ${s0};` };
    return { ...empty, before: declare, cell: add, after: `acc[${base}] += ${s0};` };
  }
  // The accumulator of the 1st, 3rd, ... cell (a, ac) and that of the 2nd, 4th, ... (b, bc), combined with one more
  // compensated step as kahan.ts combines them, as the sum t and its correction c.
  const combine = (a: string, ac: string, b: string, bc: string, into: (t: string, c: string) => string) =>
    `const y = ${b} - ${bc} - ${ac}; const t = ${a} + y; const c = (t - ${a}) - y; ${into("t", "c")}`;
  const intoAcc = (t: string, c: string) => `acc[${base}] += ${t}; acc[${base + 1}] += ${c};`;
  if (paired && direction === "full") {
    return { ...empty, before: `let ${s0} = 0, ${c0} = 0, ${s1} = 0, ${c1} = 0;`, cell: (v, second) => (second ? compensated(v, s1, c1) : compensated(v, s0, c0)), after: `{ ${combine(s0, c0, s1, c1, intoAcc)} }` };
  }
  // The pair is swapped after each cell: the 1st, 3rd, ... cell's accumulator is (s, c) after an even count, (u, e) after an odd one.
  const declare = `let ${s0} = 0, ${c0} = 0, ${s1} = 0, ${c1} = 0, ${q} = 0;`;
  const add = (v: string) => `{ const y = ${term(v)} - ${c0}; const t = ${s0} + y; const c = (t - ${s0}) - y; ${s0} = ${s1}; ${c0} = ${c1}; ${s1} = t; ${c1} = c; ${q}++; }`;
  const combined = (into: (t: string, c: string) => string) =>
    `{ const odd = (${q} & 1) === 1; const a = odd ? ${s1} : ${s0}, ac = odd ? ${c1} : ${c0}, b = odd ? ${s0} : ${s1}, bc = odd ? ${c0} : ${c1}; ${combine("a", "ac", "b", "bc", into)} }`;
  if (direction === "row") return { ...empty, rowStart: declare, cell: add, rowEnd: combined((t, c) => `out[i] = ${t} - ${c};`) };
  return { ...empty, before: declare, cell: add, after: combined(intoAcc) };
}
