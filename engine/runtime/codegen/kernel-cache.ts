/**
 * The compiled-kernel cache: one `new Function` per distinct kernel source
 * (a source is built from a CPlan only, so equal operators of any block,
 * cell or iteration share one compiled function), with hit counts.
 */
import { BINARY_HELPERS } from "../kernels";
import type { KernelFunction, KernelProgram } from "./kernel-program";

const compiled = new Map<string, KernelFunction>();
let hits = 0;

/** The compiled function of a kernel (compiled on first use). */
export function kernelFunction(program: KernelProgram): KernelFunction {
  const known = compiled.get(program.source);
  if (known) {
    hits++;
    return known;
  }
  // `H` in a kernel's source is the operators' helper functions (binary-helpers.ts).
  const fn = new Function("H", `"use strict"; return (${program.source});`)(BINARY_HELPERS) as KernelFunction;
  compiled.set(program.source, fn);
  return fn;
}
