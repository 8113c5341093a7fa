/**
 * The stats of a block's nodes from the values it starts with: the live-in
 * variables' measured sizes (value-stats.ts) propagated by the analysis'
 * size rules, `$params` typed as SystemDS types them. What only running
 * the block can tell (a `read` inside it, a user function's result) stays
 * unknown, and the operations that depend on it are planned as written.
 * Scalars are known by their type, except the `pinned` ones (size-scalars.ts),
 * known by their value.
 */
import type { BlockDag } from "../program";
import { typeParameterValue } from "../metadata";
import { blockSizes } from "../stats/sizes/block-sizes";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { Value } from "../runtime/interpreter";
import { statsOfValue } from "./value-stats";

export function blockStats(dag: BlockDag, env: ReadonlyMap<string, Value>, params: ReadonlyMap<string, string>, pinned?: ReadonlySet<string>): NodeStats[] {
  return blockSizes(dag, {
    input: (name) => {
      const value = env.get(name);
      return value === undefined ? undefined : statsOfValue(value, pinned?.has(name) ?? false);
    },
    parameter: (name) => {
      const given = params.get(name.replace(/^\$/, ""));
      return given === undefined ? undefined : typeParameterValue(given).value;
    },
    read: () => undefined,
    call: () => undefined,
  }).nodes;
}
