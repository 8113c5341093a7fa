/**
 * ReMac's block-wise search (paper sections 3.2 and 3.3, step 3): slide
 * windows of every length (2 up to the chain's length) over every chain,
 * key each by its canonical string (window-key.ts) and collect the
 * windows in a hash table. Keys that collide within a basic block are
 * common subexpressions (CSE options); windows whose matrices are all
 * loop-constant are loop-constant subexpressions (LSE options), hoisted
 * out of the outermost loop that leaves all of them unchanged. Windows of
 * one option never overlap (left to right, the first wins). A CSE that an
 * LSE of the same windows covers is left out (the LSE is the same reuse,
 * computed once instead of once per iteration). Extended across blocks:
 * windows are also keyed by the values they read (Chain.values), and a key
 * whose windows lie in several blocks of a scope is one more option,
 * computed where cross-block.ts places it. Bounded by a
 * count of windows and of options; the result says when a bound stopped it.
 */
import { transposeFactor, type Factor } from "./chain-terms";
import type { BlockChains, Chain, ChainLoop, ProgramChains } from "./program-chains";
import { crossBlockPlacement, type CrossBlockPlacement } from "./cross-block";
import { windowKey } from "./window-key";

export const MAX_WINDOWS = 20_000;
export const MAX_OPTIONS = 400;

export interface WindowOccurrence {
  chain: Chain;
  start: number;
  /** Inclusive. */
  end: number;
  /** Written as the transpose of the option's expression. */
  transposed: boolean;
}

export interface FoundOption {
  kind: "cse" | "lse";
  key: string;
  /** The option's expression as factors, in the key's orientation. */
  factors: Factor[];
  occurrences: WindowOccurrence[];
  /** CSE: the block whose statements share it. */
  block: BlockChains;
  /** LSE: the loop it is hoisted out of. */
  loop?: ChainLoop;
  /** A CSE across basic blocks: where its temporary is computed (else before the first statement of `block` that holds an occurrence). */
  across?: CrossBlockPlacement;
}

export interface WindowSearch {
  options: FoundOption[];
  windows: number;
  truncated: boolean;
}

export function searchWindows(program: ProgramChains): WindowSearch {
  let windows = 0;
  let truncated = program.truncated;
  const options: FoundOption[] = [];
  // Windows by the values they multiply, across the blocks of a scope (with the orientation of their block's key, see crossBlockOptions).
  const across = new Map<string, { occurrence: WindowOccurrence; flipped: boolean }[]>();
  for (const block of program.blocks) {
    const common = new Map<string, WindowOccurrence[]>();
    const constant = new Map<string, { loop: ChainLoop; list: WindowOccurrence[] }>();
    for (const chain of block.chains) {
      const factors = chain.product.factors;
      const tokens = valueTokens(chain);
      for (let len = 2; len <= factors.length; len++) {
        for (let start = 0; start + len <= factors.length; start++) {
          if (windows >= MAX_WINDOWS) {
            truncated = true;
            break;
          }
          windows++;
          const window = factors.slice(start, start + len);
          const { key, transposed } = windowKey(window);
          const occurrence: WindowOccurrence = { chain, start, end: start + len - 1, transposed };
          const list = common.get(key) ?? [];
          list.push(occurrence);
          common.set(key, list);
          const valueKey = tokens.key(start, start + len - 1);
          const sameValues = across.get(valueKey.key) ?? [];
          sameValues.push({ occurrence, flipped: valueKey.transposed !== transposed });
          across.set(valueKey.key, sameValues);
          const invariant = Math.min(block.loops.length, ...window.map((f) => f.atom.invariantLoops));
          if (invariant >= 1) {
            const loop = block.loops[invariant - 1]!;
            const entry = constant.get(`${loop.id}|${key}`) ?? { loop, list: [] };
            entry.list.push(occurrence);
            constant.set(`${loop.id}|${key}`, entry);
          }
        }
      }
    }
    for (const [key, list] of common) {
      const kept = nonOverlapping(list);
      const distinct = new Set(kept.map(leafSignature));
      // Windows that share their source leaves come from one written product expanded over a sum: not computed twice.
      if (distinct.size >= 2) options.push({ kind: "cse", key, factors: keyFactors(kept[0]!), occurrences: kept, block });
    }
    for (const [compound, { loop, list }] of constant) {
      const key = compound.slice(compound.indexOf("|") + 1);
      const kept = nonOverlapping(list);
      options.push({ kind: "lse", key, factors: keyFactors(kept[0]!), occurrences: kept, block, loop });
    }
  }
  // LSE options of one loop found in several blocks of its body are one option.
  const merged: FoundOption[] = [];
  const byLoop = new Map<string, FoundOption>();
  for (const o of options) {
    if (o.kind !== "lse") {
      merged.push(o);
      continue;
    }
    const id = `${o.loop!.id}|${o.key}`;
    const earlier = byLoop.get(id);
    if (earlier) earlier.occurrences.push(...o.occurrences);
    else {
      byLoop.set(id, o);
      merged.push(o);
    }
  }
  // A CSE whose windows an LSE of the same expression covers is subsumed: the LSE computes it once, not once per iteration.
  const covered = (o: FoundOption) =>
    o.kind === "cse" &&
    merged.some((l) => l.kind === "lse" && l.key === o.key && o.occurrences.every((w) => l.occurrences.some((v) => v.chain === w.chain && v.start === w.start && v.end === w.end)));
  // Options across blocks come after the merge: an LSE among them (one that also reuses the value outside its loop) is an option of its own.
  merged.push(...crossBlockOptions(across, program.blocks));
  const kept = merged.filter((o) => !covered(o));
  if (kept.length > MAX_OPTIONS) truncated = true;
  return { options: kept.slice(0, MAX_OPTIONS), windows, truncated };
}

