/**
 * Compiles one basic block for the runtime, with the sizes of the values it
 * starts with: the rewriter's plan (only suggestions that passed
 * verification; the user's text is never changed) and, in `fused` mode,
 * the fusion planner's operators with generated kernels. An operator the
 * code generator has no kernel for runs unfused (and is listed).
 */
import { dagCosts, fusionDag, inputReadFloorSeconds, isMatrixVectorProduct, planFusion, type FusionDag, type FusedOperator, type FusionPlan, type TemplateType } from "../fusion";
import { nodesNeeded, nodesReachableFrom, type BlockDag, type BasicBlock, type DagOp } from "../program";
import type { NodeStats } from "../stats/sizes/node-stats";
import { DEFAULT_SATURATION } from "../rewrite";
import { DEFAULT_SAVING_THRESHOLDS, optimizeBlock } from "../suggest";
import { generateOperator, UnsupportedOperator, type GeneratedOperator } from "../runtime/codegen";
import type { Value } from "../runtime/interpreter";
import { blockSizesOfValues } from "./block-stats";
import { fallbackOperator } from "./fallback-operator";
import type { PlanMode } from "./plan-mode";

export interface CompiledBlock {
  mode: PlanMode;
  /** The DAG that runs: as written, or with the verified rewrites applied. */
  dag: BlockDag;
  stats: readonly NodeStats[];
  /** Fused operators with generated kernels (fused mode). */
  operators: GeneratedOperator[];
  /** The planner's operator behind each generated one (same order), and the DAG it planned: what the profile estimates them from. */
  fused: FusedOperator[];
  planned: FusionDag;
  /** Operators the planner chose that run unfused, because no kernel is generated for them. */
  unfused: { template: TemplateType; reason: string }[];
  /** The nodes a run computes (as written: all; else those the live outputs, effects and volatile nodes need). */
  needed: ReadonlySet<number> | undefined;
  /**
   * Matrices the session keeps but the program never reads again
   * (`programLiveOut`): the plan does not compute them; each with its node
   * in the block as given, computed when the run ends (deferred-values.ts).
   */
  deferred: { name: string; node: number }[];
  /** Statements that run a rewritten plan. */
  rewrites: number;
  /** Matches the optimizer applied (its work, in counts; 0 when the block was not optimized). */
  optimizerMatches: number;
  /** Estimated seconds of one run of the compiled plan (the cost model's, with the sizes compiled for). */
  estimatedSeconds: number;
  /** Milliseconds the compilation took. */
  compileMs: number;
}

export interface CompileInput {
  block: BasicBlock;
  dag: BlockDag;
  env: ReadonlyMap<string, Value>;
  params: ReadonlyMap<string, string>;
  sourceText: string;
  /** Scalar live-ins known by their value (they decide sizes: size-scalars.ts); the others by their type. */
  pinned?: ReadonlySet<string>;
  /**
   * The session computes deferred variables only when something reads them
   * (deferredVariables "read": `dml run`), not when the run ends: a variable
   * only the session reads is then deferred whatever it is computed by
   * (products too), as long as no volatile node computes it.
   */
  deferralUntilRead?: boolean;
  /** How often the block is expected to run (BlockRunner's `expectedRuns`; default Infinity): its optimization is bounded by what the runs cost (matchLimit). */
  expectedRuns?: number;
}

