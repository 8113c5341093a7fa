/**
 * A generated kernel and one call of it. A kernel is the JavaScript source
 * of one function, built by a template's generator from a fused operator's
 * CPlan (never from user text):
 *
 *     function (a, s, r0, r1, acc, out) { ... }
 *
 * - `a`: the operator's arrays in the generator's order (dense data,
 *   CSR rowPtr / colIdx / values, side inputs);
 * - `s`: a Float64Array of its scalars and dims, in the generator's order;
 * - `r0`, `r1`: the range of the main loop it runs ([r0, r1): rows of the
 *   main input, or whatever its skeleton iterates over);
 * - `acc`: this range's accumulators (a private copy of `accumulators.init`,
 *   updated in place; the ranges' copies are combined slot by slot);
 * - `out`: the shared output, of which the kernel writes only the part that
 *   belongs to its range (rows r0..r1-1 for a row-partitioned result); the
 *   arrays a call lists in `writes` likewise.
 *
 * A call over [0, rows) gives the same result split into any ranges, so
 * the runner may split it over threads (kernel-runner.ts).
 */

export type KernelArray = Float64Array | Int32Array;

/** How two ranges' values of one accumulator slot combine. */
export type Combine = "sum" | "min" | "max" | "prod";

export interface KernelProgram {
  /** The function's source; also its key in the compiled-kernel cache. */
  readonly source: string;
}

export interface KernelCall {
  readonly program: KernelProgram;
  readonly arrays: readonly KernelArray[];
  readonly scalars: Float64Array;
  /** The main loop runs over [0, rows). */
  readonly rows: number;
  /** The shared output written by ranges (length 0 when the result is all in the accumulators). */
  readonly output: Float64Array;
  /** Initial accumulator values and how each slot combines (absent: no accumulators). */
  readonly accumulators?: { readonly init: Float64Array; readonly combine: readonly Combine[] } | undefined;
  /** Estimated multiply-adds per iteration of the main loop (decides whether threads pay off). */
  readonly workPerRow: number;
  /** Indexes of `arrays` the kernel writes (a Row kernel's row-wise results), besides `out` and the accumulators. */
  readonly writes?: readonly number[] | undefined;
}

/** The compiled function of a kernel's source. */
export type KernelFunction = (a: readonly KernelArray[], s: Float64Array, r0: number, r1: number, acc: Float64Array, out: Float64Array) => void;

/** Combines accumulators `from` into `into`, slot by slot. */
export function combineAccumulators(into: Float64Array, from: Float64Array, combine: readonly Combine[]): void {
  for (let k = 0; k < into.length; k++) {
    const how = combine[k] ?? "sum";
    const a = into[k]!;
    const b = from[k]!;
    into[k] = how === "sum" ? a + b : how === "prod" ? a * b : how === "min" ? (a < b || Number.isNaN(a) ? a : b) : a > b || Number.isNaN(a) ? a : b;
  }
}
