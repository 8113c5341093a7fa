/**
 * The optimizer behind the editor: each statement block is optimized off the
 * request path (on a worker thread, optimizer-thread.ts), one block at a
 * time, and cached under its text (with
 * whitespace normalized) plus the sizes of its live-in variables, so an edit
 * recomputes only the blocks it touched or whose inputs changed shape. A
 * cached result moved by lines above it is shifted, never recomputed. A run
 * stops as soon as the document has changed since it started.
 *
 * The cache is bounded by the estimated bytes of its entries (oldest out
 * first) and each entry remembers the documents that used it: closing a
 * document drops the entries no other open document uses. A block the
 * worker's watchdog stopped (optimizer-thread.ts) gets an empty result that
 * says so (`stopReason` "stopped"), cached like any other, so the same
 * block is not tried again on every edit, and the other blocks go on.
 *
 * A document's blocks share one work budget in counts (engine/suggest
 * document-budget.ts), spent in block order by each block's result, cached
 * or not: a block's saturation bound is what its document has left, and that
 * bound is part of its cache key, so the same text gets the same hints
 * whatever was edited or cached before.
 */
import type { ProgramAnalysis } from "../../engine/analysis";
import type { BlockDagInfo as BlockInfo } from "../../engine/program";
import { blockSaturation, DEFAULT_DOCUMENT_BUDGET, documentBudget, emptyFusionView, shiftFusionView, spend, type BlockOptimization, type DocumentBudget, type Suggestion } from "../../engine/suggest";
import { type Position, type Range, rangeTexts, shiftRange, type Diagnostic } from "../../engine/syntax";
import { type BlockRequestOptions, inProcessRunner, OptimizerStoppedError, type BlockRunner } from "./optimizer-thread";

interface Cached {
  result: BlockOptimization;
  /** Where the block started when it was optimized. */
  start: Position;
  /** Estimated bytes of the entry (its key and result as JSON, 2 bytes a character). */
  bytes: number;
  /** The documents (URIs) that used this entry. */
  users: Set<string>;
}

/** `stopReason` of a block whose optimization the watchdog stopped or whose worker died. */
export const STOPPED = "stopped";

/** Results of one analyzed document version, by block. */
export type DocumentOptimizations = Map<BlockInfo, BlockOptimization>;

/** The cache's bound: estimated bytes of all entries. */
export const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export class BlockOptimizer {
  private readonly cache = new Map<string, Cached>();
  private bytes = 0;

  constructor(
    private readonly options: () => BlockRequestOptions,
    private readonly run: BlockRunner = inProcessRunner,
    private readonly maxBytes = MAX_CACHED_BYTES,
  ) {}

  /** Estimated bytes held by the cache. */
  get cachedBytes(): number {
    return this.bytes;
  }

  get cachedBlocks(): number {
    return this.cache.size;
  }

  /** What is known now for the document's blocks (cached results only). */
  known(text: string, analysis: ProgramAnalysis): DocumentOptimizations {
    const known: DocumentOptimizations = new Map();
    const textOf = rangeTexts(text);
    const left = documentBudget();
    for (const info of analysis.dags.blocks) {
      const key = blockKey(textOf, analysis, info);
      if (key === undefined) continue;
      const cached = this.cache.get(this.budgeted(key, left));
      // The blocks after one not optimized yet depend on what it will spend.
      if (!cached) break;
      known.set(info, shifted(cached, info.block.range.start));
      spend(left, cached.result.nodes, cached.result.work.applied);
    }
    return known;
  }

  /**
   * Optimizes every block not in the cache, yielding between blocks; gives up
   * (returns undefined) when `isCurrent` turns false.
   */
  async optimize(uri: string, text: string, analysis: ProgramAnalysis, isCurrent: () => boolean): Promise<DocumentOptimizations | undefined> {
    const results: DocumentOptimizations = new Map();
    const textOf = rangeTexts(text);
    const left = documentBudget();
    for (const info of analysis.dags.blocks) {
      const blockText = blockKey(textOf, analysis, info);
      const sizes = analysis.sizes.blocks.get(info.block);
      if (blockText === undefined || !sizes) continue;
      const key = this.budgeted(blockText, left);
      let cached = this.cache.get(key);
      if (!cached) {
        if (!isCurrent()) return undefined;
        const options = { ...this.options(), documentBudget: { ...left } };
        const result = await this.run({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, options).catch(stoppedResult);
        cached = this.store(key, { result, start: info.block.range.start, bytes: 2 * (key.length + JSON.stringify(result).length), users: new Set() });
      }
      cached.users.add(uri);
      results.set(info, shifted(cached, info.block.range.start));
      spend(left, cached.result.nodes, cached.result.work.applied);
    }
    return isCurrent() ? results : undefined;
  }

  /** The block's cache key with the saturation bound its document has left for it ("spent": none). */
  private budgeted(key: string, left: DocumentBudget): string {
    const bound = blockSaturation(this.options().saturation ?? {}, left);
    return `${key}|${bound === undefined ? "spent" : `${bound.nodeLimit}:${bound.applyLimit}`}`;
  }

  /** Forgets everything (e.g. after the optimizer settings changed). */
  clear(): void {
    this.cache.clear();
    this.bytes = 0;
  }

  /** The document was closed: drops the entries no other document used. */
  forget(uri: string): void {
    for (const [key, cached] of this.cache) {
      cached.users.delete(uri);
      if (cached.users.size === 0) this.remove(key, cached);
    }
  }

  private store(key: string, cached: Cached): Cached {
    if (cached.bytes > this.maxBytes) return cached; // used for this run, never kept
    for (const [oldKey, old] of this.cache) {
      if (this.bytes + cached.bytes <= this.maxBytes) break;
      this.remove(oldKey, old);
    }
    this.cache.set(key, cached);
    this.bytes += cached.bytes;
    return cached;
  }

  private remove(key: string, cached: Cached): void {
    this.cache.delete(key);
    this.bytes -= cached.bytes;
  }
}

/** The result of a block whose worker was stopped by the watchdog or died: no suggestions, and why. */
function stoppedResult(error: unknown): BlockOptimization {
  const limitMs = error instanceof OptimizerStoppedError ? error.limitMs : 0;
  const why = error instanceof Error ? error.message : String(error);
  return { suggestions: [], fusion: { asWritten: emptyFusionView() }, dropped: [], stopReason: STOPPED, ...(limitMs > 0 ? { safetyNet: { what: "saturation" as const, limitMs, ms: limitMs } } : {}), work: { iterations: 0, applied: 0 }, nodes: 0, classes: 0, ms: limitMs, planGraphs: [], stoppedBecause: why } as BlockOptimization;
}

/** A warning on the first line of each block whose optimization was stopped: the block gets no hints, the rest of the workspace does. */
export function stoppedBlockDiagnostics(optimizations: DocumentOptimizations): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const [info, result] of optimizations) {
    if (result.stopReason !== STOPPED) continue;
    const start = info.block.range.start;
    const because = (result as { stoppedBecause?: string }).stoppedBecause ?? "the optimizer stopped";
    found.push({
      severity: "warning",
      message: `no rewrites for this block: ${because}. The other blocks and documents are still optimized; edit the block to try again.`,
      range: { start, end: { line: start.line, character: start.character + 1 } },
      code: "optimizer-stopped",
    });
  }
  return found;
}

