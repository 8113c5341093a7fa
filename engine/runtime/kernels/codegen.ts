/**
 * Kernels specialised per operator by generating their JavaScript source.
 *
 * An element-wise loop that calls the operator through a function value
 * sees many different functions at one call site, which V8 cannot inline:
 * such a loop runs several times slower than one with the operator written
 * inline. So each element-wise kernel is a source template in which the
 * operator's expression (over `a` and `b`, e.g. `a * b`) is pasted, compiled
 * once per operator with `new Function` and cached. The expressions are
 * constants of this module's operator tables, never user input. Helpers the
 * expressions call are reached as `H.name`.
 */
import { BINARY_HELPERS } from "./binary-helpers";

const cache = new Map<string, unknown>();

/**
 * The function `function name(params) { body }`, compiled once per `key`
 * (`H` in the body refers to the helper functions).
 */
export function compileKernel<F>(key: string, name: string, params: readonly string[], body: string): F {
  const hit = cache.get(key);
  if (hit !== undefined) return hit as F;
  const factory = new Function("H", `"use strict";\nreturn function ${name}(${params.join(", ")}) {\n${body}\n};`) as (
    helpers: typeof BINARY_HELPERS,
  ) => F;
  const kernel = factory(BINARY_HELPERS);
  cache.set(key, kernel);
  return kernel;
}