export function compileBlock(given: CompileInput, requested: PlanMode): CompiledBlock {
  const start = performance.now();
  // The live outputs chosen below do not change a node's sizes.
  const sizes = blockSizesOfValues(given.dag, given.env, given.params, given.pinned ? { pinned: given.pinned } : {});
  // A block in which the size rules find an error runs as written: it fails where the plan as written fails (and where
  // SystemDS's validation reports it), even when the failing value is one the optimized plan would not compute.
  const mode = sizes.failing.size > 0 ? "as-written" : requested;
  const recomputed = given.deferralUntilRead ? RECOMPUTED_UNTIL_READ : RECOMPUTED_AT_END;
  const shapes = fusionDag(given.dag.nodes, sizes.nodes, []);
  const live = mode === "as-written" ? { dag: given.dag, deferred: [] } : liveOutputsOnly(given.dag, (node) => recomputable(shapes, given.dag, node, recomputed));
  const input = { ...given, dag: live.dag };
  const writtenStats = sizes.nodes;
  let dag = input.dag;
  let stats: readonly NodeStats[] = writtenStats;
  let rewrites = 0;
  let optimizerMatches = 0;
  const written = runRoots(input.dag, writtenStats);
  let writtenPlan: FusionPlan | undefined;
  // The plan carries the DAG's costs with and without its operators (dagCosts): fused mode plans the written DAG anyway.
  const writtenFusion = () => (writtenPlan ??= planFusion(written));
  // A rewrite saves at most what the block costs above one read of its inputs (input-read-floor.ts): a block that
  // cannot save the smallest saving the rewriter takes is not optimized.
  const floor = mode === "as-written" ? 0 : inputReadFloorSeconds(written);
  const writtenSeconds = mode === "fused" ? writtenFusion().cost.unfused : dagCosts(written, []).unfused;
  if (mode !== "as-written" && (writtenSeconds - floor) * 1000 >= DEFAULT_SAVING_THRESHOLDS.minSavingMs) {
    const runs = given.expectedRuns ?? Infinity;
    const applyLimit = Number.isFinite(runs) ? matchLimit(Math.max(0, writtenFusion().cost.fused - floor) * runs) : undefined;
    const saturation = { clock: wallClockMs, ...(applyLimit !== undefined ? { applyLimit } : {}) };
    const optimized = optimizeBlock({ block: input.block, dag: input.dag, stats: writtenStats, sourceText: input.sourceText }, { executable: true, rewrittenView: false, explanations: false, saturation });
    optimizerMatches = optimized.work.applied;
    if (optimized.executable) {
      dag = optimized.executable.dag;
      stats = optimized.executable.stats;
      rewrites = optimized.suggestions.length;
    }
  }
  const planned = dag === input.dag ? written : runRoots(dag, stats);
  const operators: GeneratedOperator[] = [];
  const unfused: CompiledBlock["unfused"] = [];
  const chosen: FusedOperator[] = [];
  const plan = mode === "fused" ? (dag === input.dag ? writtenFusion() : planFusion(planned)) : undefined;
  if (plan) {
    for (const op of plan.operators) {
      try {
        operators.push(fallbackOperator(planned, op, generateOperator(planned, op)));
        chosen.push(op);
      } catch (error) {
        if (!(error instanceof UnsupportedOperator)) throw error;
        unfused.push({ template: op.template, reason: error.message });
      }
    }
  }
  const cost = plan && chosen.length === plan.operators.length ? plan.cost : dagCosts(planned, chosen);
  const needed = mode === "as-written" ? undefined : nodesNeeded(dag);
  return { mode, dag, stats, operators, fused: chosen, planned, unfused, needed, deferred: live.deferred, rewrites, optimizerMatches, estimatedSeconds: mode === "fused" ? cost.fused : cost.unfused, compileMs: performance.now() - start };
}

/**
 * Matches the optimizer may apply to a block per millisecond its rewrites
 * could save over its expected runs, up to FIRST_REWRITE_MATCHES: about the
 * optimizer's speed on a cold start. A script's first blocks in a process
 * apply 22 to 100 matches per ms (ALS-CG's first block 1,048 in 45-48 ms,
 * l2svm's accuracy block 521 in 8-15 ms, l2svm's first 641 in 6 ms); at
 * 100 per ms those run-once blocks spent up to 4x what they could save. A
 * rewrite saves at most the block's fused cost per run above one read of
 * its inputs (savings are measured after fusion; input-read-floor.ts), so
 * optimizing a block longer than that cannot pay off. A block run once is
 * optimized for about as long as its run could save; a loop body for its
 * expected iterations; a function's body (runs unknown) gets the default
 * bound.
 */
