/**
 * Reorganizations (t, rev, roll, reshape, diag), trace and outer: SystemML's
 * algebraic simplifications outside the sum-product core.
 * - A full aggregate depends only on the multiset of cells, which a
 *   reorganization permutes: sum(rev(X)) = sum(X), max(t(X)) = max(X), ...
 * - Reorganizations that change nothing: rev(rev(X)), a reshape to X's own
 *   dims, rev or roll of a single row (rev and roll move whole rows), any
 *   reorganization of a 1 x 1 matrix.
 * - trace(X) = sum(diag(X)); the transpose keeps the diagonal.
 * - outer(v, r, op) is `v op r` broadcast to nrow(v) x ncol(r), written
 *   `(v %*% matrix(1, 1, ncol(r))) op r`: SystemDS rejects a column vector
 *   op a row vector for + - * / ^, while a matrix op a row vector is valid
 *   everywhere. outer(v, r, "*") is also the outer product v %*% r.
 * Constants (a zero matrix through rev, diag, roll, reshape; max, min, mean
 * or trace of a constant matrix) are folded by the analysis.
 * Every left side is valid only on the operand kinds that make the right
 * side valid (analysis.ts checks them); conditions read the operands' dims.
 */
import { fillOp, isElementwiseBinaryOp, literalOp, outerOp } from "./la-ops";
import { rule, type Match, type RuleSpec } from "./rule-spec";

/**
 * The full aggregates (a scalar of all cells) the rules relate: each one is
 * invariant under a permutation of the cells (so is sumSq; it gets no rules,
 * to keep the rule count, and the search's per-rule work, low).
 * sum(t(X)) = sum(X) follows from the relational form already.
 */
const FULL_AGGREGATES = ["sum", "agg:min:full", "agg:max:full", "agg:mean:full", "agg:prod:full", "agg:var:full", "agg:sd:full"];

/** Reorganizations that permute the cells (reshape is row-major, as SystemDS reads and writes). */
const PERMUTATIONS: readonly [string, string][] = [
  ["transpose", "(t ?x)"],
  ["rev", "(rev ?x)"],
  ["roll", "(roll ?x ?k)"],
  ["reshape", "(reshape ?x ?r ?c)"],
];

const rows = (m: Match, v: string) => (m.data(v).family === "la" ? m.la(v).stats.rows : null);
const cols = (m: Match, v: string) => (m.data(v).family === "la" ? m.la(v).stats.cols : null);
/** A scalar's known value: its folded constant, or the value the stats stage knows (an opaque `nrow(X)` leaf). */
const constant = (m: Match, v: string) => {
  if (m.data(v).family !== "la") return undefined;
  const { constant: folded, stats } = m.la(v);
  return folded ?? (stats.type.dataType === "scalar" && typeof stats.value === "number" ? stats.value : undefined);
};
const isMatrix = (m: Match, v: string) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "matrix";
const oneByOne = (m: Match) => isMatrix(m, "x") && rows(m, "x") === 1 && cols(m, "x") === 1;
const singleRow = (m: Match) => isMatrix(m, "x") && rows(m, "x") === 1;
const square = (m: Match) => isMatrix(m, "x") && rows(m, "x") !== null && rows(m, "x") === cols(m, "x");

const AGGREGATE_OF_PERMUTATION: RuleSpec[] = PERMUTATIONS.flatMap(([name, pattern]) =>
  FULL_AGGREGATES.filter((agg) => !(agg === "sum" && name === "transpose")).map((agg) => rule(`aggregate-of-${name}`, `(${agg} ${pattern})`, `(${agg} ?x)`)),
);

