/**
 * R_RL: relational expressions back to linear algebra, so that every plan
 * the extractor can pick is DML. Each rule recognizes one LA operator in a
 * sum-product shape (schemas of at most two free attributes); broadcasting
 * follows DML (a matrix on the left, a vector or scalar on the right).
 */
import { rule, type Match, type RuleSpec } from "./rule-spec";

const some = (m: Match, v: string) => m.attribute(v) >= 0;
const distinct = (m: Match, ...vs: string[]) => {
  const ids = vs.map((v) => m.attribute(v)).filter((a) => a >= 0);
  return new Set(ids).size === ids.length;
};
const scalar = (m: Match, v: string) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "scalar";
/**
 * `x` is a matrix whose dims are exactly those of the attributes it is bound
 * to (`_` has dim 1): no broadcasting. Aggregates, products and transposes
 * are lifted only then (Σ_k over a vector broadcast along k is not rowSums).
 */
const fits = (m: Match, x: string, i: string, j: string) => {
  if (m.data(x).family !== "la") return false;
  const { stats } = m.la(x);
  const dim = (v: string) => (v === "_" ? 1 : m.attributes.dim(m.attribute(v)));
  return stats.type.dataType === "matrix" && stats.rows === dim(i) && stats.cols === dim(j);
};

function elementwise(op: string, raOp: string): RuleSpec[] {
  return [
    // Same attributes: same shape.
    rule(`lift-${op}`, `(${raOp} (b ?i ?j ?x) (b ?i ?j ?y))`, `(b ?i ?j (${op} ?x ?y))`, (m) => distinct(m, "i", "j")),
    // Matrix with a column vector, a row vector, a scalar.
    rule(`lift-${op}-column`, `(${raOp} (b ?i ?j ?x) (b ?i _ ?y))`, `(b ?i ?j (${op} ?x ?y))`, (m) => some(m, "j") && distinct(m, "i", "j")),
    rule(`lift-${op}-row`, `(${raOp} (b ?i ?j ?x) (b _ ?j ?y))`, `(b ?i ?j (${op} ?x ?y))`, (m) => some(m, "i") && distinct(m, "i", "j")),
    rule(`lift-${op}-scalar`, `(${raOp} (b ?i ?j ?x) (b _ _ ?s))`, `(b ?i ?j (${op} ?x ?s))`, (m) => (some(m, "i") || some(m, "j")) && scalar(m, "s") && distinct(m, "i", "j")),
  ];
}

export const RELATIONAL_TO_LA_RULES: readonly RuleSpec[] = [
  ...elementwise("+", "r+"),
  ...elementwise("*", "r*"),
  // Aggregations.
  rule("lift-row-sums", "(rsum ?k (b ?i ?k ?x))", "(b ?i _ (rowSums ?x))", (m) => some(m, "i") && some(m, "k") && distinct(m, "i", "k") && fits(m, "x", "i", "k")),
  rule("lift-col-sums", "(rsum ?k (b ?k ?j ?x))", "(b _ ?j (colSums ?x))", (m) => some(m, "j") && some(m, "k") && distinct(m, "j", "k") && fits(m, "x", "k", "j")),
  rule("lift-sum-column", "(rsum ?k (b ?k _ ?x))", "(b _ _ (sum ?x))", (m) => some(m, "k") && fits(m, "x", "k", "_")),
  rule("lift-sum-row", "(rsum ?k (b _ ?k ?x))", "(b _ _ (sum ?x))", (m) => some(m, "k") && fits(m, "x", "_", "k")),
  rule("lift-sum", "(rsum ?r (rsum ?c (b ?r ?c ?x)))", "(b _ _ (sum ?x))", (m) => some(m, "r") && some(m, "c") && distinct(m, "r", "c") && fits(m, "x", "r", "c")),
  rule("lift-sum-transposed", "(rsum ?c (rsum ?r (b ?r ?c ?x)))", "(b _ _ (sum ?x))", (m) => some(m, "r") && some(m, "c") && distinct(m, "r", "c") && fits(m, "x", "r", "c")),
  // Matrix multiply: Σ_k A(i,k) × B(k,j), with either operand transposed.
  rule("lift-matmul", "(rsum ?k (r* (b ?i ?k ?x) (b ?k ?j ?y)))", "(b ?i ?j (mm ?x ?y))", (m) => some(m, "k") && distinct(m, "i", "j", "k") && fits(m, "x", "i", "k") && fits(m, "y", "k", "j")),
  rule("lift-matmul-t-left", "(rsum ?k (r* (b ?k ?i ?x) (b ?k ?j ?y)))", "(b ?i ?j (mm (t ?x) ?y))", (m) => some(m, "k") && distinct(m, "i", "j", "k") && fits(m, "x", "k", "i") && fits(m, "y", "k", "j")),
  rule("lift-matmul-t-right", "(rsum ?k (r* (b ?i ?k ?x) (b ?j ?k ?y)))", "(b ?i ?j (mm ?x (t ?y)))", (m) => some(m, "k") && distinct(m, "i", "j", "k") && fits(m, "x", "i", "k") && fits(m, "y", "j", "k")),
  // Outer product of a column and a row vector.
  rule("lift-outer", "(r* (b ?i _ ?x) (b _ ?j ?y))", "(b ?i ?j (mm ?x ?y))", (m) => some(m, "i") && some(m, "j") && distinct(m, "i", "j") && fits(m, "x", "i", "_") && fits(m, "y", "_", "j")),
  // Transpose: the same relation with the attributes swapped.
  rule("lift-transpose", "(b ?i ?j ?x)", "(b ?j ?i (t ?x))", (m) => (some(m, "i") || some(m, "j")) && distinct(m, "i", "j") && fits(m, "x", "i", "j")),
];
