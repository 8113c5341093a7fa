/**
 * Matrix expressions as sums of products of matrix multiplication chains,
 * the form ReMac's block-wise search works on (paper section 3.2, steps 1
 * and 2): transposes are pushed down to the chain's matrices (`t(A %*% d)`
 * is `t(d) %*% t(A)`; a symmetric matrix is its own transpose), products
 * are expanded with the distributive law (`t(A) %*% (A %*% x - b)` is
 * `t(A) %*% A %*% x - t(A) %*% b`), and scalar factors (`alpha * d`,
 * `X / as.scalar(...)`, unary minus) are kept apart from the chain.
 *
 * Each factor remembers the source leaf it came from (`leaf`), so a window
 * of a chain can be traced back to the smallest piece of source that holds
 * it. Expansion is bounded by a count of products per expression.
 */
import type { Range } from "../syntax";
import type { MncSketch } from "../stats/estimators";

/** What the cost model needs of a matrix: dims and non-zeros. */
export interface MatrixSize {
  rows: number;
  cols: number;
  nnz: number;
}

/** A matrix a chain multiplies: a variable (at one version within its block) or an opaque matrix expression. */
export interface Atom {
  /** Identity: equal keys are equal values (`A`, `d#2` for the second version of d in the block, `⟨X * Y@3:4⟩` for an opaque expression). */
  key: string;
  /** The DML that reads it (a name, or an opaque expression in parentheses). */
  text: string;
  /** The variable's name, for readable temporary names. */
  name?: string;
  size?: MatrixSize;
  /** Its MNC sketch (non-zeros per row and column) when the analysis has one with structure: from a local file's data, or propagated from such sketches (atom-sketch.ts). */
  sketch?: MncSketch;
  /** How many enclosing loops, innermost first, leave its value unchanged. */
  invariantLoops: number;
  /** Provably equal to its own transpose. */
  symmetric: boolean;
  /** Source range of an opaque expression (its text may hold other options' occurrences). */
  range?: Range;
}

export interface Factor {
  atom: Atom;
  transposed: boolean;
  /** The source leaf this factor comes from (unique per leaf occurrence). */
  leaf: number;
}

/** A scalar multiplier or divisor, as source text (already parenthesized when needed) with its range. */
export interface ScalarFactor {
  text: string;
  range: Range;
  inverse: boolean;
}

export interface Product {
  negative: boolean;
  scalars: ScalarFactor[];
  factors: Factor[];
}

export type Sum = Product[];

/** Past this many products, an expression is not expanded further (its sum stays one opaque factor). */
export const MAX_PRODUCTS_PER_EXPRESSION = 32;

export function transposeFactor(f: Factor): Factor {
  return f.atom.symmetric ? f : { ...f, transposed: !f.transposed };
}

export function transposeProduct(p: Product): Product {
  return { ...p, factors: [...p.factors].reverse().map(transposeFactor) };
}

export function transposeSum(s: Sum): Sum {
  return s.map(transposeProduct);
}

export function negateSum(s: Sum): Sum {
  return s.map((p) => ({ ...p, negative: !p.negative }));
}

export function scaleSum(s: Sum, scalar: ScalarFactor): Sum {
  return s.map((p) => ({ ...p, scalars: [...p.scalars, scalar] }));
}

/** The distributive product of two sums, or undefined past the product bound. */
export function multiplySums(a: Sum, b: Sum): Sum | undefined {
  if (a.length * b.length > MAX_PRODUCTS_PER_EXPRESSION) return undefined;
  const out: Sum = [];
  for (const x of a) for (const y of b) out.push({ negative: x.negative !== y.negative, scalars: [...x.scalars, ...y.scalars], factors: [...x.factors, ...y.factors] });
  return out;
}

/** A factor's canonical token: the atom key, primed when transposed. */
export function factorToken(f: Factor): string {
  return f.transposed && !f.atom.symmetric ? `${f.atom.key}'` : f.atom.key;
}
