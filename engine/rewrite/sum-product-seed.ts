/**
 * Seeds saturation with the factorized canonical form of a statement: the
 * statement's sum-product polynomial (SPORES's normal form), each monomial
 * ordered by variable elimination (Galley), added as a relational term and
 * merged with the statement's bind. The rules then lift it back to LA, so
 * forms that sampled saturation would reach only after many AC steps (e.g.
 * sum(X^2) - 2 t(U) X V + sum(U^2) sum(V^2) from sum((X - U t(V))^2)) are
 * in the e-graph from the start; extraction still decides by cost.
 */
import type { ClassId, EGraphApi, ENode } from "../egraph";
import type { OptimizerData } from "./analysis";
import type { AttributeTable } from "./attributes";
import { factorizeMonomial, type FactorPlan } from "./factorize";
import { BIND, RA_ADD, RA_MUL, RA_SUM } from "./la-ops";
import { attributeNode, bindNode, boundLiteralNode } from "./ra-nodes";
import { attributeOf } from "./rule-spec";
import { toPolynomial, type Factor, type Monomial, type Polynomial } from "./polynomial";

/**
 * `bindClass` is the statement's relational class `(b row col root)`.
 * Returns whether a seed was added (false: not sum-product, or too large).
 */
export function seedSumProductForm(
  egraph: EGraphApi<OptimizerData>,
  attributes: AttributeTable,
  nodeOf: (cls: ClassId) => ENode | undefined,
  root: ClassId,
  bindClass: ClassId,
): boolean {
  const bind = egraph.classOf(bindClass).nodes.find((n) => n.op === BIND && egraph.find(n.children[2]!) === egraph.find(root));
  if (!bind) return false;
  const attribute = (cls: ClassId) => attributeOf(egraph.data(cls));
  const polynomial = toPolynomial(egraph, attributes, nodeOf, root, attribute(bind.children[0]!), attribute(bind.children[1]!));
  if (!polynomial) return false;
  // Nothing to gain from a single monomial without sums: the term is already a product of its factors.
  if (polynomial.length === 1 && polynomial[0]!.sums.length === 0) return false;
  const context = {
    dim: (a: number) => attributes.dim(a),
    density: (f: Factor) => {
      const data = egraph.data(f.cls);
      if (data.family !== "la" || data.stats.type.dataType !== "matrix") return 1;
      const { rows, cols, nnz } = data.stats;
      return rows !== null && cols !== null && nnz !== null && rows * cols > 0 ? Math.min(1, nnz / (rows * cols)) : 1;
    },
  };
  const add = (op: string, children: ClassId[]) => egraph.add({ op, children });
  const boundLiteral = (value: number) => boundLiteralNode(egraph, value);
  const build = (plan: FactorPlan): ClassId => {
    switch (plan.kind) {
      case "factor":
        return bindNode(egraph, plan.factor.row, plan.factor.col, plan.factor.cls);
      case "sum":
        return add(RA_SUM, [attributeNode(egraph, plan.attribute), build(plan.body)]);
      case "product":
        return plan.items.map(build).reduce((a, b) => add(RA_MUL, [a, b]));
    }
  };
  const monomialTerm = (m: Monomial): ClassId => {
    const { coef, plan } = factorizeMonomial(m, context);
    if (plan === undefined) return boundLiteral(coef);
    const body = build(plan);
    return coef === 1 ? body : add(RA_MUL, [boundLiteral(coef), body]);
  };
  const sumOf = (p: Polynomial): ClassId => (p.length === 0 ? boundLiteral(0) : p.map(monomialTerm).reduce((a, b) => add(RA_ADD, [a, b])));
  egraph.union(bindClass, sumOf(polynomial), "sum-product normal form");
  // The factors every monomial shares, pulled out: P*X - P*P*X = P*X*(1 - P).
  const factored = factorOutCommon(polynomial);
  if (factored) {
    // Narrow operands first: P * (1 - P) is a vector before it meets the matrix X.
    const width = (f: Factor) => (f.row >= 0 ? 1 : 0) + (f.col >= 0 ? 1 : 0);
    const restWidth = Math.max(0, ...factored.rest.flatMap((m) => m.factors.filter((f) => !m.sums.includes(f.row) && !m.sums.includes(f.col)).map(width)));
    const items = [...factored.common.map((f) => ({ width: width(f), id: build({ kind: "factor", factor: f }) })), { width: restWidth, id: sumOf(factored.rest) }];
    items.sort((a, b) => a.width - b.width);
    egraph.union(bindClass, items.map((i) => i.id).reduce((a, b) => add(RA_MUL, [a, b])), "sum-product normal form, common factor");
  }
  return true;
}

const sameFactor = (a: Factor, b: Factor) => a.cls === b.cls && a.row === b.row && a.col === b.col;

/** The factors (over free attributes) in every monomial of a sum of two or more, and the sum without them. */
export function factorOutCommon(p: Polynomial): { common: Factor[]; rest: Polynomial } | undefined {
  if (p.length < 2) return undefined;
  const free = (m: Monomial, f: Factor) => !m.sums.includes(f.row) && !m.sums.includes(f.col);
  let common = p[0]!.factors.filter((f) => free(p[0]!, f));
  for (const m of p.slice(1)) {
    const left = m.factors.filter((f) => free(m, f));
    const kept: Factor[] = [];
    for (const f of common) {
      const k = left.findIndex((g) => sameFactor(f, g));
      if (k >= 0) {
        kept.push(f);
        left.splice(k, 1);
      }
    }
    common = kept;
  }
  if (common.length === 0) return undefined;
  const rest = p.map((m) => {
    const factors = [...m.factors];
    for (const f of common) factors.splice(factors.findIndex((g) => sameFactor(f, g)), 1);
    return { ...m, factors };
  });
  return { common, rest };
}
