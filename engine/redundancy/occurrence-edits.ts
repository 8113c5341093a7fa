/**
 * Where an option's windows are in the source and what replaces them, so
 * that applying the option (`NAME = expression` before its statement or
 * loop, each occurrence's range replaced) gives DML that equals the
 * original.
 *
 * - A window that some expression node computes exactly (`A %*% d`, or
 *   `t(A) %*% A` as the left part of `t(A) %*% A %*% x`) is replaced by the
 *   name: explicit. A node computing its transpose (`t(d) %*% t(A)`) gets
 *   `t(NAME)`.
 * - Otherwise the smallest node holding the window's matrices is printed
 *   again as a sum of chains with the window as the name (`t(d) %*% t(A)
 *   %*% A %*% d` becomes `t(Ad) %*% Ad`; `t(A) %*% (A %*% x - b)` becomes
 *   `AtA %*% x - t(A) %*% b`): implicit.
 * Occurrences inside another occurrence's range (in its scalar factors or
 * opaque operands, or in its chain) are folded into it.
 */
import { type Expression, type Range, positionOffsets } from "../syntax";
import type { Factor, Product } from "./chain-terms";
import { productText, sumText, type PrintedFactor } from "./chain-print";
import { chainCost } from "./chain-cost";
import type { Region } from "./program-chains";
import type { RedundancyOccurrence } from "./redundancy-types";
import { isSymmetricChain } from "./window-key";
import type { FoundOption, WindowOccurrence } from "./window-search";

export const NAME_PLACEHOLDER = "{name}";

export interface OptionEdits {
  occurrences: RedundancyOccurrence[];
  explicit: boolean;
}

interface Edit {
  range: Range;
  from: number;
  to: number;
  replacement: string;
  transposed: boolean;
  explicit: boolean;
}

export function optionEdits(option: FoundOption, text: string): OptionEdits {
  const offset = positionOffsets(text);
  const tempSize = chainCost(option.factors)?.size;
  const tempAtomSymmetric = isSymmetricChain(option.factors);
  const tempFactor = (transposed: boolean, leaf: number): Factor => ({
    atom: { key: NAME_PLACEHOLDER, text: NAME_PLACEHOLDER, ...(tempSize ? { size: tempSize } : {}), invariantLoops: 0, symmetric: tempAtomSymmetric },
    transposed,
    leaf,
  });
  const leavesOf = (w: WindowOccurrence) => w.chain.product.factors.slice(w.start, w.end + 1).map((f) => f.leaf);
  const byRegion = new Map<Region, PrintedWindow[]>();
  for (const w of option.occurrences) {
    const list = byRegion.get(w.chain.region) ?? [];
    list.push({ leaves: leavesOf(w), transposed: w.transposed });
    byRegion.set(w.chain.region, list);
  }

  const planned: { node: Expression; region: Region; mode: "name" | "transposed" | "print"; transposed: boolean }[] = [];
  for (const w of option.occurrences) {
    const region = w.chain.region;
    const leaves = leavesOf(w);
    const exact = exactNodes(region, leaves, w.transposed);
    const same = exact.find((n) => !n.transposed);
    const flipped = exact.find((n) => n.transposed);
    if (same) planned.push({ node: same.node, region, mode: "name", transposed: w.transposed });
    else if (flipped) planned.push({ node: flipped.node, region, mode: "transposed", transposed: w.transposed });
    else planned.push({ node: smallestHolder(region, leaves), region, mode: "print", transposed: w.transposed });
  }

  // Smallest first: a larger edit splices the ones inside its scalar and opaque parts.
  const unique = new Map<string, (typeof planned)[number]>();
  for (const p of planned) {
    const id = `${offset(p.node.range.start)}-${offset(p.node.range.end)}`;
    const before = unique.get(id);
    if (!before || (before.mode !== "print" && p.mode === "print")) unique.set(id, p);
  }
  const ordered = [...unique.values()].sort((a, b) => offset(a.node.range.end) - offset(a.node.range.start) - (offset(b.node.range.end) - offset(b.node.range.start)));
  const done: Edit[] = [];
  const spliced = (range: Range): string => {
    const from = offset(range.start);
    const to = offset(range.end);
    const inside = done.filter((e) => e.from >= from && e.to <= to && !done.some((o) => o !== e && o.from <= e.from && o.to >= e.to && (o.from < e.from || o.to > e.to)));
    inside.sort((a, b) => b.from - a.from);
    let out = text.slice(from, to);
    for (const e of inside) out = out.slice(0, e.from - from) + e.replacement + out.slice(e.to - from);
    return out;
  };
  let leafIds = -1;
  for (const p of ordered) {
    const from = offset(p.node.range.start);
    const to = offset(p.node.range.end);
    let replacement: string;
    if (p.mode === "name") replacement = NAME_PLACEHOLDER;
    else if (p.mode === "transposed") replacement = tempAtomSymmetric ? NAME_PLACEHOLDER : `t(${NAME_PLACEHOLDER})`;
    else {
      const sum = p.region.sums.sums.get(p.node)!;
      const windows = byRegion.get(p.region)!;
      const terms = sum.map((product) => ({ negative: product.negative, text: printProduct(product, windows, spliced, (t) => tempFactor(t, leafIds--)) }));
      const printed = sumText(terms);
      replacement = p.node === p.region.sums.root && sum.length === 1 && sum[0]!.scalars.length === 0 && !sum[0]!.negative ? printed : `(${printed})`;
    }
    done.push({ range: p.node.range, from, to, replacement, transposed: p.transposed, explicit: p.mode === "name" });
  }
  const outer = done.filter((e) => !done.some((o) => o !== e && o.from <= e.from && o.to >= e.to && (o.from < e.from || o.to > e.to)));
  outer.sort((a, b) => a.from - b.from);
  return {
    // A folded occurrence's window counts as the outer one's: transposed when any window inside is.
    occurrences: outer.map((e) => ({ range: e.range, replacement: e.replacement, transposed: done.some((i) => i.from >= e.from && i.to <= e.to && i.transposed) })),
    explicit: done.every((e) => e.explicit),
  };
}

