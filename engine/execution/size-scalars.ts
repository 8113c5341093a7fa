/**
 * The scalar live-ins whose values decide sizes in a block: `k` in
 * `P[, 1:(k - 1)]`, `n` in `matrix(0, rows=n, cols=1)`. A plan compiled
 * knowing them has every size (so the fusion planner can fuse the
 * operations that use them); it then holds only for those values, which join
 * the plan's signature (SystemDS's dynamic recompilation with literal
 * replacement). Other scalars stay known by their type only, so a loop's
 * changing numbers (`alpha`, `rr`, a counter) do not recompile its body.
 *
 * A scalar decides a size when giving its value (alone) to the size
 * analysis changes some node's rows or columns: one analysis of the block
 * per numeric scalar live-in, once per block.
 */
import type { BlockDag } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { Value } from "../runtime/interpreter";
import { blockStats } from "./block-stats";
import { valueSignature } from "./value-stats";

export function sizeScalars(dag: BlockDag, env: ReadonlyMap<string, Value>, params: ReadonlyMap<string, string>): Set<string> {
  const deciding = new Set<string>();
  const numeric = [...dag.inputs.keys()].filter((name) => {
    const value = env.get(name);
    return value?.kind === "scalar" && (value.type === "int" || value.type === "double");
  });
  if (numeric.length === 0) return deciding;
  // Dims only: the uniform estimator builds no sketches (an MNC sketch of a 1e6-row input reads a million counts).
  const byType = blockStats(dag, env, params, { estimator: "uniform" });
  for (const name of numeric) {
    if (!sameSizes(byType, blockStats(dag, env, params, { pinned: new Set([name]), estimator: "uniform" }))) deciding.add(name);
  }
  return deciding;
}

function sameSizes(a: readonly NodeStats[], b: readonly NodeStats[]): boolean {
  return a.every((stats, id) => stats.rows === b[id]?.rows && stats.cols === b[id]?.cols);
}

/** A pinned scalar's part of a plan signature: its type and value (the plan may have folded either into constants); another value's usual signature. */
export function pinnedSignature(value: Value): string {
  return value.kind === "scalar" ? `${value.type}:${String(value.value)}` : valueSignature(value);
}
