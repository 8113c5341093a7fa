/**
 * Sums of chains back to DML. A chain is printed in its cheapest
 * multiplication order (chain-cost.ts) with the parentheses that order
 * needs, or left to right when a size is unknown; a transposed factor is
 * `t(X)`; scalar factors multiply or divide the chain; products are joined
 * with `+` and `-`.
 */
import type { Factor, Product } from "./chain-terms";
import { chainCost, type ChainTree } from "./chain-cost";

export interface PrintedFactor {
  factor: Factor;
  /** The text of the factor's atom (opaque atoms may have edits inside). */
  text: string;
}

export function factorText(f: PrintedFactor): string {
  return f.factor.transposed && !f.factor.atom.symmetric ? `t(${f.text})` : f.text;
}

export function chainText(factors: readonly PrintedFactor[]): string {
  const texts = factors.map(factorText);
  const cost = chainCost(factors.map((f) => f.factor));
  if (!cost) return texts.join(" %*% ");
  // %*% is left-associative: a left operand needs no parentheses, a right one that is a product does.
  const print = (t: ChainTree): string => {
    if (t.kind === "leaf") return texts.slice(t.start, t.end + 1).join(" %*% ");
    const right = print(t.right);
    return `${print(t.left)} %*% ${t.right.kind === "leaf" && t.right.start === t.right.end ? right : `(${right})`}`;
  };
  return print(cost.tree);
}

/** One product: `-`, scalar multipliers, the chain, scalar divisors (`alpha * (A %*% d) / s`). */
export function productText(product: Product, factors: readonly PrintedFactor[], scalarText: (i: number) => string): string {
  const chain = chainText(factors);
  const multipliers = product.scalars.flatMap((s, i) => (s.inverse ? [] : [scalarText(i)]));
  const divisors = product.scalars.flatMap((s, i) => (s.inverse ? [scalarText(i)] : []));
  const wrapped = factors.length > 1 && (multipliers.length > 0 || divisors.length > 0) ? `(${chain})` : chain;
  let text = [...multipliers, wrapped].join(" * ");
  for (const d of divisors) text += ` / ${d}`;
  return text;
}

/** Products joined with `+`/`-`; a leading negative product is `-(...)`. */
export function sumText(terms: readonly { negative: boolean; text: string }[]): string {
  return terms
    .map((t, i) => {
      if (i === 0) return t.negative ? `-(${t.text})` : t.text;
      return `${t.negative ? "-" : "+"} ${t.text}`;
    })
    .join(" ");
}
