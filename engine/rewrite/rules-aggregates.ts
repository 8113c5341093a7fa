/**
 * The non-sum aggregates (mean, min, max, prod, var, sd, sumSq over all
 * cells, rows or columns) are black boxes to the relational core (which
 * keeps sums and sum-products); these are their own identities, after
 * SystemML's RewriteAlgebraicSimplificationStatic/Dynamic:
 * - an aggregate over a dimension of size 1 (rowMins of a column is itself,
 *   its rowVars are 0), of a vector (rowMaxs of a row vector is its max as a
 *   1 x 1 matrix), of a 1 x 1 (prod is as.scalar);
 * - row and column aggregates swap under a transpose;
 * - nested min and max (min of rowMins is min);
 * - definitions in terms of sums (mean = sum / length, sd = sqrt(var),
 *   sumSq = sum of squares), which connect means to the relational core;
 * - min and max through monotone cell-wise functions (negation, adding a
 *   finite constant, scaling by a non-zero finite constant);
 * - aggregates of a constant matrix, where the result is exact.
 *
 * Semantics as SystemDS and the runtime (engine/runtime/kernels/aggregate*.ts):
 * NaN propagates through min and max; an empty slice gives the operation's
 * identity (Inf for min, -Inf for max, 1 for prod) and NaN for mean and
 * var; the variance of one value is 0 (SystemDS's CM_COV_Object returns 0
 * for a weight of 1, not the NaN of n - 1 = 0).
 */
import type { ClassId } from "../egraph";
import type { AggregateDirection } from "../program";
import { fillOp, literalOp } from "./la-ops";
import { rule, type Match, type RuleSpec } from "./rule-spec";
import { add } from "./rules-la-to-ra";

type NonSumFunction = "mean" | "min" | "max" | "prod" | "var" | "sd" | "sumSq";

/** The aggregates DML writes (sumSq has no builtin: only its definition through sum below). */
const NON_SUM_FUNCTIONS: readonly NonSumFunction[] = ["mean", "min", "max", "prod", "var", "sd"];

/** The e-graph op of an aggregate (sums have ops of their own). */
export function aggregateOp(fn: NonSumFunction | "sum", direction: AggregateDirection): string {
  if (fn === "sum") return direction === "full" ? "sum" : direction === "row" ? "rowSums" : "colSums";
  return `agg:${fn}:${direction}`;
}

const isMatrix = (m: Match, v: string) => m.data(v).family === "la" && !m.la(v).invalid && m.la(v).stats.type.dataType === "matrix";
const rows = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.rows : null);
const cols = (m: Match, v: string) => (isMatrix(m, v) ? m.la(v).stats.cols : null);
const finiteConstant = (m: Match, v: string) => {
  const data = m.data(v);
  return data.family === "la" && data.stats.type.dataType === "scalar" && data.constant !== undefined && Number.isFinite(data.constant) ? data.constant : undefined;
};

function literal(m: Match, value: number): ClassId {
  return add(m, literalOp(value));
}

/** `matrix(value, rows=r, cols=c)`. */
function filled(m: Match, value: number, r: number, c: number): ClassId {
  return add(m, fillOp(r, c), [literal(m, value)]);
}

/** The values one aggregate of `?X` folds over: a row's (cols), a column's (rows), all cells. */
function sliceLength(m: Match, x: string, direction: AggregateDirection): number | null {
  const r = rows(m, x);
  const c = cols(m, x);
  if (direction === "row") return c;
  if (direction === "col") return r;
  return r === null || c === null ? null : r * c;
}

/** The shape of the aggregate's result as a matrix (1 x 1 for full). */
function resultShape(m: Match, x: string, direction: AggregateDirection): { rows: number | null; cols: number | null } {
  if (direction === "row") return { rows: rows(m, x), cols: 1 };
  if (direction === "col") return { rows: 1, cols: cols(m, x) };
  return { rows: 1, cols: 1 };
}

/** The aggregate's value as the result's type: a literal for full, a filled matrix for row and column. */
function constantResult(m: Match, x: string, direction: AggregateDirection, value: number): ClassId | undefined {
  if (direction === "full") return literal(m, value);
  const shape = resultShape(m, x, direction);
  return shape.rows === null || shape.cols === null ? undefined : filled(m, value, shape.rows, shape.cols);
}

