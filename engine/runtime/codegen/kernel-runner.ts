/**
 * Runs a generated kernel over its whole range. Today on the calling
 * thread, in one range; the parallel runner splits large calls into row
 * ranges over worker threads when every array lives in shared memory.
 */
import { kernelFunction } from "./kernel-cache";
import type { KernelCall } from "./kernel-program";

/** Runs the call; returns its combined accumulators (empty without accumulators). */
export function runKernel(call: KernelCall): Float64Array {
  const acc = call.accumulators ? Float64Array.from(call.accumulators.init) : new Float64Array(0);
  kernelFunction(call.program)(call.arrays, call.scalars, 0, call.rows, acc, call.output);
  return acc;
}