export const MATCHES_PER_ESTIMATED_MS = 30;

/**
 * About what finding the first rewrite of a statement takes: 1,200 to
 * 1,400 matches for `sum(t(X) %*% Y)` as `sum(colSums(X) * colSums(Y))`
 * beside two other statements, 1,700 to 1,900 for ALS-CG's final
 * `sum((X - U %*% t(V))^2)`. A block estimated to run long enough for it
 * gets it.
 */
export const FIRST_REWRITE_MATCHES = 2_000;

/**
 * Beyond FIRST_REWRITE_MATCHES, a block gets this many matches per
 * estimated millisecond its rewrites could save: it is optimized for about
 * a tenth of what its runs take, as the optimizer's time is part of the
 * run. The estimates are the cost model's, which puts the generated
 * kernels at a blocked GEMM's compute rate: in the end-to-end suite they
 * estimate the fused operators at 1.7 to 9 times (about 3.5 times) their
 * measured time (`dml run --timings`). At 10 matches per estimated ms the
 * suite's loops spent 25-35 % of their first run optimizing (l2svm's line
 * search 7,021 matches, kmeans' loop 7,868, ALS-CG's inner loops 4,200-
 * 4,500); at 3 they spend about a tenth, and find the same rewrites but
 * two whose measured saving was nil (l2svm's `sum(Xd * sv * Xd)` as a
 * product and kmeans' `sum(X2) + sum(minD)` as one sum, both already in
 * one fused pass). First fused runs, 6 alternating runs each, medians:
 * ALS-CG 556 -> 529 ms (compile 220 -> 171), kmeans 285 -> 272 (74 -> 50),
 * l2svm 306 -> 302 (84 -> 74), glm_logit and mlogreg within noise.
 */
export const MATCHES_PER_ESTIMATED_MS_BEYOND_FIRST = 3;

/** The match bound of a block whose rewrites could save at most `seconds` over its expected runs (at most the default). */
export function matchLimit(seconds: number): number {
  const ms = seconds * 1000;
  const first = Math.min(FIRST_REWRITE_MATCHES, Math.ceil(ms * MATCHES_PER_ESTIMATED_MS));
  return Math.min(DEFAULT_SATURATION.applyLimit, Math.max(first, Math.ceil(ms * MATCHES_PER_ESTIMATED_MS_BEYOND_FIRST)));
}

/**
 * The block with only the variables read after it as outputs (its
 * `liveOut`, when the program's liveness is known): a variable the rest of
 * the program reassigns before reading (`out` and `sv` of l2svm's line
 * search) is then not materialized, as SystemDS removes dead variables; its
 * operations fuse into those that use them, or are not run at all.
 *
 * A matrix only the session reads after the run (in `liveOut`, not in
 * `programLiveOut`: l2svm's `tmp_Xw`) is deferred, computed once when the
 * run ends (deferred-values.ts), when that is cheap and gives the same
 * value: it is computed from the block's inputs by cell-wise operations,
 * indexing and aggregates only (one pass, as writing it would be; a
 * product or a transpose of the data would cost more at the end than it
 * saves), from no volatile node (a second computation would differ), and
 * it is not the value of a variable kept anyway (`g_old = g_new`). When
 * the session computes deferred values only if they are read
 * (RECOMPUTED_UNTIL_READ: `dml run`), products and reorganizations may
 * compute it too: a value nobody reads costs nothing, as SystemDS does not
 * compute a variable that is dead at the program's end. Either way every
 * size in its cone is known (`deferrable`: recomputable), so computing it
 * later cannot fail where computing it now would not. As written, every
 * assignment is kept.
 */
