/**
 * The compiled-kernel cache: one `new Function` per distinct kernel source
 * in canonical form (kernel-canonical.ts). A source is built from a CPlan
 * only, and its canonical form drops the node ids its names came from, so
 * equal operators of any block, cell or iteration, and equal expressions
 * over other nodes (`sum(U^2)` and `sum(V^2)`), share one compiled
 * function, which V8 then optimizes once.
 */
import { BINARY_HELPERS } from "../kernels";
import { canonicalKernelSource } from "./kernel-canonical";
import type { KernelFunction, KernelProgram } from "./kernel-program";

const compiled = new Map<string, KernelFunction>();
/** Generated source -> its canonical form (dropped whole when it grows past CANONICAL_MEMO_SIZE). */
const canonical = new Map<string, string>();
const CANONICAL_MEMO_SIZE = 4096;
let hits = 0;

/** The canonical form of a kernel's source: the key of its compiled function, here and in the kernel threads. */
export function kernelSource(program: KernelProgram): string {
  let source = canonical.get(program.source);
  if (source === undefined) {
    if (canonical.size >= CANONICAL_MEMO_SIZE) canonical.clear();
    source = canonicalKernelSource(program.source);
    canonical.set(program.source, source);
  }
  return source;
}

/** The compiled function of a kernel (compiled on first use of its canonical source). */
export function kernelFunction(program: KernelProgram): KernelFunction {
  const source = kernelSource(program);
  const known = compiled.get(source);
  if (known) {
    hits++;
    return known;
  }
  // `H` in a kernel's source is the operators' helper functions (binary-helpers.ts).
  const fn = new Function("H", `"use strict"; return (${source});`)(BINARY_HELPERS) as KernelFunction;
  compiled.set(source, fn);
  return fn;
}

/** Distinct compiled kernels and calls that found theirs compiled, so far (tests: equal kernels share a function). */
export function kernelCacheCounts(): { compiled: number; hits: number } {
  return { compiled: compiled.size, hits };
}