/**
 * One note on the first block the document's work budget did not reach:
 * that block and the later ones are not searched for rewrites (only their
 * multiplication-chain orders are tried), and it says how many.
 */
export function budgetSpentDiagnostics(optimizations: DocumentOptimizations): Diagnostic[] {
  const spentBlocks = [...optimizations].filter(([, result]) => result.stopReason === "documentBudget").map(([info]) => info.block.range.start);
  const first = spentBlocks.sort((a, b) => a.line - b.line || a.character - b.character)[0];
  if (first === undefined) return [];
  const { nodes, applied } = DEFAULT_DOCUMENT_BUDGET;
  return [{
    severity: "information",
    message: `the optimizer's work budget for this document (${nodes.toLocaleString("en-US")} e-nodes, ${applied.toLocaleString("en-US")} rewrites applied) is spent: ${spentBlocks.length === 1 ? "this block is" : `this block and ${spentBlocks.length - 1} later ${spentBlocks.length === 2 ? "one are" : "ones are"}`} not searched for rewrites (only multiplication-chain orders are tried).`,
    range: { start: first, end: { line: first.line, character: first.character + 1 } },
    code: "optimizer-budget-spent",
  }];
}

/**
 * The block's text (whitespace runs collapsed), the stats of what flows into
 * it and of every node (so new metadata or measured sizes count); undefined
 * for blocks without sizes.
 */
function blockKey(textOf: (range: Range) => string, analysis: ProgramAnalysis, info: BlockInfo): string | undefined {
  const sizes = analysis.sizes.blocks.get(info.block);
  if (!sizes) return undefined;
  const stat = (id: number) => {
    const s = sizes.nodes[id];
    return s ? `${s.type.dataType}:${s.rows}:${s.cols}:${s.nnz}:${String(s.value)}` : "?";
  };
  const inputs = [...info.dag.inputs.entries()].map(([name, node]) => `${name}:${stat(node)}`);
  const start = info.block.range.start.character;
  return `${start}|${textOf(info.block.range).replace(/\s+/g, " ")}|${inputs.sort().join(";")}|${info.dag.nodes.map((n) => stat(n.id)).join(";")}`;
}

function shifted(cached: Cached, start: Position): BlockOptimization {
  const lines = start.line - cached.start.line;
  if (lines === 0) return cached.result;
  const move = (p: Position): Position => ({ line: p.line + lines, character: p.character });
  const suggestions = cached.result.suggestions.map((s): Suggestion => {
    const moved: Suggestion = { ...s, range: shiftRange(s.range, lines) };
    if (s.temporaries) moved.temporaries = s.temporaries.map((t) => ({ ...t, insertAt: move(t.insertAt) }));
    return moved;
  });
  const { asWritten, rewritten } = cached.result.fusion;
  const fusion = { asWritten: shiftFusionView(asWritten, lines), ...(rewritten ? { rewritten: shiftFusionView(rewritten, lines) } : {}) };
  return { ...cached.result, suggestions, fusion };
}
