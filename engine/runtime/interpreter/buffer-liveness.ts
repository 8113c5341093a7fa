/**
 * Gives a dense matrix's buffer back to the pool (bufferPool) once nothing
 * can read it any more, SystemDS's `rmvar` after a variable's last use: a
 * loop over 1e6-row vectors then reuses the same few buffers instead of
 * allocating (and first touching) new ones every iteration.
 *
 * A buffer is recycled only when all of these hold:
 * - it was allocated in the running interpreter's allocation scope
 *   (matrix/allocation-scope.ts): never data that came from outside the run;
 * - it is the whole buffer of its array (views into a larger buffer are not pooled);
 * - no value reachable from a live root refers to the same buffer: the
 *   variables of every frame of the run (the program's and each function
 *   call's) and, of every block evaluator running, its environment, the
 *   values of its nodes not dropped yet and its cached call results. Lists
 *   are searched item by item; dense and CSR arrays are compared by their
 *   underlying buffer, so aliases and views keep a buffer alive.
 */
import { allocatedInCurrentScope, bufferPool, untagAllocation } from "../matrix";
import type { BlockDag } from "../../program";
import type { Value } from "./values";

/** Something whose values stay readable while it is registered. */
export interface LiveValues {
  liveValues(): Iterable<Value>;
}

const frames = new Set<ReadonlyMap<string, Value>>();
const evaluators = new Set<LiveValues>();

/** Registers a frame's variables while `body` runs. */
export function withLiveFrame<T>(env: ReadonlyMap<string, Value>, body: () => T): T {
  if (frames.has(env)) return body();
  frames.add(env);
  try {
    return body();
  } finally {
    frames.delete(env);
  }
}

/** Registers an evaluator's values while `body` runs. */
export function withLiveEvaluator<T>(evaluator: LiveValues, body: () => T): T {
  evaluators.add(evaluator);
  try {
    return body();
  } finally {
    evaluators.delete(evaluator);
  }
}

/**
 * Before a basic block runs: the variables it assigns without reading them
 * first are dead from its start (SystemDS's rmvar before the block's
 * instructions), so they leave the environment and their buffers may hold
 * the block's own results. kmeans' loop body assigns D and P (1e6 x 5
 * each) without reading their previous values; otherwise every iteration's
 * new D and P are made while the previous ones are still held. A block that
 * fails leaves them unset, not stale.
 */
export function releaseOverwritten(dag: Pick<BlockDag, "inputs" | "outputs">, env: Map<string, Value>): void {
  const old: Value[] = [];
  for (const name of dag.outputs.keys()) {
    const value = env.get(name);
    if (value === undefined || dag.inputs.has(name)) continue;
    old.push(value);
    env.delete(name);
  }
  if (old.length > 0) releaseUnreferenced(old);
}

/** Recycles the buffers of `values` (dense matrices of this run) that no live root refers to. */
export function releaseUnreferenced(values: Iterable<Value | undefined>): void {
  const candidates = new Map<ArrayBufferLike, Float64Array>();
  for (const v of values) {
    if (v?.kind !== "matrix" || v.matrix.format !== "dense") continue;
    const data = v.matrix.data;
    if (allocatedInCurrentScope(data)) candidates.set(data.buffer, data);
  }
  if (candidates.size === 0) return;
  const visit = (v: Value): void => {
    if (v.kind === "matrix") {
      const m = v.matrix;
      if (m.format === "dense") candidates.delete(m.data.buffer);
      else {
        candidates.delete(m.values.buffer);
      }
    } else if (v.kind === "list") for (const item of v.items) visit(item);
  };
  for (const env of frames) {
    for (const v of env.values()) visit(v);
    if (candidates.size === 0) return;
  }
  for (const e of evaluators) {
    for (const v of e.liveValues()) visit(v);
    if (candidates.size === 0) return;
  }
  for (const data of candidates.values()) {
    untagAllocation(data);
    bufferPool.release(data);
  }
}
