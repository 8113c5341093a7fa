/**
 * Which DAG nodes may be shared (hash-consed) and may be loop-constant: a
 * node is *volatile* when two evaluations with equal inputs may differ or
 * when evaluating it has an effect. Volatile nodes are never merged and
 * never loop-constant:
 *
 * - `rand(...)` without a `seed`, or with the literal seed -1 (SystemDS's
 *   "pick a seed" value);
 * - `read(...)` (the file may change between reads; merging reads is an
 *   optimizer decision, not a DAG-building one);
 * - user-function calls (they may print, write, stop or draw random numbers);
 * - builtin calls not known to be pure: `print`, `write`, `stop`, `assert`,
 *   `time`, `sample` without a seed, and every builtin this file does not
 *   list, including SystemDS's DML-bodied builtins (`kmeans` draws random
 *   centroids, `lm` may print).
 */
import type { DagNode, DagOp } from "./dag-types";

/** Native builtins without effects whose result depends only on their arguments. */
const PURE_BUILTINS: ReadonlySet<string> = new Set([
  // construction, casts, meta
  "frame", "tensor", "list", "outer", "ifelse", "exists", "typeof", "toString", "lineage",
  // aggregates not mapped to aggregate nodes
  "range", "median", "quantile", "interQuantile", "interQuartileMean", "moment", "centralMoment", "cov", "trace", "tr",
  "rowIndexMax", "rowIndexMin", "countDistinct", "countDistinctApprox", "rowCountDistinct", "colCountDistinct",
  "aggregate", "groupedAggregate", "unique", "contains",
  "cumsum", "cumprod", "cummin", "cummax", "cumsumprod", "rowcumsum",
  "ppred", "min", "max", "pmin", "pmax",
  // reorganisation, selection
  "rev", "roll", "order", "removeEmpty", "replace", "lower.tri", "upper.tri", "rowClassMeet", "rcm",
  // linear algebra
  "solve", "inv", "inverse", "cholesky", "det", "eigen", "lu", "qr", "svd", "sqrtMatrixJava",
  "fft", "ifft", "fft_linearized", "ifft_linearized", "stft", "einsum",
  // distributions
  "cdf", "icdf", "pnorm", "qnorm", "pt", "qt", "pf", "qf", "pchisq", "qchisq", "pexp", "qexp",
  // deep learning ops
  "conv2d", "conv2d_backward_filter", "conv2d_backward_data", "max_pool", "max_pool_backward",
  "avg_pool", "avg_pool_backward", "bias_add", "bias_multiply", "batch_norm2d", "batch_norm2d_backward",
  "lstm", "lstm_backward",
  // frames, strings, transform
  "transformencode", "transformapply", "transformdecode", "transformmeta", "transformcolmap", "tokenize", "map",
  "colnames", "detectSchema", "applySchema", "getCategoricalMask", "dropInvalidType", "dropInvalidLength", "valueSwap",
  "compress", "decompress",
  // placeholders of this DAG
  "[]",
]);

/** True when `node` must not be merged with an equal-looking node nor be loop-constant. */
export function isVolatile(op: DagOp, argNames: readonly (string | undefined)[] | undefined, inputs: readonly DagNode[]): boolean {
  switch (op.kind) {
    case "read":
      return true;
    case "rand":
      return !hasSeed(argNames, inputs, undefined);
    case "call":
      if (op.user) return true;
      if (op.name === "sample") return !hasSeed(argNames, inputs, 3);
      return !PURE_BUILTINS.has(op.name);
    default:
      return false;
  }
}

/** A `seed=` argument (or the positional one at `position`) that is not the literal -1. */
function hasSeed(argNames: readonly (string | undefined)[] | undefined, inputs: readonly DagNode[], position: number | undefined): boolean {
  let index = argNames?.indexOf("seed") ?? -1;
  if (index < 0 && position !== undefined && inputs.length > position && argNames?.[position] === undefined) index = position;
  const seed = index < 0 ? undefined : inputs[index]?.op;
  if (!seed) return false;
  return !(seed.kind === "literal" && seed.value === -1);
}