const DIRECTIONS: readonly AggregateDirection[] = ["full", "row", "col"];

// Class 3: an aggregate over a dimension of size 1 (each row of a column has one value).
function sizeOneDimension(fn: NonSumFunction): RuleSpec[] {
  const specs: RuleSpec[] = [];
  for (const [direction, dim, fact] of [["row", cols, "ncol(?X) = 1"], ["col", rows, "nrow(?X) = 1"]] as const) {
    const name = direction === "row" ? "aggregate-of-single-column" : "aggregate-of-single-row";
    const lhs = `(${aggregateOp(fn, direction)} ?X)`;
    const when = (m: Match) => dim(m, "X") === 1;
    if (fn === "var" || fn === "sd") specs.push(rule(name, lhs, (m) => constantResult(m, "X", direction, 0), when, fact));
    else specs.push(rule(name, lhs, "?X", when, fact));
  }
  return specs;
}

// Class 4: a row aggregate of a row vector (a column aggregate of a column vector) is the full one as a 1 x 1.
function vectorAggregates(fn: NonSumFunction): RuleSpec[] {
  return [
    rule("row-aggregate-of-row-vector", `(${aggregateOp(fn, "row")} ?X)`, `(as.matrix (${aggregateOp(fn, "full")} ?X))`, (m) => rows(m, "X") === 1, "nrow(?X) = 1"),
    rule("col-aggregate-of-column-vector", `(${aggregateOp(fn, "col")} ?X)`, `(as.matrix (${aggregateOp(fn, "full")} ?X))`, (m) => cols(m, "X") === 1, "ncol(?X) = 1"),
  ];
}

// Class 4: the full aggregate of a 1 x 1 matrix.
function oneByOne(fn: NonSumFunction): RuleSpec {
  const lhs = `(${aggregateOp(fn, "full")} ?X)`;
  const when = (m: Match) => rows(m, "X") === 1 && cols(m, "X") === 1;
  const fact = "nrow(?X) = 1 & ncol(?X) = 1";
  if (fn === "var" || fn === "sd") return rule("aggregate-of-1x1", lhs, "lit:0", when, fact);
  return rule("aggregate-of-1x1", lhs, "(as.scalar ?X)", when, fact);
}

// Class 5: a row aggregate of t(X) is the transposed column aggregate of X, and back.
function transposed(fn: NonSumFunction): RuleSpec[] {
  return [
    rule("row-aggregate-of-transpose", `(${aggregateOp(fn, "row")} (t ?X))`, `(t (${aggregateOp(fn, "col")} ?X))`),
    rule("col-aggregate-of-transpose", `(${aggregateOp(fn, "col")} (t ?X))`, `(t (${aggregateOp(fn, "row")} ?X))`),
  ];
}

// Class 6: min of rowMins (or colMins) is min; the same for max (never min of rowMaxs).
function nestedExtrema(fn: "min" | "max"): RuleSpec[] {
  return (["row", "col"] as const).map((direction) =>
    rule(`nested-${fn}`, `(${aggregateOp(fn, "full")} (${aggregateOp(fn, direction)} ?X))`, `(${aggregateOp(fn, "full")} ?X)`),
  );
}

/**
 * Definitions: the mean is the sum over the number of values; sd is the root
 * of var; sumSq sums squares. Only the full mean gets its definition: it
 * writes the slice length as a number, and for rowMeans / colMeans (common:
 * centering) the optimizer's cheaper forms would then bake sizes into the
 * suggested code, which the suggestion stage must drop.
 */
function definitions(): RuleSpec[] {
  const mean = rule("mean-as-sum", "(agg:mean:full ?X)", (m) => {
    const n = sliceLength(m, "X", "full");
    return n === null ? undefined : add(m, "/", [add(m, "sum", [m.cls("X")]), literal(m, n)]);
  });
  return [
    mean,
    ...DIRECTIONS.flatMap((direction) => [
      rule("sd-as-sqrt-var", `(${aggregateOp("sd", direction)} ?X)`, `(sqrt (${aggregateOp("var", direction)} ?X))`),
      rule("sumSq-as-sum", `(${aggregateOp("sumSq", direction)} ?X)`, `(${aggregateOp("sum", direction)} (^ ?X lit:2))`),
    ]),
  ];
}

