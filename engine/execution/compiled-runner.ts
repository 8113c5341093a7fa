/**
 * The interpreter's block runner that executes compiled plans: each basic
 * block is compiled (compile-block.ts) the first time it runs with given
 * live-in sizes and reused after that, across loop iterations and cells
 * (a block is known by its text and place, so a cell run again reuses its
 * plans), until a live-in value's dims, format or density differ from
 * those the plan was compiled for, or the value of a scalar that decides
 * sizes does (size-scalars.ts; dynamic recompilation); a block's reads
 * run before the rest of it is compiled (read-split.ts). Each run is timed
 * beside its estimate (compilation excluded).
 */
import type { BlockDag, BasicBlock } from "../program";
import { DagEvaluator, DeferredValue, type BlockRunner, type EvalContext, type Value } from "../runtime/interpreter";
import { textInRange } from "../syntax";
import type { BlockTiming } from "./block-timing";
import { compileBlock, type CompiledBlock } from "./compile-block";
import type { OperationProfiler } from "./operation-profiler";
import type { PlanMode } from "./plan-mode";
import { splitAtReads, type ReadSplit } from "./read-split";
import { pinnedSignature, sizeScalars } from "./size-scalars";
import { valueSignature } from "./value-stats";

/** Plans kept per block (distinct live-in sizes): a block seeing more sizes than this compiles its oldest out. */
const PLANS_PER_BLOCK = 8;

export class CompiledBlockRunner implements BlockRunner {
  private readonly plans = new Map<string, Map<string, CompiledBlock>>();
  private readonly timings = new Map<string, BlockTiming>();
  /** Each block's key (blockKey reads the source text: once per block, not per run of a loop body). */
  private readonly keys = new WeakMap<BasicBlock, string>();
  /** Each block's split at its reads (undefined: none). */
  private readonly splits = new Map<string, ReadSplit | undefined>();
  /** Each block's scalar live-ins that decide sizes (size-scalars.ts): their values join its plans' signatures. */
  private readonly pinned = new Map<string, ReadonlySet<string>>();
  /** What the last run left to compute when the run ends (compile-block.ts `deferred`), until taken. */
  private deferred: Map<string, DeferredValue> | undefined;

  /**
   * `profiler`: when given, times each operation of every run against its
   * estimate. `deferralUntilRead`: the session computes deferred variables
   * only when they are read (compile-block.ts `deferralUntilRead`).
   */
  constructor(
    readonly mode: PlanMode,
    readonly profiler?: OperationProfiler,
    readonly deferralUntilRead = false,
  ) {}

  run(block: BasicBlock, dag: BlockDag, given: EvalContext, expectedRuns = Infinity): Map<string, Value> {
    const key = this.keyOf(block, given.sourceText);
    const start = performance.now();
    let ctx = given;
    if (!this.splits.has(key)) this.splits.set(key, splitAtReads(dag));
    const split = this.splits.get(key);
    if (split) {
      // The reads run first; the rest is compiled knowing what they read (read-split.ts).
      const env = new Map(given.env);
      for (const [name, value] of new DagEvaluator(split.reads, given).run()) env.set(name, value);
      ctx = { ...given, env };
      dag = split.rest;
    }
    const compileStart = performance.now();
    const compiled = this.compiled(key, block, dag, ctx, expectedRuns);
    const compileEnd = performance.now();
    const outputs = new DagEvaluator(compiled.dag, ctx, compiled.operators, this.profiler?.timer(block, compiled, ctx.sourceText), compiled.needed).run();
    const blockDag = dag;
    this.deferred = compiled.deferred.length === 0 ? undefined : new Map(compiled.deferred.map(({ name, node }) => [name, new DeferredValue(blockDag, name, node, ctx)]));
    const timing = this.timings.get(key)!;
    timing.runs++;
    timing.measuredSeconds += (performance.now() - start - (compileEnd - compileStart)) / 1000;
    timing.estimatedSeconds += compiled.estimatedSeconds;
    return outputs;
  }

  takeDeferred(): ReadonlyMap<string, DeferredValue> | undefined {
    const taken = this.deferred;
    this.deferred = undefined;
    return taken;
  }

  private keyOf(block: BasicBlock, sourceText: string): string {
    let key = this.keys.get(block);
    if (key === undefined) this.keys.set(block, (key = blockKey(block, sourceText)));
    return key;
  }

  /** Forgets the timings (not the plans), e.g. before a cell's run so its report shows only that run. */
  resetTimings(): void {
    this.timings.clear();
  }

  /** The timings of every block run so far (since resetTimings), in source order. */
  blockTimings(): BlockTiming[] {
    return [...this.timings.values()].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  }

  private compiled(key: string, block: BasicBlock, dag: BlockDag, ctx: EvalContext, expectedRuns: number): CompiledBlock {
    const pinned = this.pinnedOf(key, dag, ctx);
    const signature = [...dag.inputs.keys()].map((name) => `${name}=${valueOfInput(ctx, name, pinned.has(name))}`).join(";");
    let byBlock = this.plans.get(key);
    if (!byBlock) this.plans.set(key, (byBlock = new Map()));
    const known = byBlock.get(signature);
    if (known) {
      // Timings forgotten since: the block is known again, without a compilation.
      if (!this.timings.has(key)) this.timings.set(key, newTiming(block, this.mode));
      return known;
    }
    const compiled = compileBlock({ block, dag, env: ctx.env, params: ctx.params, sourceText: ctx.sourceText, pinned, expectedRuns, deferralUntilRead: this.deferralUntilRead }, this.mode);
    if (byBlock.size >= PLANS_PER_BLOCK) byBlock.delete(byBlock.keys().next().value!);
    byBlock.set(signature, compiled);
    const timing = this.timings.get(key) ?? newTiming(block, this.mode);
    timing.compilations++;
    timing.compileMs += compiled.compileMs;
    timing.optimizerMatches += compiled.optimizerMatches;
    timing.fusedOperators = compiled.operators.length;
    timing.rewrites = compiled.rewrites;
    timing.unfused = compiled.unfused.map((u) => `${u.template}: ${u.reason}`);
    this.timings.set(key, timing);
    // A block whose size-deciding scalars keep changing (a loop counter in an index) is planned without their values from then on.
    if (pinned.size > 0 && timing.compilations >= PLANS_PER_BLOCK) this.pinned.set(key, new Set());
    return compiled;
  }

  /** The block's size-deciding scalars, found at its first compilation (none as written: that plan does not use sizes). */
  private pinnedOf(key: string, dag: BlockDag, ctx: EvalContext): ReadonlySet<string> {
    let pinned = this.pinned.get(key);
    if (pinned === undefined) this.pinned.set(key, (pinned = this.mode === "as-written" ? new Set() : sizeScalars(dag, ctx.env, ctx.params)));
    return pinned;
  }
}

/** A block by its place and text: the same text at the same place builds the same DAG. */
function blockKey(block: BasicBlock, sourceText: string): string {
  const { start, end } = block.range;
  return `${start.line}:${start.character}-${end.line}:${end.character}|${textInRange(sourceText, block.range)}`;
}

function valueOfInput(ctx: EvalContext, name: string, pinned: boolean): string {
  const value = ctx.env.get(name);
  if (value === undefined) return "?";
  return pinned ? pinnedSignature(value) : valueSignature(value);
}

function newTiming(block: BasicBlock, mode: PlanMode): BlockTiming {
  return { range: block.range, mode, runs: 0, estimatedSeconds: 0, measuredSeconds: 0, compilations: 0, compileMs: 0, optimizerMatches: 0, fusedOperators: 0, rewrites: 0, unfused: [] };
}
