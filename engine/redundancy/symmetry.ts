/**
 * Which matrix variables are provably symmetric, so that the search treats
 * them as their own transposes (an inverse-Hessian approximation `H` updated
 * symmetrically, as in DFP and BFGS). A greatest fixed point: start from
 * every variable assigned only by plain assignments, and drop one whose
 * assignments are not all symmetric when the remaining ones are assumed
 * symmetric, until nothing changes. An assignment is symmetric when, as a
 * sum of chains, it equals its own transpose term by term: each product is
 * a palindrome (`d %*% t(d)`, `H %*% t(A) %*% A %*% H`) or is matched by
 * its transpose with the same coefficient (`H %*% y %*% t(s) + s %*% t(y)
 * %*% H`); `diag(v)` of a column vector is symmetric. Sound by induction
 * over the run: every assignment keeps the set symmetric. Variables that
 * are parameters, read, indexed-assigned or multi-assigned are never in it.
 */
import type { Expression } from "../syntax";
import { transposeProduct, type Product, type Sum } from "./chain-terms";
import { chainString } from "./window-key";

export interface SymmetryInput {
  /** Per variable, the values of its plain assignments; undefined when it is also assigned otherwise. */
  assignments: ReadonlyMap<string, readonly Expression[] | undefined>;
  /** The expression as a sum of chains, with these variables taken as symmetric; undefined when it is not a matrix expression. */
  sumOf(e: Expression, symmetric: ReadonlySet<string>): Sum | undefined;
}

const NONDETERMINISTIC = /\b(rand|sample|time|runif|rnorm)\s*\(/;

export function symmetricVariables(input: SymmetryInput): Set<string> {
  const symmetric = new Set<string>();
  for (const [name, values] of input.assignments) if (values && values.length > 0) symmetric.add(name);
  let changed = true;
  while (changed) {
    changed = false;
    for (const name of [...symmetric]) {
      const values = input.assignments.get(name)!;
      if (values!.every((v) => isSymmetricSum(input.sumOf(v, symmetric)))) continue;
      symmetric.delete(name);
      changed = true;
    }
  }
  return symmetric;
}

function productText(p: Product): string {
  const scalars = p.scalars.map((s) => `${s.inverse ? "/" : "*"}${s.text}`).sort();
  return `${p.negative ? "-" : "+"}|${scalars.join(" ")}|${chainString(p.factors)}`;
}

export function isSymmetricSum(sum: Sum | undefined): boolean {
  if (!sum || sum.length === 0) return false;
  if (sum.some((p) => p.scalars.some((s) => NONDETERMINISTIC.test(s.text)))) return false;
  const forward = sum.map(productText).sort();
  const backward = sum.map((p) => productText(transposeProduct(p))).sort();
  return forward.every((t, i) => t === backward[i]);
}
