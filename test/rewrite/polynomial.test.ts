/**
 * The sum-product normal form built from an LA term (SPORES's canonical
 * form), variable elimination per monomial, common factors, and the seed
 * that puts the factorized form into the e-graph.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTerm, runRewrites, type EGraph } from "../../engine/egraph";
import type { ClassId, ENode } from "../../engine/egraph/types";
import {
  bindRoot,
  combineIsomorphic,
  expressionEGraph,
  factorizeMonomial,
  factorOutCommon,
  seedSumProductForm,
  toPolynomial,
  type AttributeTable,
  type FactorPlan,
  type OptimizerData,
  type Polynomial,
  type TermShapes,
} from "../../engine/rewrite";
import { compileRules } from "../../engine/rewrite/compile-rules";
import { liftingRuleSpecs } from "../../engine/rewrite/rules";
import { expressionNodes } from "./expression-nodes";

interface Built {
  egraph: EGraph<OptimizerData>;
  attributes: AttributeTable;
  root: ClassId;
  bind: ClassId;
  nodeOf: (cls: ClassId) => ENode | undefined;
  name: (cls: ClassId) => string;
}

function build(expression: string, shapes: TermShapes): Built {
  const { egraph, attributes, root } = expressionEGraph(expression, shapes);
  const nodeOf = expressionNodes(egraph);
  const bind = bindRoot(egraph, attributes, root)!;
  egraph.rebuild();
  const name = (cls: ClassId) => nodeOf(cls)?.op.replace(/^var:/, "") ?? `c${cls}`;
  return { egraph, attributes, root, bind, nodeOf, name };
}

function polynomialOf(b: Built): Polynomial {
  const bindNode = b.egraph.classOf(b.bind).nodes[0]!;
  const attribute = (cls: ClassId) => {
    const d = b.egraph.data(cls);
    return d.family === "attribute" ? d.attribute : -1;
  };
  const p = toPolynomial(b.egraph, b.attributes, b.nodeOf, b.root, attribute(bindNode.children[0]!), attribute(bindNode.children[1]!));
  assert.ok(p, "not a sum-product expression");
  return p;
}

/** "coef * f1 f2 ..." with factors as NAME(row,col), bound attributes as #k, sorted for comparison. */
function show(b: Built, p: Polynomial): string[] {
  return p
    .map((m) => {
      const names = new Map(m.sums.map((a, k) => [a, `#${k}`]));
      const at = (a: number) => (a < 0 ? "_" : (names.get(a) ?? "f"));
      return `${m.coef} * ${m.factors.map((f) => `${b.name(f.cls)}(${at(f.row)},${at(f.col)})`).sort().join(" ")}`;
    })
    .sort();
}

const SPARSE_LOSS: TermShapes = { X: { rows: 100, cols: 50, nnz: 100 }, U: { rows: 100, cols: 1 }, V: { rows: 50, cols: 1 } };

test("sum((X - U %*% t(V))^2) has the three monomials of SPORES's Figure 6", () => {
  const b = build("sum((X - U %*% t(V))^2)", SPARSE_LOSS);
  const p = polynomialOf(b);
  assert.equal(p.length, 3);
  assert.deepEqual(
    p.map((m) => m.coef).sort((x, y) => x - y),
    [-2, 1, 1],
  );
  assert.ok(p.every((m) => new Set(m.sums).size === 2), "every monomial sums over both attributes");
  assert.deepEqual(show(b, p), ["-2 * U(#0,_) V(#1,_) X(#0,#1)", "1 * U(#0,_) U(#0,_) V(#1,_) V(#1,_)", "1 * X(#0,#1) X(#0,#1)"]);
});

test("isomorphic monomials combine: X * Y + Y * X is 2 X Y; X - X is empty", () => {
  const shapes: TermShapes = { X: { rows: 4, cols: 3 }, Y: { rows: 4, cols: 3 } };
  const b = build("X * Y + Y * X", shapes);
  const p = polynomialOf(b);
  assert.equal(p.length, 1);
  assert.equal(p[0]!.coef, 2);
  assert.deepEqual(polynomialOf(build("X - X", shapes)), []);
  assert.deepEqual(combineIsomorphic([], () => 1), []);
});

