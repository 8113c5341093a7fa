/**
 * Index expressions as polynomials over named symbols, for the parfor
 * dependency analysis (parfor-dependencies.ts): `(i-1)*k+1` becomes
 * `k·i - k + 1`. Only `+`, `-`, `*`, unary minus, integer literals and
 * names are understood; anything else has no form. A polynomial is a map
 * from a monomial (its symbols sorted and joined by `*`, "" for the
 * constant) to its coefficient.
 *
 * SystemDS's ParForStatementBlock parses subscripts into linear functions
 * a0 + a1·i the same way; here the coefficients may themselves be
 * polynomials of loop-invariant names (a block size `k`), which the runtime
 * replaces by their values before deciding (substitute()).
 */
import type { Expression } from "../syntax";

export type Poly = ReadonlyMap<string, number>;

const CONSTANT = "";

export function constantPoly(value: number): Poly {
  return value === 0 ? new Map() : new Map([[CONSTANT, value]]);
}

export function symbolPoly(name: string): Poly {
  return new Map([[name, 1]]);
}

export function addPoly(a: Poly, b: Poly, sign = 1): Poly {
  const out = new Map(a);
  for (const [m, c] of b) {
    const v = (out.get(m) ?? 0) + sign * c;
    if (v === 0) out.delete(m);
    else out.set(m, v);
  }
  return out;
}

export function mulPoly(a: Poly, b: Poly): Poly {
  let out: Poly = new Map();
  for (const [ma, ca] of a) {
    for (const [mb, cb] of b) {
      const symbols = [...(ma ? ma.split("*") : []), ...(mb ? mb.split("*") : [])].sort();
      out = addPoly(out, new Map([[symbols.join("*"), ca * cb]]));
    }
  }
  return out;
}

/** The polynomial of `e`, or undefined when it is not a polynomial of integers and the names `symbolOf` accepts. */
export function polyOf(e: Expression, symbolOf: (name: string) => string | undefined): Poly | undefined {
  switch (e.kind) {
    case "number":
      return Number.isInteger(e.value) ? constantPoly(e.value) : undefined;
    case "identifier": {
      const s = symbolOf(e.name);
      return s === undefined ? undefined : symbolPoly(s);
    }
    case "unary": {
      const p = polyOf(e.operand, symbolOf);
      if (p === undefined || e.op === "!") return undefined;
      return e.op === "-" ? addPoly(new Map(), p, -1) : p;
    }
    case "binary": {
      if (e.op !== "+" && e.op !== "-" && e.op !== "*") return undefined;
      const l = polyOf(e.left, symbolOf);
      const r = polyOf(e.right, symbolOf);
      if (l === undefined || r === undefined) return undefined;
      if (e.op === "*") return mulPoly(l, r);
      return addPoly(l, r, e.op === "+" ? 1 : -1);
    }
    default:
      return undefined;
  }
}

/** `p` as coefficient·x + offset in the symbol x, or undefined when x appears squared or more. */
export function linearIn(p: Poly, x: string): { coefficient: Poly; offset: Poly } | undefined {
  const coefficient = new Map<string, number>();
  const offset = new Map<string, number>();
  for (const [m, c] of p) {
    const symbols = m ? m.split("*") : [];
    const uses = symbols.filter((s) => s === x).length;
    if (uses > 1) return undefined;
    if (uses === 0) offset.set(m, c);
    else coefficient.set(symbols.filter((s) => s !== x).join("*"), c);
  }
  return { coefficient, offset };
}

/** Whether `p` mentions the symbol `x`. */
export function mentions(p: Poly, x: string): boolean {
  for (const m of p.keys()) if (m.split("*").includes(x)) return true;
  return false;
}

/** The value of `p` with every symbol replaced by `valueOf(symbol)`; undefined when a symbol has no value. */
export function evaluatePoly(p: Poly, valueOf: (symbol: string) => number | undefined): number | undefined {
  let total = 0;
  for (const [m, c] of p) {
    let term = c;
    for (const s of m ? m.split("*") : []) {
      const v = valueOf(s);
      if (v === undefined) return undefined;
      term *= v;
    }
    total += term;
  }
  return total;
}

/** A readable form, for messages and tests: `k*i - k + 1`. */
export function polyText(p: Poly): string {
  const terms = [...p].sort(([a], [b]) => (a === CONSTANT ? 1 : b === CONSTANT ? -1 : a.localeCompare(b)));
  if (terms.length === 0) return "0";
  return terms
    .map(([m, c], index) => {
      const magnitude = Math.abs(c);
      const body = m === CONSTANT ? String(magnitude) : magnitude === 1 ? m : `${magnitude}*${m}`;
      if (index === 0) return c < 0 ? `-${body}` : body;
      return c < 0 ? ` - ${body}` : ` + ${body}`;
    })
    .join("");
}
