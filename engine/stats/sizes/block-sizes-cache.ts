/**
 * Block sizes kept across analyses of one document, so that after an edit
 * the size analysis recomputes only the blocks that changed or whose inputs
 * did. An entry is stored under the block's DAG key (its text, start
 * column, live-in types and loop context: block-dag-cache.ts), what the
 * whole analysis contributes (`$param` values, the estimator) and the
 * identity of each input's stats object.
 *
 * Identity, not value: stats carry sketches whose pattern roots relate
 * matrices by object identity (sketch-sizes.ts), so a result may only be
 * reused with the very objects it was computed from. A hit returns the
 * stored objects, which keeps the chain going: the next block's inputs are
 * then identical too. Reads are kept identical across analyses by the
 * caller (the same metadata and file give the same stats object).
 *
 * An entry serves at most once per analysis: a block evaluated twice in one
 * analysis (loop rounds) gets fresh objects the second time, as without a
 * cache, so fixpoint tests that compare patterns by identity behave the
 * same. Moved blocks get their diagnostics moved. Entries that neither this
 * analysis nor the one before used are dropped at `sweep()`.
 */
import type { Diagnostic } from "../../syntax/ast";
import { shiftRange } from "../../syntax/ranges";
import type { BlockSizes } from "./block-sizes";
import type { NodeStats } from "./node-stats";

interface Entry {
  value: unknown;
  line: number;
  generation: number;
  /** The analysis that used it last (it serves once per analysis). */
  usedIn: number;
}

export class BlockSizesCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private generation = 0;
  hits = 0;
  misses = 0;
  /** Read stats by what determines them (see program-analysis.ts), identical across analyses. */
  readonly reads = new Map<string, { stats: NodeStats | undefined; generation: number }>();

  /** The block's sizes from the cache, else `compute()`'s, stored. `inputs` are the stats it reads, in a fixed order. */
  sizesOf(blockKey: string, line: number, inputs: readonly (NodeStats | undefined)[], compute: () => BlockSizes): BlockSizes {
    return this.lookup(blockKey, line, inputs, compute, movedSizes);
  }

  /** Any result stored the same way (a whole loop's, say); `move` shifts what it holds by lines. */
  lookup<T>(key: string, line: number, inputs: readonly (NodeStats | undefined)[], compute: () => T, move: (value: T, lines: number) => T): T {
    const full = `${key}\n${inputs.map((s) => (s ? this.idOf(s) : "?")).join(",")}`;
    const entry = this.entries.get(full);
    if (entry && entry.usedIn !== this.generation) {
      this.hits++;
      entry.usedIn = this.generation;
      entry.generation = this.generation;
      return move(entry.value as T, line - entry.line);
    }
    this.misses++;
    const value = compute();
    if (!entry) this.entries.set(full, { value, line, generation: this.generation, usedIn: this.generation });
    return value;
  }

  /** Ends one analysis: forgets what neither it nor the one before used. */
  sweep(): void {
    for (const [key, entry] of this.entries) if (entry.generation < this.generation - 1) this.entries.delete(key);
    for (const [key, read] of this.reads) if (read.generation < this.generation - 1) this.reads.delete(key);
    this.generation++;
  }

  /** The read stats stored under `key` (kept identical across analyses), else `load()`'s. */
  readStats(key: string, load: () => NodeStats | undefined): NodeStats | undefined {
    const known = this.reads.get(key);
    if (known) {
      known.generation = this.generation;
      return known.stats;
    }
    const stats = load();
    this.reads.set(key, { stats, generation: this.generation });
    return stats;
  }

  private idOf(stats: NodeStats): number {
    let id = this.ids.get(stats);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(stats, id);
    }
    return id;
  }
}

export function movedDiagnostics(diagnostics: readonly Diagnostic[], lines: number): Diagnostic[] {
  return lines === 0 ? [...diagnostics] : diagnostics.map((d) => ({ ...d, range: shiftRange(d.range, lines) }));
}

export function movedSizes(sizes: BlockSizes, lines: number): BlockSizes {
  return lines === 0 ? sizes : { ...sizes, diagnostics: movedDiagnostics(sizes.diagnostics, lines) };
}