test("variable elimination keeps factors out of sums they do not use: Σ_ij U_i² V_j² = Σ_i U_i² · Σ_j V_j²", () => {
  const b = build("sum((U %*% t(V))^2)", SPARSE_LOSS);
  const [m] = polynomialOf(b);
  const f = factorizeMonomial(m!, { dim: (a) => b.attributes.dim(a), density: () => 1 });
  const print = (plan: FactorPlan): string =>
    plan.kind === "factor" ? b.name(plan.factor.cls) : plan.kind === "sum" ? `Σ[${print(plan.body)}]` : plan.items.map(print).join("·");
  assert.equal(f.coef, 1);
  assert.deepEqual(print(f.plan!).split("·Σ").length, 2, print(f.plan!));
  assert.match(print(f.plan!), /^Σ\[U·U\]·Σ\[V·V\]$|^Σ\[V·V\]·Σ\[U·U\]$/);
  // Work: 100 + 50 multiply-adds instead of 100 * 50.
  assert.equal(f.cost, 150);
});

test("a summed attribute no factor uses multiplies the coefficient by its dimension: sum(X + 1) has 12 * 1", () => {
  const b = build("sum(X + 1)", { X: { rows: 4, cols: 3 } });
  const p = polynomialOf(b);
  const constant = p.find((m) => m.factors.length === 0)!;
  assert.equal(factorizeMonomial(constant, { dim: (a) => b.attributes.dim(a), density: () => 1 }).coef, 12);
});

test("common factors come out of every monomial: P * X - P * rowSums(P) * X = P X (1 - P)", () => {
  const b = build("P * X - P * rowSums(P) * X", { P: { rows: 10, cols: 1 }, X: { rows: 10, cols: 5 } });
  const factored = factorOutCommon(polynomialOf(b))!;
  assert.deepEqual(factored.common.map((f) => b.name(f.cls)).sort(), ["P", "X"]);
  assert.deepEqual(show(b, factored.rest), ["-1 * P(f,_)", "1 * "]);
});

test("the seed lifts back to LA: sum((X - U %*% t(V))^2) meets t(U) %*% X %*% V and sum(X^2)", () => {
  const b = build("sum((X - U %*% t(V))^2)", SPARSE_LOSS);
  assert.equal(seedSumProductForm(b.egraph, b.attributes, b.nodeOf, b.root, b.bind), true);
  b.egraph.rebuild();
  const report = runRewrites(b.egraph, compileRules(liftingRuleSpecs(), b.attributes), { timeLimitMs: 5000, nodeLimit: 50_000 });
  assert.equal(report.stopReason, "saturated");
  for (const piece of ["(mm (mm (t var:U) var:X) var:V)", "(sum (* var:X var:X))", "(mm (t var:U) var:U)"]) {
    assert.notEqual(b.egraph.lookupTerm(parseTerm(piece)), undefined, `${piece} is not in the e-graph`);
  }
});

test("not sum-product at the top: exp(X) is one opaque factor; too many monomials give no polynomial", () => {
  const shapes: TermShapes = { X: { rows: 4, cols: 3 }, Y: { rows: 4, cols: 3 } };
  const p = polynomialOf(build("exp(X)", shapes));
  assert.equal(p.length, 1);
  assert.equal(p[0]!.factors.length, 1);
  const big = build("(X + Y)^4 * (X - Y)^4", shapes);
  const bindNode = big.egraph.classOf(big.bind).nodes[0]!;
  const attribute = (cls: ClassId) => {
    const d = big.egraph.data(cls);
    return d.family === "attribute" ? d.attribute : -1;
  };
  assert.equal(toPolynomial(big.egraph, big.attributes, big.nodeOf, big.root, attribute(bindNode.children[0]!), attribute(bindNode.children[1]!)), undefined);
});