const IDENTITIES: RuleSpec[] = [
  rule("rev-rev", "(rev (rev ?x))", "?x"),
  rule(
    "reshape-to-own-shape",
    "(reshape ?x ?r ?c)",
    "?x",
    (m) => isMatrix(m, "x") && rows(m, "x") !== null && constant(m, "r") === rows(m, "x") && constant(m, "c") === cols(m, "x"),
    "nrow(?x) = ?r & ncol(?x) = ?c",
  ),
  rule("reshape-of-reshape", "(reshape (reshape ?x ?r1 ?c1) ?r ?c)", "(reshape ?x ?r ?c)"),
  rule("rev-of-single-row", "(rev ?x)", "?x", singleRow, "nrow(?x) = 1"),
  rule("roll-of-single-row", "(roll ?x ?k)", "?x", singleRow, "nrow(?x) = 1"),
  rule(
    "roll-full-cycle",
    "(roll ?x ?k)",
    "?x",
    (m) => {
      const k = constant(m, "k");
      const n = rows(m, "x");
      return isMatrix(m, "x") && k !== undefined && Number.isInteger(k) && n !== null && n > 0 && k % n === 0;
    },
    "?k %% nrow(?x) = 0",
  ),
  rule("transpose-of-1x1", "(t ?x)", "?x", oneByOne, "nrow(?x) = 1 & ncol(?x) = 1"),
  rule("diag-of-1x1", "(diag ?x)", "?x", oneByOne, "nrow(?x) = 1 & ncol(?x) = 1"),
  rule("trace-of-1x1", "(trace ?x)", "(as.scalar ?x)", oneByOne, "nrow(?x) = 1 & ncol(?x) = 1"),
];

/** `?x` and `?y` are square matrices of the same known size (no broadcast: trace(X + s) is not trace(X) + trace(s)). */
const sameSquare = (m: Match) =>
  isMatrix(m, "x") && isMatrix(m, "y") && rows(m, "x") !== null && rows(m, "x") === cols(m, "x") && rows(m, "y") === rows(m, "x") && cols(m, "y") === cols(m, "x");
const isScalar = (m: Match, v: string) => m.data(v).family === "la" && m.la(v).stats.type.dataType === "scalar";
const scaledSquare = (m: Match) => isScalar(m, "s") && square(m);

const TRACE: RuleSpec[] = [
  rule("trace-of-sum", "(trace (+ ?x ?y))", "(+ (trace ?x) (trace ?y))", sameSquare, "nrow(?x) = ncol(?x) & nrow(?y) = nrow(?x) & ncol(?y) = ncol(?x)"),
  rule("trace-of-difference", "(trace (- ?x ?y))", "(- (trace ?x) (trace ?y))", sameSquare, "nrow(?x) = ncol(?x) & nrow(?y) = nrow(?x) & ncol(?y) = ncol(?x)"),
  rule("trace-of-scaling", "(trace (* ?s ?x))", "(* ?s (trace ?x))", scaledSquare, "nrow(?x) = ncol(?x)"),
  rule("trace-of-scaling-right", "(trace (* ?x ?s))", "(* (trace ?x) ?s)", scaledSquare, "nrow(?x) = ncol(?x)"),
  rule("trace-as-sum-of-diag", "(trace ?x)", "(sum (diag ?x))"),
  rule("sum-of-diag-as-trace", "(sum (diag ?x))", "(trace ?x)", square, "nrow(?x) = ncol(?x)"),
  rule("trace-of-transpose", "(trace (t ?x))", "(trace ?x)"),
  rule("diag-of-transpose", "(diag (t ?x))", "(diag ?x)", square, "nrow(?x) = ncol(?x)"),
];

/** The cell-wise operators outer takes (those the optimizer models). */
const OUTER_OPERATORS = ["+", "-", "*", "/", "^", "min", "max", "<", "<=", ">", ">=", "==", "!=", "&", "|"].filter(isElementwiseBinaryOp);

/** outer(v, r, OP) as (v %*% matrix(1, 1, ncol(r))) OP r, when ncol(r) is known and the outer call is valid. */
function outerAsBroadcast(operator: string) {
  return (m: Match) => {
    const own = m.egraph.data(m.root);
    const width = cols(m, "r");
    if (own.family !== "la" || own.invalid || width === null) return undefined;
    const one = m.egraph.add({ op: literalOp(1), children: [] });
    const ones = m.egraph.add({ op: fillOp(1, width), children: [one] });
    const expanded = m.egraph.add({ op: "mm", children: [m.cls("v"), ones] });
    return m.egraph.add({ op: operator, children: [expanded, m.cls("r")] });
  };
}

const OUTER: RuleSpec[] = [
  ...OUTER_OPERATORS.map((op) => rule("outer-as-broadcast", `(${outerOp(op)} ?v ?r)`, outerAsBroadcast(op))),
  rule("outer-product", `(${outerOp("*")} ?v ?r)`, "(mm ?v ?r)"),
];

export const REORGANIZE_RULES: readonly RuleSpec[] = [...AGGREGATE_OF_PERMUTATION, ...IDENTITIES, ...TRACE, ...OUTER];
