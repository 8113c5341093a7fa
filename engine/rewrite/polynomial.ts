/**
 * The canonical form of a sum-product expression (SPORES, Definition 2.1):
 * a sum of monomials, each a constant times Σ over some bound attributes of
 * a product of bound matrices, built directly from an LA term instead of by
 * rewriting. Element-wise + - * (with DML broadcasting), scalar constants,
 * small integer powers, %*%, t, sum, rowSums, colSums and the 1x1 casts are
 * sum-product; anything else is an opaque factor bound to the attributes of
 * its value. Isomorphic monomials are combined (3·m + 5·m = 8·m).
 */
import type { ClassId, ENode, EGraphView } from "../egraph";
import type { LaData, OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";

/** The matrix (or scalar) of class `cls` bound to attributes (`row`, `col`); -1 is `_`. */
export interface Factor {
  cls: ClassId;
  row: number;
  col: number;
}

export interface Monomial {
  coef: number;
  /** Attributes summed over (bound). */
  sums: number[];
  factors: Factor[];
}

export type Polynomial = Monomial[];

export interface PolynomialLimits {
  /** Give up above this many monomials (the expansion is exponential in nesting). */
  maxMonomials: number;
  maxFactors: number;
  maxPower: number;
}

export const DEFAULT_POLYNOMIAL_LIMITS: PolynomialLimits = { maxMonomials: 32, maxFactors: 8, maxPower: 4 };

/** Thrown where a term has no polynomial within the limits (too large, an unknown size, an empty dimension). */
class NoPolynomial extends Error {}

/**
 * The polynomial of class `root` with free attributes (`row`, `col`) (those
 * of its bind), reading each class's node through `nodeOf`; undefined when
 * the expansion exceeds the limits or the root is not a known matrix/scalar.
 */
export function toPolynomial(
  egraph: EGraphView<OptimizerData>,
  attributes: AttributeTable,
  nodeOf: (cls: ClassId) => ENode | undefined,
  root: ClassId,
  row: number,
  col: number,
  limits: PolynomialLimits = DEFAULT_POLYNOMIAL_LIMITS,
): Polynomial | undefined {
  let fresh = 0;
  // An empty dimension has no relational form (see freshAttribute in rules-la-to-ra.ts): no polynomial then.
  const newAttribute = (dim: number) => {
    if (dim === 0) throw new NoPolynomial();
    return dim === 1 ? -1 : attributes.fresh(`polynomial|${root}|${fresh++}`, dim);
  };
  const la = (cls: ClassId): LaData | undefined => {
    const data = egraph.data(cls);
    return data.family === "la" && !data.invalid ? data : undefined;
  };
  const isScalar = (d: LaData) => d.stats.type.dataType === "scalar";
  /** The attributes an operand of an element-wise op binds to: broadcasting drops size-1 dims. */
  const operandAttributes = (d: LaData, i: number, j: number): [number, number] | undefined => {
    if (isScalar(d)) return [-1, -1];
    if (d.stats.type.dataType !== "matrix" || d.stats.rows === null || d.stats.cols === null) return undefined;
    return [d.stats.rows === 1 ? -1 : i, d.stats.cols === 1 ? -1 : j];
  };
  const check = (p: Polynomial): Polynomial => {
    if (p.length > limits.maxMonomials || p.some((m) => m.factors.length > limits.maxFactors)) throw new NoPolynomial();
    return p;
  };
  const opaque = (cls: ClassId, i: number, j: number): Polynomial => [{ coef: 1, sums: [], factors: [{ cls, row: i, col: j }] }];

  const translate = (cls: ClassId, i: number, j: number): Polynomial => {
    const data = la(cls);
    if (!data) throw new NoPolynomial();
    if (isScalar(data) && data.constant !== undefined && Number.isFinite(data.constant)) return [{ coef: data.constant, sums: [], factors: [] }];
    const node = nodeOf(egraph.find(cls));
    if (!node) return opaque(cls, i, j);
    const kids = node.children;
    const operand = (k: number): Polynomial => {
      const d = la(kids[k]!);
      const at = d && operandAttributes(d, i, j);
      if (!at) throw new NoPolynomial();
      return translate(kids[k]!, at[0], at[1]);
    };
    switch (node.op) {
      case "+":
        return check([...operand(0), ...operand(1)]);
      case "-":
        return check([...operand(0), ...scale(operand(1), -1)]);
      case "neg":
        return scale(operand(0), -1);
      case "*":
        return check(multiply(operand(0), operand(1)));
      case "/": {
        const divisor = la(kids[1]!);
        if (divisor && isScalar(divisor) && divisor.constant !== undefined && divisor.constant !== 0) return scale(operand(0), 1 / divisor.constant);
        return opaque(cls, i, j);
      }
      case "^": {
        const exponent = la(kids[1]!)?.constant;
        if (exponent === undefined || !Number.isInteger(exponent) || exponent < 1 || exponent > limits.maxPower) return opaque(cls, i, j);
        let product = operand(0);
        // Each copy gets its own bound attributes.
        for (let k = 1; k < exponent; k++) product = check(multiply(product, operand(0)));
        return product;
      }
      case "mm": {
        const a = la(kids[0]!);
        const b = la(kids[1]!);
        if (!a || !b || a.stats.cols === null || isScalar(a) || isScalar(b)) throw new NoPolynomial();
        const inner = newAttribute(a.stats.cols);
        const left = translate(kids[0]!, a.stats.rows === 1 ? -1 : i, inner);
        const right = translate(kids[1]!, inner, b.stats.cols === 1 ? -1 : j);
        return check(sumOver(multiply(left, right), inner));
      }
      case "t": {
        const a = la(kids[0]!);
        if (!a || isScalar(a)) throw new NoPolynomial();
        return translate(kids[0]!, a.stats.rows === 1 ? -1 : j, a.stats.cols === 1 ? -1 : i);
      }
      case "sum":
      case "rowSums":
      case "colSums": {
        const a = la(kids[0]!);
        if (!a || isScalar(a) || a.stats.rows === null || a.stats.cols === null) throw new NoPolynomial();
        const r = node.op === "rowSums" ? (a.stats.rows === 1 ? -1 : i) : newAttribute(a.stats.rows);
        const c = node.op === "colSums" ? (a.stats.cols === 1 ? -1 : j) : newAttribute(a.stats.cols);
        let p = translate(kids[0]!, r, c);
        if (node.op !== "rowSums") p = sumOver(p, r);
        if (node.op !== "colSums") p = sumOver(p, c);
        return p;
      }
      case "as.scalar":
      case "as.matrix":
        return translate(kids[0]!, -1, -1);
      default:
        return opaque(cls, i, j);
    }
  };

  try {
    return combineIsomorphic(translate(root, row, col), (a) => attributes.dim(a));
  } catch (error) {
    if (error instanceof NoPolynomial) return undefined;
    throw error;
  }
}

function scale(p: Polynomial, c: number): Polynomial {
  return p.map((m) => ({ ...m, coef: m.coef * c }));
}

function multiply(a: Polynomial, b: Polynomial): Polynomial {
  const out: Polynomial = [];
  for (const x of a) for (const y of b) out.push({ coef: x.coef * y.coef, sums: [...x.sums, ...y.sums], factors: [...x.factors, ...y.factors] });
  return out;
}

/** Σ over `attribute` (-1: nothing to sum). A monomial that does not use it keeps the sum: Σ_a of a term without a is dim(a) times the term. */
function sumOver(p: Polynomial, attribute: number): Polynomial {
  if (attribute < 0) return p;
  return p.map((m) => ({ ...m, sums: [...m.sums, attribute] }));
}

/** Combines monomials equal up to renaming their bound attributes; drops zero ones. */
export function combineIsomorphic(p: Polynomial, dim: (attribute: number) => number): Polynomial {
  const byKey = new Map<string, Monomial>();
  const out: Monomial[] = [];
  for (const m of p) {
    if (m.coef === 0) continue;
    const key = canonicalKey(m, dim);
    const known = key === undefined ? undefined : byKey.get(key);
    if (known) {
      known.coef += m.coef;
      continue;
    }
    const copy = { ...m };
    if (key !== undefined) byKey.set(key, copy);
    out.push(copy);
  }
  return out.filter((m) => m.coef !== 0);
}

/** The least factor list over all namings of the bound attributes, with the dims of the summed attributes no factor uses (undefined: too many to try). */
function canonicalKey(m: Monomial, dim: (attribute: number) => number): string | undefined {
  const bound = [...new Set(m.sums)];
  const used = new Set(m.factors.flatMap((f) => [f.row, f.col]));
  const unused = bound
    .filter((a) => !used.has(a))
    .map(dim)
    .sort((x, y) => x - y)
    .join(",");
  if (bound.length > 5) return undefined;
  let best: string | undefined;
  for (const order of permutations(bound)) {
    const name = (a: number) => {
      const k = order.indexOf(a);
      return k >= 0 ? `#${k}` : String(a);
    };
    const key = m.factors
      .map((f) => `${f.cls}:${name(f.row)}:${name(f.col)}`)
      .sort()
      .join(" ");
    if (best === undefined || key < best) best = key;
  }
  return `${best}|${unused}`;
}

function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [items.slice()];
  const out: number[][] = [];
  items.forEach((item, k) => {
    for (const rest of permutations([...items.slice(0, k), ...items.slice(k + 1)])) out.push([item, ...rest]);
  });
  return out;
}
