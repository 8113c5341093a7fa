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
import { blockSizes, type BlockSizes } from "../stats/sizes/block-sizes";
import type { SparsityEstimator } from "../stats/sizes/sketch-sizes";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { Value } from "../runtime/interpreter";
import { statsOfValue } from "./value-stats";

export interface BlockStatsOptions {
  /** Scalar live-ins known by their value. */
  pinned?: ReadonlySet<string>;
  /** The sparsity estimator (default the analysis', MNC; "uniform" when only dims matter: no sketches). */
  estimator?: SparsityEstimator;
}

export function blockStats(dag: BlockDag, env: ReadonlyMap<string, Value>, params: ReadonlyMap<string, string>, options: BlockStatsOptions = {}): NodeStats[] {
  return blockSizesOfValues(dag, env, params, options).nodes;
}

/** The same, with the nodes whose size rules found an error (`failing`). */
export function blockSizesOfValues(dag: BlockDag, env: ReadonlyMap<string, Value>, params: ReadonlyMap<string, string>, options: BlockStatsOptions = {}): BlockSizes {
  const { pinned } = options;
  return blockSizes(dag, {
    ...(options.estimator ? { estimator: options.estimator } : {}),
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
  });
}
