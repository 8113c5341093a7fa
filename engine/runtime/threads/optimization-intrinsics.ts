/**
 * What the priming functions (codegen/kernel-priming.ts,
 * wasm/resident-chunk-priming.ts) share. They are source text, which the
 * calling thread and the worker threads compile.
 */

/**
 * The value the priming functions fill their inputs with: not an integer,
 * nor one after the kernels' usual arithmetic (exp, log, powers, sums), so
 * V8 records floating-point arithmetic where the real values may be
 * integral (codegen/kernel-priming.ts).
 */
export const PRIMING_FILL = 0.3183098861837907;

/**
 * Statements that define `prepare(f)` and `optimizeNext(f)`, V8's
 * %PrepareFunctionForOptimization and %OptimizeFunctionOnNextCall, or
 * return undefined from the enclosing function where those intrinsics do
 * not parse (a process without --allow-natives-syntax).
 */
export const OPTIMIZATION_INTRINSICS_SOURCE = `let prepare, optimizeNext;
  try {
    prepare = new Function("f", "%PrepareFunctionForOptimization(f);");
    optimizeNext = new Function("f", "%OptimizeFunctionOnNextCall(f);");
  } catch (e) {
    return undefined;
  }`;
