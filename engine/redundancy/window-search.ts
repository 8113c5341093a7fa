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
 * computed once instead of once per iteration). Bounded by a
 * count of windows and of options; the result says when a bound stopped it.
 */
import { transposeFactor, type Factor } from "./chain-terms";
import type { BlockChains, Chain, ChainLoop, ProgramChains } from "./program-chains";
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
  for (const block of program.blocks) {
    const common = new Map<string, WindowOccurrence[]>();
    const constant = new Map<string, { loop: ChainLoop; list: WindowOccurrence[] }>();
    for (const chain of block.chains) {
      const factors = chain.product.factors;
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
  const kept = merged.filter((o) => !covered(o));
  if (kept.length > MAX_OPTIONS) truncated = true;
  return { options: kept.slice(0, MAX_OPTIONS), windows, truncated };
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