/**
 * Nodes of the region whose value is exactly the product of these leaves:
 * in this order (the window as written) or reversed (its transpose), each
 * with whether it is the transpose of the option's expression (`transposed`:
 * the window is written transposed).
 */
function exactNodes(region: Region, leaves: readonly number[], transposed: boolean): { node: Expression; transposed: boolean }[] {
  let index = exactIndex.get(region);
  if (!index) {
    index = new Map();
    for (const [node, sum] of region.sums.sums) {
      if (sum.length !== 1) continue;
      const p = sum[0]!;
      if (p.negative || p.scalars.length > 0) continue;
      const ids = p.factors.map((f) => f.leaf).join(",");
      index.set(ids, [...(index.get(ids) ?? []), node]);
    }
    exactIndex.set(region, index);
  }
  return [
    ...(index.get(leaves.join(",")) ?? []).map((node) => ({ node, transposed })),
    ...(index.get([...leaves].reverse().join(",")) ?? []).map((node) => ({ node, transposed: !transposed })),
  ];
}

/** Per region: the nodes computing one plain product, by its leaves in order. */
const exactIndex = new WeakMap<Region, Map<string, Expression[]>>();

/** The smallest node of the region whose sum holds every one of these leaves. */
function smallestHolder(region: Region, leaves: readonly number[]): Expression {
  const holds = (node: Expression) => region.sums.sums.get(node)?.some((p) => leaves.every((l) => p.factors.some((f) => f.leaf === l))) ?? false;
  // Walk up from a leaf's node until a node holds them all.
  let candidates = [...region.sums.sums.keys()].filter(holds);
  const parents = region.sums.parents;
  const depth = (n: Expression) => {
    let d = 0;
    for (let p = parents.get(n); p; p = parents.get(p)) d++;
    return d;
  };
  candidates = candidates.sort((a, b) => depth(b) - depth(a));
  return candidates[0] ?? region.sums.root;
}

/** An option's window in a region: its leaves in chain order, and whether it is written as the transpose of the option's expression. */
interface PrintedWindow {
  leaves: number[];
  transposed: boolean;
}

/** A product with every window of the option in it (by leaves, either direction) replaced by the name. */
function printProduct(
  product: Product,
  windows: readonly PrintedWindow[],
  spliced: (range: Range) => string,
  temp: (transposed: boolean) => Factor,
): string {
  const out: PrintedFactor[] = [];
  const factors = product.factors;
  let i = 0;
  while (i < factors.length) {
    let matched = 0;
    for (const w of windows) {
      if (i + w.leaves.length > factors.length) continue;
      const ids = factors.slice(i, i + w.leaves.length).map((f) => f.leaf).join(",");
      // Leaves in the window's order: as the window is written; reversed: this node holds its transpose.
      const forward = ids === w.leaves.join(",");
      if (!forward && ids !== [...w.leaves].reverse().join(",")) continue;
      matched = w.leaves.length;
      out.push({ factor: temp(forward ? w.transposed : !w.transposed), text: NAME_PLACEHOLDER });
      break;
    }
    if (matched > 0) {
      i += matched;
      continue;
    }
    const f = factors[i]!;
    out.push({ factor: f, text: f.atom.range ? `(${spliced(f.atom.range)})` : f.atom.text });
    i++;
  }
  // A scalar factor keeps its parentheses (`(2 * s)`), with the option's occurrences inside it replaced too.
  return productText(product, out, (i) => {
    const scalar = product.scalars[i]!;
    return scalar.text.startsWith("(") ? `(${spliced(scalar.range)})` : spliced(scalar.range);
  });
}