const other = (fn: "min" | "max") => (fn === "min" ? "max" : "min");

// min and max through monotone cell-wise functions: f non-decreasing moves out unchanged, non-increasing swaps min and max.
function monotone(fn: "min" | "max", direction: AggregateDirection): RuleSpec[] {
  const agg = aggregateOp(fn, direction);
  const swapped = aggregateOp(other(fn), direction);
  const constant = (m: Match) => finiteConstant(m, "s") !== undefined && isMatrix(m, "X");
  const positive = (m: Match) => (finiteConstant(m, "s") ?? 0) > 0 && isMatrix(m, "X");
  const negative = (m: Match) => (finiteConstant(m, "s") ?? 0) < 0 && isMatrix(m, "X");
  // Only the forms the other rules normalize to: a scalar operand on the right (the relational form
  // commutes + and *), X - s as X + (-s), X / s as X * (1 / s); they compose from these.
  return [
    rule("extremum-of-negation", `(${agg} (neg ?X))`, `(neg (${swapped} ?X))`),
    rule("extremum-of-shift", `(${agg} (+ ?X ?s))`, `(+ (${agg} ?X) ?s)`, constant, "!is.infinite(?s)"),
    rule("extremum-of-reflection", `(${agg} (- ?s ?X))`, `(- ?s (${swapped} ?X))`, constant, "!is.infinite(?s)"),
    rule("extremum-of-scaling", `(${agg} (* ?X ?s))`, `(* (${agg} ?X) ?s)`, positive, "?s > 0 & !is.infinite(?s)"),
    rule("extremum-of-negative-scaling", `(${agg} (* ?X ?s))`, `(* (${swapped} ?X) ?s)`, negative, "?s < 0 & !is.infinite(?s)"),
  ];
}

/**
 * The exact aggregate of n > 0 copies of a finite constant c, or undefined
 * when rounding could make it differ: min and max are c; mean, var and sd
 * only when the Kahan sum of the copies is exact (c an integer, |n c| <= 2^53);
 * prod only for 0 and 1.
 */
export function constantAggregate(fn: NonSumFunction, c: number, n: number): number | undefined {
  if (n <= 0 || !Number.isFinite(c)) return undefined;
  const exactSum = Number.isInteger(c) && Math.abs(c * n) <= 2 ** 53;
  switch (fn) {
    case "min":
    case "max":
      return c;
    case "mean":
      return exactSum ? c : undefined;
    case "var":
    case "sd":
      return exactSum ? 0 : undefined;
    case "prod":
      return c === 0 || c === 1 ? c : undefined;
    case "sumSq":
      return undefined;
  }
}

function constantMatrix(fn: NonSumFunction, direction: AggregateDirection): RuleSpec {
  return rule(
    "aggregate-of-constant",
    `(${aggregateOp(fn, direction)} ?X)`,
    (m) => {
      const c = m.la("X").constant!;
      const n = sliceLength(m, "X", direction);
      const value = n === null ? undefined : constantAggregate(fn, c, n);
      return value === undefined ? undefined : constantResult(m, "X", direction, value);
    },
    (m) => isMatrix(m, "X") && m.la("X").constant !== undefined && rows(m, "X") !== null && cols(m, "X") !== null,
    "length(?X) > 0",
  );
}

export const AGGREGATE_RULES: readonly RuleSpec[] = [
  ...NON_SUM_FUNCTIONS.flatMap(sizeOneDimension),
  ...NON_SUM_FUNCTIONS.flatMap(vectorAggregates),
  ...NON_SUM_FUNCTIONS.map(oneByOne),
  ...NON_SUM_FUNCTIONS.flatMap(transposed),
  ...nestedExtrema("min"),
  ...nestedExtrema("max"),
  ...definitions(),
  ...(["min", "max"] as const).flatMap((fn) => DIRECTIONS.flatMap((direction) => monotone(fn, direction))),
  // Full min, max, mean and prod of a constant matrix are constants of the analysis (analysis.ts).
  ...NON_SUM_FUNCTIONS.flatMap((fn) => DIRECTIONS.filter((d) => d !== "full" || fn === "var" || fn === "sd").map((direction) => constantMatrix(fn, direction))),
];
