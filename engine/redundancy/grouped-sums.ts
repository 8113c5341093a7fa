/**
 * ReMac's extension of the block-wise search across blocks (paper section
 * 3.2, "Discussion" after steps 2 and 3): expansion splits
 * `P %*% (X %*% Y + Y %*% Z) + (X %*% Y + Y %*% Z) %*% Q` into four chains
 * and hides the common sum `X %*% Y + Y %*% Z`. Reverting the expansion
 * finds it again: the products of one expression are grouped by a common
 * left and right factor (either may be the identity), and the sum of what
 * is left between them (its terms with their signs and scalar factors) is
 * keyed canonically: terms sorted, and the key of the sum's transpose when
 * smaller, so `t(Y) %*% t(X) + t(Z) %*% t(Y)` is the same sum transposed.
 * A key whose groups appear twice or more in a basic block (in one
 * statement or across its statements) is a CSE; one whose matrices are
 * all loop-constant is an LSE, hoisted out of the outermost loop that
 * leaves them unchanged. Groups of one key never share a product, and
 * groups that multiply the same source leaves (one written sum expanded
 * over another) are computed once in the source, so they count once.
 * A term's scalar factors are compared by their text, so a sum with a
 * non-literal scalar (`alpha * X`) is only grouped within one statement
 * and never hoisted. Bounded by a count of groupings.
 */
import { factorToken, transposeFactor, type Factor, type Product, type ScalarFactor } from "./chain-terms";
import type { BlockChains, ChainLoop, ProgramChains, Region } from "./program-chains";

export const MAX_GROUPINGS = 20_000;

/** One term of a grouped sum: what is left of a product between the common factors, with its sign and scalars. */
export interface GroupedTerm {
  negative: boolean;
  scalars: ScalarFactor[];
  factors: Factor[];
}

/** Products of one expression that share left and right factors: `left %*% (sum of their middles) %*% right`. */
export interface GroupedUse {
  region: Region;
  /** Indexes of the grouped products in the region's sum. */
  products: number[];
  left: Factor[];
  right: Factor[];
  /** The middles sum to the transpose of the option's sum. */
  transposed: boolean;
}

export interface FoundGroupedSum {
  kind: "cse" | "lse";
  key: string;
  /** The sum, in the key's orientation. */
  terms: GroupedTerm[];
  uses: GroupedUse[];
  block: BlockChains;
  loop?: ChainLoop;
}

export interface GroupedSumSearch {
  sums: FoundGroupedSum[];
  groupings: number;
  truncated: boolean;
}

interface Candidate {
  use: GroupedUse;
  terms: GroupedTerm[];
  /** The source leaves of the middles: equal for groups of one written sum. */
  leaves: string;
}

export function searchGroupedSums(program: ProgramChains): GroupedSumSearch {
  let groupings = 0;
  let truncated = false;
  const found: FoundGroupedSum[] = [];
  const hoisted = new Map<string, FoundGroupedSum>();
  for (const block of program.blocks) {
    const byKey = new Map<string, Candidate[]>();
    for (const region of block.regions) {
      const groups = new Map<string, { products: number[]; left: Factor[]; right: Factor[] }>();
      region.sums.sum.forEach((product, index) => {
        const n = product.factors.length;
        for (let a = 0; a < n; a++) {
          for (let b = 0; a + b < n; b++) {
            if (groupings >= MAX_GROUPINGS) {
              truncated = true;
              return;
            }
            groupings++;
            const left = product.factors.slice(0, a);
            const right = product.factors.slice(n - b);
            const id = `${left.map(factorToken).join(" ")}|${right.map(factorToken).join(" ")}`;
            const group = groups.get(id) ?? { products: [], left, right };
            group.products.push(index);
            groups.set(id, group);
          }
        }
      });
      for (const group of groups.values()) {
        if (group.products.length < 2) continue;
        const terms = group.products.map((i) => middle(region.sums.sum[i]!, group.left.length, group.right.length));
        const forward = sumKey(terms);
        const backward = sumKey(terms.map(transposeTerm));
        const transposed = backward < forward;
        // Scalars other than number literals may change between statements: such a sum is only common within its statement.
        const key = `${transposed ? backward : forward}${terms.every(literalScalars) ? "" : `@${region.id}`}`;
        const leaves = terms.flatMap((t) => t.factors.map((f) => f.leaf)).sort((x, y) => x - y).join(",");
        const candidate: Candidate = { use: { region, products: group.products, left: group.left, right: group.right, transposed }, terms: transposed ? terms.map(transposeTerm) : terms, leaves };
        const list = byKey.get(key) ?? [];
        list.push(candidate);
        byKey.set(key, list);
      }
    }
    for (const [key, list] of byKey) {
      const kept = disjoint(list);
      const first = kept[0];
      if (!first) continue;
      const uses = kept.map((c) => c.use);
      const literal = first.terms.every(literalScalars);
      const invariant = literal ? Math.min(block.loops.length, ...first.terms.flatMap((t) => t.factors.map((f) => f.atom.invariantLoops))) : 0;
      if (invariant >= 1) {
        const loop = block.loops[invariant - 1]!;
        // One loop-constant sum found in several blocks of the loop's body is one option.
        const earlier = hoisted.get(`${loop.id}|${key}`);
        if (earlier) earlier.uses.push(...uses);
        else {
          const option: FoundGroupedSum = { kind: "lse", key, terms: first.terms, uses, block, loop };
          hoisted.set(`${loop.id}|${key}`, option);
          found.push(option);
        }
      } else if (kept.length >= 2) found.push({ kind: "cse", key, terms: first.terms, uses, block });
    }
  }
  return { sums: found, groupings, truncated };
}

function middle(product: Product, left: number, right: number): GroupedTerm {
  return { negative: product.negative, scalars: product.scalars, factors: product.factors.slice(left, product.factors.length - right) };
}

function transposeTerm(t: GroupedTerm): GroupedTerm {
  return { ...t, factors: [...t.factors].reverse().map(transposeFactor) };
}

function termKey(t: GroupedTerm): string {
  const scalars = t.scalars.map((s) => `${s.inverse ? "/" : "*"}${s.text}`).sort();
  return `${t.negative ? "-" : "+"}${scalars.join("")} ${t.factors.map(factorToken).join(" ")}`;
}

/** The sum's terms in a canonical order: the same terms in any order are the same sum. */
export function sumKey(terms: readonly GroupedTerm[]): string {
  return terms.map(termKey).sort().join(" ; ");
}

function literalScalars(t: GroupedTerm): boolean {
  return t.scalars.every((s) => /^\(?[0-9.eE+-]+\)?$/.test(s.text));
}

/**
 * Groups of one key that are computed separately: no two share a product,
 * no two multiply the same source leaves, and none lies in an expression
 * nested inside another's (its edit would be overwritten).
 */
function disjoint(list: readonly Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  for (const c of list) {
    const clash = kept.some(
      (k) =>
        k.leaves === c.leaves ||
        (k.use.region === c.use.region ? k.use.products.some((p) => c.use.products.includes(p)) : nested(k.use.region, c.use.region) || nested(c.use.region, k.use.region)),
    );
    if (!clash) kept.push(c);
  }
  return kept;
}

function nested(outer: Region, inner: Region): boolean {
  const a = outer.sums.root.range;
  const b = inner.sums.root.range;
  const before = (x: { line: number; character: number }, y: { line: number; character: number }) => x.line < y.line || (x.line === y.line && x.character <= y.character);
  return before(a.start, b.start) && before(b.end, a.end);
}