function liveOutputsOnly(dag: BlockDag, deferrable: (node: number) => boolean): { dag: BlockDag; deferred: CompiledBlock["deferred"] } {
  if (dag.liveOut === undefined) return { dag, deferred: [] };
  const live = new Set(dag.liveOut);
  const readLater = new Set(dag.programLiveOut ?? dag.liveOut);
  const kept = new Set([...dag.outputs].filter(([name]) => readLater.has(name)).map(([, node]) => node));
  const deferred = [...dag.outputs]
    .filter(([name, node]) => live.has(name) && !readLater.has(name) && !kept.has(node) && dag.nodes[node]!.type.dataType === "matrix" && deferrable(node))
    .map(([name, node]) => ({ name, node }));
  const later = new Set(deferred.map((d) => d.name));
  const outputs = new Map([...dag.outputs].filter(([name]) => live.has(name) && !later.has(name)));
  return { dag: outputs.size === dag.outputs.size ? dag : { ...dag, outputs }, deferred };
}

/** Operations a value computed when the run ends may be computed by: one pass over their operands, no volatile node. */
const RECOMPUTED_AT_END: ReadonlySet<string> = new Set(["literal", "input", "parameter", "binary", "unary", "index", "aggregate", "cast", "nrow", "ncol", "length"]);

/**
 * ... and a value computed only if something reads it: products and
 * reorganizations too (kmeans' D, mlogreg's E and XQ; not a
 * matrix-vector product: recomputable), and calls of the row-wise and
 * cumulative builtins below (kmeans' final `Y = rowIndexMax(P)`); never a
 * volatile node (a read, `rand`, a user function or any other call).
 */
const RECOMPUTED_UNTIL_READ: ReadonlySet<string> = new Set([...RECOMPUTED_AT_END, "matmul", "transpose", "cbind", "rbind", "matrix", "seq", "diag", "call"]);

/**
 * The builtins a deferred value may call: pure (the same inputs give the
 * same value), run by the runtime, and failing only on sizes (which
 * `recomputable` requires known), so that computing them later, or never,
 * hides no error that computing them now would raise.
 */
const DEFERRABLE_CALLS: ReadonlySet<string> = new Set(["rowIndexMax", "cumsum", "cumprod", "cummin", "cummax", "rev"]);

function deferrableOperation(op: DagOp, kinds: ReadonlySet<string>): boolean {
  return kinds.has(op.kind) && (op.kind !== "call" || (!op.user && DEFERRABLE_CALLS.has(op.name)));
}

/**
 * The value of `node` is computed by operations of `kinds` only, over
 * matrices of known sizes (an operation whose sizes are known to fit cannot
 * fail when it runs later), and by no matrix-vector product `X %*% v`: the
 * runtime runs that as the WebAssembly GEMV on X in place, while left
 * unmaterialized the fusion planner moves it into a generated Row kernel,
 * which measured slower in the end-to-end suite (glm_logit's eta: 379 ->
 * 408 ms, median of 5).
 */
function recomputable(shapes: FusionDag, dag: BlockDag, node: number, kinds: ReadonlySet<string>): boolean {
  return [...nodesReachableFrom(dag, [node])].every((id) => deferrableOperation(dag.nodes[id]!.op, kinds) && knownSizes(shapes.stats[id]) && !isMatrixVectorProduct(shapes, id));
}

function knownSizes(stats: NodeStats | undefined): boolean {
  return stats !== undefined && (stats.type.dataType !== "matrix" || (stats.rows !== null && stats.cols !== null));
}

/** The DAG as the fusion planner sees it when every assigned variable and every effect leaves the block. */
function runRoots(dag: BlockDag, stats: readonly NodeStats[]): FusionDag {
  return fusionDag(dag.nodes, stats, [...dag.outputs.values(), ...dag.sinks.map((s) => s.node)]);
}

/**
 * The saturation safety net's clock at run time: the wall clock. The
 * default, this process's CPU time, is a system call that sums over every
 * thread, and the runtime's kernel threads make it slow to read and count
 * time that is not the optimizer's; a safety net may be wall-clock.
 */
function wallClockMs(): number {
  return performance.now();
}
