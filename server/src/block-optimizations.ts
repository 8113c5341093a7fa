/**
 * The optimizer behind the editor: each statement block is optimized off the
 * request path (on a worker thread, optimizer-thread.ts), one block at a
 * time, and cached under its text (with
 * whitespace normalized) plus the sizes of its live-in variables, so an edit
 * recomputes only the blocks it touched or whose inputs changed shape. A
 * cached result moved by lines above it is shifted, never recomputed. A run
 * stops as soon as the document has changed since it started.
 */
import type { ProgramAnalysis } from "../../engine/stats/program-analysis";
import type { BlockDagInfo as BlockInfo } from "../../engine/program/dag-program";
import type { BlockOptimization, Suggestion } from "../../engine/suggest";
import type { Position, Range } from "../../engine/syntax";
import { rangeTexts, shiftRange } from "../../engine/syntax/ranges";
import { type BlockRequestOptions, inProcessRunner, type BlockRunner } from "./optimizer-thread";

interface Cached {
  result: BlockOptimization;
  /** Where the block started when it was optimized. */
  start: Position;
}

/** Results of one analyzed document version, by block. */
export type DocumentOptimizations = Map<BlockInfo, BlockOptimization>;

const MAX_CACHED_BLOCKS = 2000;

export class BlockOptimizer {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly options: () => BlockRequestOptions,
    private readonly run: BlockRunner = inProcessRunner,
  ) {}

  /** What is known now for the document's blocks (cached results only). */
  known(text: string, analysis: ProgramAnalysis): DocumentOptimizations {
    const known: DocumentOptimizations = new Map();
    const textOf = rangeTexts(text);
    for (const info of analysis.dags.blocks) {
      const key = blockKey(textOf, analysis, info);
      const cached = key === undefined ? undefined : this.cache.get(key);
      if (cached) known.set(info, shifted(cached, info.block.range.start));
    }
    return known;
  }

  /**
   * Optimizes every block not in the cache, yielding between blocks; gives up
   * (returns undefined) when `isCurrent` turns false.
   */
  async optimize(text: string, analysis: ProgramAnalysis, isCurrent: () => boolean): Promise<DocumentOptimizations | undefined> {
    const results: DocumentOptimizations = new Map();
    const textOf = rangeTexts(text);
    for (const info of analysis.dags.blocks) {
      const key = blockKey(textOf, analysis, info);
      const sizes = analysis.sizes.blocks.get(info.block);
      if (key === undefined || !sizes) continue;
      let cached = this.cache.get(key);
      if (!cached) {
        if (!isCurrent()) return undefined;
        const result = await this.run({ block: info.block, dag: info.dag, stats: sizes.nodes, sourceText: text }, this.options());
        cached = { result, start: info.block.range.start };
        if (this.cache.size >= MAX_CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(key, cached);
      }
      results.set(info, shifted(cached, info.block.range.start));
    }
    return isCurrent() ? results : undefined;
  }

  /** Forgets everything (e.g. after the optimizer settings changed). */
  clear(): void {
    this.cache.clear();
  }
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
  const fusion = cached.result.fusion.map((f) => ({ ...f, range: shiftRange(f.range, lines) }));
  return { ...cached.result, suggestions, fusion };
}
