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
 * A block that must be computed again (its text changed, or an input did)
 * hands on the output objects of an earlier result whose outputs have the
 * same values and pattern relations (outputs-signature.ts): the blocks
 * after it then find their inputs identical and stay cached, so an edit
 * recomputes only the blocks whose inputs changed in value.
 *
 * An output object with a pattern root is handed out at most once per
 * analysis: a block evaluated twice in one analysis (loop rounds) gets
 * fresh objects the second time, as without a cache, so fixpoint tests that
 * compare patterns by identity behave the same, and two entries that share
 * objects after a reuse never both serve, so two computations never share a
 * root. Objects without one are plain values and serve any number of
 * times. Moved blocks get their diagnostics moved. Entries that neither
 * this analysis nor the one before used are dropped at `sweep()`.
 */
import { type Diagnostic, shiftRange } from "../../syntax";
import type { BlockSizes } from "./block-sizes";
import type { NodeStats } from "./node-stats";
import { outputsSignature } from "./outputs-signature";

/** How to read and replace the variables a cached result leaves behind. */
export interface ResultOutputs<T> {
  of: (value: T) => Iterable<readonly [string, NodeStats]>;
  replaced: (value: T, outputs: ReadonlyMap<string, NodeStats>) => T;
}

interface Entry {
  value: unknown;
  /** The variables it leaves behind (any kind of result: a block's, a loop's). */
  outputs: ReadonlyMap<string, NodeStats>;
  /** Those of its output objects that carry a pattern root (identity matters only for those), inputs excepted. */
  rooted: NodeStats[];
  line: number;
  /** The last analysis that used it. */
  generation: number;
}

export class BlockSizesCache {
  private readonly entries = new Map<string, Entry>();
  /** Entries by the signature of their outputs, for reuse by recomputed blocks. */
  private readonly bySignature = new Map<string, Entry[]>();
  /** Output objects handed out in this analysis. */
  private handedOut = new Set<NodeStats>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private generation = 0;
  hits = 0;
  misses = 0;
  /** Recomputed results that handed on earlier output objects. */
  reused = 0;
  /** Read stats by what determines them (see program-analysis.ts), identical across analyses. */
  readonly reads = new Map<string, { stats: NodeStats | undefined; generation: number }>();

  /** The block's sizes from the cache, else `compute()`'s, stored. `inputs` are the stats it reads, in a fixed order. */
  sizesOf(blockKey: string, line: number, inputs: readonly (NodeStats | undefined)[], compute: () => BlockSizes): BlockSizes {
    return this.lookup(blockKey, line, inputs, compute, movedSizes, blockOutputs);
  }

  /** Any result stored the same way (a whole loop's, say); `move` shifts what it holds by lines. */
  lookup<T>(key: string, line: number, inputs: readonly (NodeStats | undefined)[], compute: () => T, move: (value: T, lines: number) => T, outputs: ResultOutputs<T>): T {
    const inputIds = inputs.map((s) => (s ? this.idOf(s) : "?")).join(",");
    const full = `${key}\n${inputIds}`;
    const entry = this.entries.get(full);
    if (entry && this.claim(entry)) {
      this.hits++;
      return move(entry.value as T, line - entry.line);
    }
    this.misses++;
    let value = compute();
    const produced = [...outputs.of(value)];
    const signature = outputsSignature(inputs, produced, (o) => this.idOf(o));
    const earlier = this.bySignature.get(signature)?.find((e) => this.claim(e));
    if (earlier) {
      this.reused++;
      value = outputs.replaced(value, earlier.outputs);
    }
    if (!entry) {
      // A reuse hands on the earlier entry's objects, claimed above; fresh ones go out now.
      let stored: Entry;
      if (earlier) stored = { value, line, outputs: earlier.outputs, rooted: earlier.rooted, generation: this.generation };
      else {
        const isInput = new Set(inputs);
        const rooted = produced.map(([, s]) => s).filter((s) => s.sketch?.pattern !== undefined && !isInput.has(s));
        stored = { value, line, outputs: new Map(produced), rooted, generation: this.generation };
        rooted.forEach((s) => this.handedOut.add(s));
      }
      this.entries.set(full, stored);
      const list = this.bySignature.get(signature);
      if (list) list.push(stored);
      else this.bySignature.set(signature, [stored]);
    }
    return value;
  }

  /** Marks the entry used by this analysis, unless one of its rooted output objects is already out. */
  private claim(entry: Entry): boolean {
    if (entry.rooted.some((s) => this.handedOut.has(s))) return false;
    entry.rooted.forEach((s) => this.handedOut.add(s));
    entry.generation = this.generation;
    return true;
  }

  /** Ends one analysis: forgets what neither it nor the one before used. */
  sweep(): void {
    for (const [key, entry] of this.entries) if (entry.generation < this.generation - 1) this.entries.delete(key);
    for (const [signature, list] of this.bySignature) {
      const kept = list.filter((entry) => entry.generation >= this.generation - 1);
      if (kept.length === 0) this.bySignature.delete(signature);
      else if (kept.length < list.length) this.bySignature.set(signature, kept);
    }
    this.handedOut = new Set();
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

  private idOf(object: object): number {
    let id = this.ids.get(object);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(object, id);
    }
    return id;
  }
}

export function movedDiagnostics(diagnostics: readonly Diagnostic[], lines: number): Diagnostic[] {
  return lines === 0 ? [...diagnostics] : diagnostics.map((d) => ({ ...d, range: shiftRange(d.range, lines) }));
}

const blockOutputs: ResultOutputs<BlockSizes> = {
  of: (sizes) => sizes.outputs,
  replaced: (sizes, outputs) => ({ ...sizes, outputs: new Map(outputs) }),
};

export function movedSizes(sizes: BlockSizes, lines: number): BlockSizes {
  return lines === 0 ? sizes : { ...sizes, diagnostics: movedDiagnostics(sizes.diagnostics, lines) };
}
