/**
 * R_EQ of SPORES (Figure 3): the relational identities that are complete for
 * sum-product expressions over K-relations. `r*` is join-multiply, `r+`
 * union-add, `rsum` aggregation of one attribute; conditions read the schema
 * (free attributes), a class invariant.
 */
import { RA_MUL } from "./la-ops";
import { boundLiteral, add } from "./rules-la-to-ra";
import { rule, type Match, type RuleSpec } from "./rule-spec";

/** Attribute `?i` is not free in `?a`. */
const notFreeIn = (i: string, a: string) => (m: Match) => {
  const data = m.data(a);
  return data.family === "ra" && !data.schema.includes(m.attribute(i));
};

/** What the `notFreeIn("i", "a")` rules rely on, for explanations. */
const NOT_FREE = "?a does not use index ?i";

export const RELATIONAL_RULES: readonly RuleSpec[] = [
  // 1. × distributes over +, and back (factoring).
  rule("distribute", "(r* ?a (r+ ?b ?c))", "(r+ (r* ?a ?b) (r* ?a ?c))"),
  rule("factor", "(r+ (r* ?a ?b) (r* ?a ?c))", "(r* ?a (r+ ?b ?c))"),
  rule("factor-one", "(r+ ?a (r* ?a ?c))", "(r* ?a (r+ (b _ _ lit:1) ?c))"),
  // 2. Σ distributes over +.
  rule("sum-of-add", "(rsum ?i (r+ ?a ?b))", "(r+ (rsum ?i ?a) (rsum ?i ?b))"),
  rule("add-of-sums", "(r+ (rsum ?i ?a) (rsum ?i ?b))", "(rsum ?i (r+ ?a ?b))"),
  // 3. A factor moves into or out of Σ_i when it does not use i.
  rule("factor-into-sum", "(r* ?a (rsum ?i ?b))", "(rsum ?i (r* ?a ?b))", notFreeIn("i", "a"), NOT_FREE),
  rule("factor-out-of-sum", "(rsum ?i (r* ?a ?b))", "(r* ?a (rsum ?i ?b))", notFreeIn("i", "a"), NOT_FREE),
  // 4. Nested Σ commute (Σ_i Σ_j = Σ_{i,j}).
  rule("sums-commute", "(rsum ?i (rsum ?j ?a))", "(rsum ?j (rsum ?i ?a))"),
  // 5. Σ_i of an expression without i is × dim(i).
  rule("sum-without-attribute", "(rsum ?i ?a)", (m) => add(m, RA_MUL, [m.cls("a"), boundLiteral(m, m.attributes.dim(m.attribute("i")))]), notFreeIn("i", "a"), NOT_FREE),
  // 6, 7. Commutativity and associativity of + and ×.
  rule("add-commute", "(r+ ?a ?b)", "(r+ ?b ?a)"),
  rule("multiply-commute", "(r* ?a ?b)", "(r* ?b ?a)"),
  rule("add-associate", "(r+ ?a (r+ ?b ?c))", "(r+ (r+ ?a ?b) ?c)"),
  rule("add-associate-back", "(r+ (r+ ?a ?b) ?c)", "(r+ ?a (r+ ?b ?c))"),
  rule("multiply-associate", "(r* ?a (r* ?b ?c))", "(r* (r* ?a ?b) ?c)"),
  rule("multiply-associate-back", "(r* (r* ?a ?b) ?c)", "(r* ?a (r* ?b ?c))"),
  // Units and like terms (constants fold through the class invariant).
  rule("multiply-one", "(r* ?a (b _ _ lit:1))", "?a"),
  rule("add-zero", "(r+ ?a (b _ _ lit:0))", "?a"),
  rule("add-same", "(r+ ?a ?a)", "(r* ?a (b _ _ lit:2))"),
];
