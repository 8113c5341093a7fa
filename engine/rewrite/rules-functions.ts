/**
 * Functions beyond sum-product (division, power, sign, abs, comparisons,
 * ...) are black boxes to the relational rules; these are their own
 * identities, plus the DML spellings of what the relational form writes as
 * a product with -1.
 */
import { rule, type Match, type RuleSpec } from "./rule-spec";

const scalar = (v: string) => (m: Match) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "scalar";

export const FUNCTION_RULES: readonly RuleSpec[] = [
  rule("square", "(* ?x ?x)", "(^ ?x lit:2)"),
  rule("square-as-product", "(^ ?x lit:2)", "(* ?x ?x)"),
  rule("minus-one-times", "(* lit:-1 ?x)", "(neg ?x)"),
  rule("times-minus-one", "(* ?x lit:-1)", "(neg ?x)"),
  rule("add-negated", "(+ ?a (neg ?b))", "(- ?a ?b)"),
  rule("negated-add", "(+ (neg ?b) ?a)", "(- ?a ?b)"),
  rule("subtract-as-add", "(- ?a ?b)", "(+ ?a (neg ?b))"),
  rule("sign-from-comparisons", "(- (> ?x lit:0) (< ?x lit:0))", "(sign ?x)"),
  rule("divide-by-scalar", "(/ ?x ?s)", "(* ?x (/ lit:1 ?s))", scalar("s"), "?s is a scalar"),
  rule("times-reciprocal", "(* ?x (/ lit:1 ?s))", "(/ ?x ?s)", scalar("s"), "?s is a scalar"),
  rule("sqrt-of-square", "(sqrt (^ ?x lit:2))", "(abs ?x)"),
  rule("abs-idempotent", "(abs (abs ?x))", "(abs ?x)"),
  rule("sign-idempotent", "(sign (sign ?x))", "(sign ?x)"),
  rule("abs-of-negation", "(abs (neg ?x))", "(abs ?x)"),
  rule("transpose-of-function", "(t (exp ?x))", "(exp (t ?x))"),
];