/**
 * Options whose windows lie in several blocks and read the same values
 * (cross-block.ts says where they can be computed once): an LSE when that
 * takes it out of a loop around some of them, else a CSE. The option takes
 * its key and orientation from its first window's block; a window read in
 * the other orientation of the values' key is transposed relative to it.
 */
function crossBlockOptions(across: Map<string, { occurrence: WindowOccurrence; flipped: boolean }[]>, blocks: readonly BlockChains[]): FoundOption[] {
  const found: FoundOption[] = [];
  for (const list of across.values()) {
    if (list.length < 2 || list.every((w) => w.occurrence.chain.region.block === list[0]!.occurrence.chain.region.block)) continue;
    const byOccurrence = new Map(list.map((w) => [w.occurrence, w.flipped]));
    const kept = nonOverlapping(list.map((w) => w.occurrence));
    const first = kept[0]!;
    const firstFlipped = byOccurrence.get(first)!;
    // Relative to the first window's key orientation: written transposed iff (own value-key orientation) differs from the first's.
    const occurrences = kept.map((o) => ({ ...o, transposed: o.transposed !== byOccurrence.get(o)! !== firstFlipped }));
    const placement = crossBlockPlacement(occurrences, blocks);
    if (!placement) continue;
    const head = occurrences[0]!;
    const key = windowKey(head.chain.product.factors.slice(head.start, head.end + 1)).key;
    const block = head.chain.region.block;
    const loop = placement.hoistedOutOf;
    found.push({ kind: loop ? "lse" : "cse", key, factors: keyFactors(head), occurrences, block, across: placement, ...(loop ? { loop } : {}) });
  }
  return found;
}

/** Window keys of a chain over the values its factors read (Chain.values) instead of their atoms within the block. */
function valueTokens(chain: Chain): { key(start: number, end: number): { key: string; transposed: boolean } } {
  const factors = chain.product.factors;
  const forward = factors.map((f, i) => (f.transposed && !f.atom.symmetric ? `${chain.values[i]}'` : chain.values[i]!));
  const backward = factors.map((f, i) => (!f.transposed && !f.atom.symmetric ? `${chain.values[i]}'` : chain.values[i]!));
  return {
    key(start, end) {
      const ahead = forward.slice(start, end + 1).join(" ");
      const back = backward.slice(start, end + 1).reverse().join(" ");
      return back < ahead ? { key: back, transposed: true } : { key: ahead, transposed: false };
    },
  };
}

function leafSignature(o: WindowOccurrence): string {
  return o.chain.product.factors
    .slice(o.start, o.end + 1)
    .map((f) => f.leaf)
    .sort((a, b) => a - b)
    .join(",");
}

function keyFactors(o: WindowOccurrence): Factor[] {
  const window = o.chain.product.factors.slice(o.start, o.end + 1);
  return o.transposed ? [...window].reverse().map(transposeFactor) : window;
}

function nonOverlapping(list: readonly WindowOccurrence[]): WindowOccurrence[] {
  const sorted = [...list].sort((a, b) => a.chain.id - b.chain.id || a.start - b.start);
  const kept: WindowOccurrence[] = [];
  for (const o of sorted) {
    const last = kept[kept.length - 1];
    if (last && last.chain === o.chain && last.end >= o.start) continue;
    kept.push(o);
  }
  return kept;
}
