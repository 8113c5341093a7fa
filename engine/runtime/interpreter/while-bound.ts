/**
 * How many iterations a `while` loop is expected to run, as known when it
 * starts: SystemDS's cost model assumes UNKNOWN_LOOP_ITERATIONS (its
 * DEFAULT_NUMITER), unless the condition counts (program/loop-iterations.ts,
 * the redundancy eliminator's reading of loop bounds): `while (i < n)`
 * with `i = i + 1` the body's only assignment of `i` runs n - i times;
 * with another conjunct (`while (!converged & iter < maxi)`) at most that
 * many, so the smaller of that and UNKNOWN_LOOP_ITERATIONS. The values of
 * the counter and the limit are the ones the loop starts with. Counts from
 * values only, so every machine expects the same. It decides how long the
 * runtime optimizes the body's blocks (execution/compile-block.ts
 * matchLimit), not what the loop computes.
 */
import { loopIterations } from "../../program";
import type { WhileStatement } from "../../syntax";
import type { Value } from "./values";

/** Iterations a `while` loop is expected to run when its count is unknown: SystemDS's cost model's (CostEstimator's DEFAULT_NUMITER). */
export const UNKNOWN_LOOP_ITERATIONS = 15;

export function expectedWhileIterations(statement: WhileStatement, env: ReadonlyMap<string, Value>): number {
  // The finite numbers among the values, looked up by name (the condition reads two of them).
  const numbers = {
    get: (name: string): number | undefined => {
      const value = env.get(name);
      return value?.kind === "scalar" && typeof value.value === "number" && Number.isFinite(value.value) ? value.value : undefined;
    },
  };
  return loopIterations(statement, numbers, UNKNOWN_LOOP_ITERATIONS).count;
}
