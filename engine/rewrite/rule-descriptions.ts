/**
 * A short phrase for every rule of the optimizer (and for the other reasons
 * the e-graph merges classes), as `dml prove` prints them after a step:
 * `sum(X + Y) = sum(X) + sum(Y)  [sum distributes over +]`. In the
 * relational (SPORES) rules, "index form" is the sum-product form of a
 * matrix over its row and column indices, Σ a sum over one index.
 */

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  // LA to relational (rules-la-to-ra.ts).
  "bind-transpose": "t(X) in index form swaps the indices",
  "bind-add": "X + Y in index form",
  "bind-multiply": "X * Y in index form",
  "bind-subtract": "X - Y is X + (-1) * Y",
  "bind-negate": "-X is (-1) * X",
  "bind-square": "X ^ 2 is X * X",
  "bind-as-scalar": "as.scalar of a 1 x 1 matrix is its cell",
  "bind-as-matrix": "as.matrix of a scalar is a 1 x 1 matrix",
  "bind-matmul": "X %*% Y is a sum over the inner index",
  "bind-sum": "sum(X) is a sum over rows and columns",
  "bind-row-sums": "rowSums(X) is a sum over columns",
  "bind-col-sums": "colSums(X) is a sum over rows",
  // Normal form of binds.
  "bind-scalar": "a scalar has no indices",
  "bind-single-row": "a single row needs no row index",
  "bind-single-column": "a single column needs no column index",
  "bind-1x1-as-scalar": "a 1 x 1 matrix is its cell",
  unbind: "back from index form",
  // Relational identities (rules-relational.ts).
  distribute: "* distributes over +",
  factor: "factor out a common factor",
  "factor-one": "factor out a term: a + a * c = a * (1 + c)",
  "sum-of-add": "sum distributes over +",
  "add-of-sums": "sum distributes over +",
  "factor-into-sum": "a factor without the summed index moves across the sum",
  "factor-out-of-sum": "a factor without the summed index moves across the sum",
  "sums-commute": "sums over two indices commute",
  "sum-without-attribute": "summing a constant over an index multiplies by its length",
  "add-commute": "+ commutes",
  "multiply-commute": "* commutes",
  "add-associate": "+ is associative",
  "add-associate-back": "+ is associative",
  "multiply-associate": "* is associative",
  "multiply-associate-back": "* is associative",
  "multiply-one": "x * 1 = x",
  "add-zero": "x + 0 = x",
  "add-same": "x + x = 2 * x",
  // Relational back to LA (rules-relational-to-la.ts).
  "lift-+": "cell-wise + of same-shape matrices",
  "lift-+-column": "+ with a column vector (broadcast over columns)",
  "lift-+-row": "+ with a row vector (broadcast over rows)",
  "lift-+-scalar": "+ with a scalar (broadcast)",
  "lift-*": "cell-wise * of same-shape matrices",
  "lift-*-column": "* with a column vector (broadcast over columns)",
  "lift-*-row": "* with a row vector (broadcast over rows)",
  "lift-*-scalar": "* with a scalar (broadcast)",
  "lift-row-sums": "a sum over columns is rowSums",
  "lift-col-sums": "a sum over rows is colSums",
  "lift-sum-column": "the sum over a column vector is sum",
  "lift-sum-row": "the sum over a row vector is sum",
  "lift-sum": "a sum over rows and columns is sum",
  "lift-sum-transposed": "a sum over columns and rows is sum",
  "lift-matmul": "a sum over an inner index is %*%",
  "lift-matmul-t-left": "a sum over a shared row index is t(X) %*% Y",
  "lift-matmul-t-right": "a sum over a shared column index is X %*% t(Y)",
  "lift-outer": "column vector times row vector is an outer product %*%",
  "lift-transpose": "swapped indices are a transpose",
  // Functions beyond sum-product (rules-functions.ts).
  square: "x * x = x ^ 2",
  "square-as-product": "x ^ 2 = x * x",
  "minus-one-times": "-1 * x = -x",
  "times-minus-one": "x * -1 = -x",
  "add-negated": "a + (-b) = a - b",
  "negated-add": "(-b) + a = a - b",
  "subtract-as-add": "a - b = a + (-b)",
  "sign-from-comparisons": "(x > 0) - (x < 0) = sign(x)",
  "divide-by-scalar": "x / s = x * (1 / s)",
  "times-reciprocal": "x * (1 / s) = x / s",
  "sqrt-of-square": "sqrt(x ^ 2) = abs(x)",
  "abs-idempotent": "abs(abs(x)) = abs(x)",
  "sign-idempotent": "sign(sign(x)) = sign(x)",
  "abs-of-negation": "abs(-x) = abs(x)",
  "transpose-of-function": "t(exp(X)) = exp(t(X))",
  // Reorganizations, trace and outer (rules-reorganize.ts).
  "aggregate-of-transpose": "a full aggregate of t(X) is that of X (same cells)",
  "aggregate-of-rev": "a full aggregate of rev(X) is that of X (same cells)",
  "aggregate-of-roll": "a full aggregate of roll(X, k) is that of X (same cells)",
  "aggregate-of-reshape": "a full aggregate of a reshape of X is that of X (same cells)",
  "rev-rev": "rev(rev(X)) = X",
  "reshape-to-own-shape": "a reshape of X to its own dims is X",
  "reshape-of-reshape": "two row-major reshapes are one",
  "rev-of-single-row": "rev of a single row is itself (rev reverses rows)",
  "roll-of-single-row": "roll of a single row is itself (roll shifts rows)",
  "roll-full-cycle": "roll by a multiple of the row count is the identity",
  "transpose-of-1x1": "t of a 1 x 1 matrix is itself",
  "diag-of-1x1": "diag of a 1 x 1 matrix is itself",
  "trace-of-1x1": "trace of a 1 x 1 matrix is its cell",
  "trace-as-sum-of-diag": "trace(X) = sum(diag(X))",
  "sum-of-diag-as-trace": "sum(diag(X)) = trace(X) for a square X",
  "trace-of-transpose": "trace(t(X)) = trace(X)",
  "diag-of-transpose": "diag(t(X)) = diag(X) for a square X",
  "outer-as-broadcast": "outer(v, r, op) is v op r broadcast over a matrix",
  "outer-product": 'outer(v, r, "*") is the outer product v %*% r',
  // Cell-wise operators outside + - * (rules-cellwise.ts).
  "cellwise-broadcast-column": "X op (v %*% matrix(1, 1, n)) = X op v for a column v",
  "cellwise-broadcast-row": "X op (matrix(1, m, 1) %*% r) = X op r for a row r",
  "cellwise-1x1-right": "a 1 x 1 operand broadcasts like its cell: X op as.scalar(y)",
  "cellwise-1x1-left": "a 1 x 1 operand broadcasts like its cell: as.scalar(y) op X",
  "cellwise-transpose": "t(X op Y) = t(X) op t(Y), t(s op X) = s op t(X)",
  // Non-sum aggregates (rules-aggregates.ts).
  "aggregate-of-single-column": "a row aggregate of one value per row is that value (var, sd: 0)",
  "aggregate-of-single-row": "a column aggregate of one value per column is that value (var, sd: 0)",
  "row-aggregate-of-row-vector": "a row aggregate of a row vector is the full aggregate as 1 x 1",
  "col-aggregate-of-column-vector": "a column aggregate of a column vector is the full aggregate as 1 x 1",
  "aggregate-of-1x1": "an aggregate of a 1 x 1 matrix is its cell (var, sd: 0)",
  "row-aggregate-of-transpose": "rowAgg(t(X)) = t(colAgg(X))",
  "col-aggregate-of-transpose": "colAgg(t(X)) = t(rowAgg(X))",
  "nested-min": "min of rowMins or colMins is min",
  "nested-max": "max of rowMaxs or colMaxs is max",
  "mean-as-sum": "a mean is the sum over the number of values",
  "sd-as-sqrt-var": "sd is the square root of var",
  "sumSq-as-sum": "sumSq(X) = sum(X ^ 2)",
  "extremum-of-negation": "max(-X) = -min(X) and min(-X) = -max(X)",
  "extremum-of-shift": "min and max move across adding a finite constant",
  "extremum-of-reflection": "min(s - X) = s - max(X) for a finite constant s",
  "extremum-of-scaling": "min and max move across scaling by a constant > 0",
  "extremum-of-negative-scaling": "scaling by a constant < 0 swaps min and max",
  "aggregate-of-constant": "an aggregate of a constant matrix is a constant",
  // Merges that are not rule applications.
  congruence: "equal operands give equal results",
  "constant folding": "constant folding",
  "chain order (variable elimination)": "reorder the matrix-multiply chain",
  "sum-product normal form": "sum-product normal form",
  "sum-product normal form, common factor": "factor out a common factor",
};

/** The description of a rule (or merge reason), or undefined when it has none. */
export function ruleDescription(rule: string): string | undefined {
  return Object.hasOwn(DESCRIPTIONS, rule) ? DESCRIPTIONS[rule] : undefined;
}

/** Every described name (for the test that each rule has a description). */
export function describedRules(): string[] {
  return Object.keys(DESCRIPTIONS);
}
