// The fusion templates (engine/fusion/templates): for each example of the
// issue, the template the planner picks, the nodes its operator covers, its
// main input, variant and sparse safety, and for a few the memo table
// entries the templates' open/fuse/merge/close conditions produce.
// Data are built in a first block (sizes from rand), the expression in the
// last one, so the DAG reads X, Y, ... as inputs named by their variables.
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { lastPlan, type PlannedBlock } from "./plan-text";
import { constructOperators } from "../../engine/fusion/construct";
import { selectFusionPlan } from "../../engine/fusion/select";
import { fusedOperatorSeconds } from "../../engine/fusion/select/operator-cost";
import { FUSION_TEMPLATES } from "../../engine/fusion/templates";
import type { FusedOperator, MemoEntry } from "../../engine/fusion";

const DATA = `X = rand(rows=2000, cols=1000, sparsity=0.05)
W = rand(rows=2000, cols=1000, sparsity=0.05)
Xd = rand(rows=2000, cols=1000)
Y = rand(rows=2000, cols=1000)
Z = rand(rows=2000, cols=1000)
y = rand(rows=2000, cols=1)
z = rand(rows=2000, cols=1)
r = rand(rows=1, cols=1000)
v = rand(rows=1000, cols=1)
w = rand(rows=2000, cols=1)
U = rand(rows=2000, cols=10)
V = rand(rows=1000, cols=10)
B = rand(rows=1000, cols=8)
Xs = rand(rows=200, cols=100, sparsity=0.05)
Us = rand(rows=200, cols=10)
Vs = rand(rows=100, cols=10)
if (nrow(X) > 0) { print("data") }
`;

interface Summary {
  template: string;
  roots: string[];
  covered: string[];
  main: string | null;
  sides: string[];
  variant: string;
  sparseSafe: boolean;
}

function plan(body: string): PlannedBlock {
  return lastPlan(DATA + body);
}

function summarize(b: PlannedBlock, op: FusedOperator): Summary {
  return {
    template: op.template,
    roots: op.roots.map(b.text),
    covered: op.covered.map(b.text),
    main: op.binding.mainInput === null ? null : b.text(op.binding.mainInput),
    sides: op.binding.sideInputs.map(b.text),
    variant: op.binding.variant,
    sparseSafe: op.binding.sparseSafe,
  };
}

/** The plan's single operator, failing when there is not exactly one. */
function only(b: PlannedBlock): Summary {
  assert.equal(b.plan.operators.length, 1, `one operator expected, got ${JSON.stringify(b.plan.operators.map((op) => summarize(b, op)))}`);
  return summarize(b, b.plan.operators[0]!);
}

function node(b: PlannedBlock, text: string): number {
  const id = b.dag.nodes.findIndex((n) => b.text(n.id) === text);
  assert.ok(id >= 0, `no node written ${text}`);
  return id;
}

function entries(b: PlannedBlock, text: string): MemoEntry[] {
  return [...b.memo.get(node(b, text))];
}

describe("Cell template", () => {
  test("sum(X * Y * Z) over same-size matrices is one Cell operator, sparse-safe with the sparse X as main input", () => {
    const b = plan("print(sum(X * Y * Z))");
    assert.deepEqual(only(b), {
      template: "cell",
      roots: ["sum(X * Y * Z)"],
      covered: ["X * Y", "X * Y * Z", "sum(X * Y * Z)"],
      main: "X",
      sides: ["Y", "Z"],
      variant: "full-agg",
      sparseSafe: true,
    });
    // Memo: the sum closes the Cell plan that fuses the product; Row entries
    // exist below it but are invalid (Cell covers the same cells).
    const sum = entries(b, "sum(X * Y * Z)");
    assert.deepEqual(sum, [{ template: "cell", inputs: [node(b, "X * Y * Z")], status: "closed-valid" }]);
    assert.ok(entries(b, "X * Y * Z").some((e) => e.template === "row" && e.status === "open-invalid"));
  });

  test("sum(X * y * z) with column vectors y, z is one Cell operator broadcasting them", () => {
    const s = only(plan("print(sum(X * y * z))"));
    assert.equal(s.template, "cell");
    assert.deepEqual(s.covered, ["X * y", "X * y * z", "sum(X * y * z)"]);
    assert.equal(s.main, "X");
    assert.deepEqual(s.sides, ["y", "z"]);
    assert.equal(s.sparseSafe, true);
  });

  test("a row vector and a column vector broadcast over X in one Cell operator", () => {
    const s = only(plan("print(sum(X * r * y))"));
    assert.deepEqual([s.template, s.main, s.variant, s.sparseSafe], ["cell", "X", "full-agg", true]);
    assert.deepEqual(s.sides, ["y", "r"]);
  });

  test("abs(X - Y) * 2 + 1 is one Cell operator without aggregation, not sparse-safe", () => {
    const s = only(plan("Q = abs(X - Y) * 2 + 1\nprint(toString(Q))"));
    assert.deepEqual(s, {
      template: "cell",
      roots: ["abs(X - Y) * 2 + 1"],
      covered: ["X - Y", "abs(X - Y)", "abs(X - Y) * 2", "abs(X - Y) * 2 + 1"],
      main: "X",
      sides: ["Y"],
      variant: "no-agg",
      sparseSafe: false,
    });
  });

  test("abs(X) * Y keeps the zeros of X: sparse-safe without aggregation", () => {
    const s = only(plan("Q = abs(X) * Y\nprint(toString(Q))"));
    assert.deepEqual([s.template, s.main, s.variant, s.sparseSafe], ["cell", "X", "no-agg", true]);
  });

  test("rowSums(X^2) is a Cell row aggregation, sparse-safe", () => {
    const b = plan("R = rowSums(X^2)\nprint(toString(R))");
    const s = only(b);
    assert.deepEqual([s.template, s.variant, s.main, s.sparseSafe], ["cell", "row-agg", "X", true]);
    assert.deepEqual(s.covered, ["X^2", "rowSums(X^2)"]);
    // The Row template could compute it too, but without an inner row aggregation its entry is invalid.
    assert.ok(!entries(b, "rowSums(X^2)").some((e) => e.template === "row" && e.status !== "open-invalid"));
  });

  test("sum((X - 2 * Y)^2) is one Cell operator, not sparse-safe (X - 2Y is not zero where X is)", () => {
    const s = only(plan("print(sum((X - 2 * Y)^2))"));
    assert.deepEqual([s.template, s.variant, s.sparseSafe], ["cell", "full-agg", false]);
    assert.deepEqual(s.covered, ["2 * Y", "(X - 2 * Y)", "(X - 2 * Y)^2", "sum((X - 2 * Y)^2)"]);
  });

  test("min and max aggregates close Cell operators; they are never sparse-safe (zeros take part)", () => {
    const full = only(plan("print(min(X * Y))"));
    assert.deepEqual([full.template, full.variant, full.sparseSafe], ["cell", "full-agg", false]);
    const cols = only(plan("C = colMaxs(abs(X - Y))\nprint(toString(C))"));
    assert.deepEqual([cols.template, cols.variant, cols.sparseSafe], ["cell", "col-agg", false]);
    const sums = only(plan("C = colSums(X * Y)\nprint(toString(C))"));
    assert.deepEqual([sums.template, sums.variant, sums.sparseSafe], ["cell", "col-agg", true]);
  });

  test("replace is cell-wise: sparse-safe only when zeros stay zero", () => {
    const zeroToOne = only(plan("print(sum(replace(target=X, pattern=0, replacement=1) * 2))"));
    assert.equal(zeroToOne.template, "cell");
    assert.deepEqual(zeroToOne.covered, ["replace(target=X, pattern=0, replacement=1)", "replace(target=X, pattern=0, replacement=1) * 2", "sum(replace(target=X, pattern=0, replacement=1) * 2)"]);
    assert.deepEqual([zeroToOne.main, zeroToOne.sparseSafe], ["X", false]);
    // Multiplied by Y, the cells where Y is zero do not count: Y drives, sparse-safe.
    const timesY = only(plan("print(sum(replace(target=X, pattern=0, replacement=1) * Y))"));
    assert.deepEqual([timesY.main, timesY.sparseSafe], ["Y", true]);
    const nanPattern = only(plan("print(sum(replace(target=X, pattern=NaN, replacement=1) * 2))"));
    assert.deepEqual([nanPattern.main, nanPattern.sparseSafe], ["X", true]);
    const nonZeroPattern = only(plan("print(sum(replace(target=X * Y, pattern=1, replacement=5)))"));
    assert.deepEqual([nonZeroPattern.template, nonZeroPattern.main, nonZeroPattern.sparseSafe], ["cell", "X", true]);
  });

  test("ifelse is cell-wise: ifelse(X > 0, 2 * X, Y) is not sparse-safe, ifelse(X != 0, Y, 0) is", () => {
    const b = plan("print(sum(ifelse(X > 0, 2 * X, Y)))");
    const s = only(b);
    assert.deepEqual(s.covered, ["X > 0", "2 * X", "ifelse(X > 0, 2 * X, Y)", "sum(ifelse(X > 0, 2 * X, Y))"]);
    assert.deepEqual([s.template, s.sparseSafe], ["cell", false]);
    const safe = only(plan("print(sum(ifelse(X != 0, Y, 0)))"));
    assert.deepEqual([safe.template, safe.main, safe.sparseSafe], ["cell", "X", true]);
  });

  test("comparisons fuse: (X > 0.5) + (X < 0.25) is not sparse-safe, (X != 0) * Y is", () => {
    const cmp = only(plan("print(sum((X > 0.5) + (X < 0.25)))"));
    assert.deepEqual([cmp.template, cmp.covered.length, cmp.sparseSafe], ["cell", 4, false]);
    const mask = only(plan("print(sum((X != 0) * Y))"));
    assert.deepEqual([mask.template, mask.main, mask.sparseSafe], ["cell", "X", true]);
  });

  test("%% and %/% fuse and keep zeros: X %% 3 + X %/% 2 is sparse-safe", () => {
    const s = only(plan("print(sum(X %% 3 + X %/% 2))"));
    assert.deepEqual(s.covered, ["X %% 3", "X %/% 2", "X %% 3 + X %/% 2", "sum(X %% 3 + X %/% 2)"]);
    assert.deepEqual([s.template, s.sparseSafe], ["cell", true]);
  });

  test("a dot product t(y) %*% (y * z) is a Cell full aggregation reading y directly (the transpose is absorbed)", () => {
    const b = plan("s = t(y) %*% (y * z)\nprint(toString(s))");
    const s = only(b);
    assert.deepEqual([s.template, s.variant], ["cell", "full-agg"]);
    assert.deepEqual(s.covered, ["t(y)", "(y * z)", "t(y) %*% (y * z)"]);
    assert.deepEqual(b.plan.operators[0]!.inputs.map(b.text).sort(), ["y", "z"]);
    assert.deepEqual(entries(b, "t(y)"), [{ template: "cell", inputs: [-1], status: "open-invalid" }]);
  });

  test("min and max of several arguments are cell-wise", () => {
    const s = only(plan("print(sum(min(X, Y, Z, 3)))"));
    assert.deepEqual([s.template, s.variant, s.sparseSafe], ["cell", "full-agg", false]);
    assert.deepEqual(s.covered, ["min(X, Y, Z, 3)", "sum(min(X, Y, Z, 3))"]);
    const masked = only(plan("print(sum(X * max(Y, Z, 0)))"));
    assert.deepEqual([masked.template, masked.main, masked.sparseSafe], ["cell", "X", true]);
  });

  test("a scalar-only expression is not fused", () => {
    assert.equal(plan("a = sum(X) * 2 + 1\nprint(a)").plan.operators.length, 0);
    assert.equal(plan("b = 3\na = (b + 1) * 2\nprint(a)").plan.operators.length, 0);
  });
});

describe("Row template", () => {
  test("t(X) %*% (w * (X %*% v)) is one Row operator over X's rows (column aggregation, transposed)", () => {
    const b = plan("R = t(X) %*% (w * (X %*% v))\nprint(toString(R))");
    assert.deepEqual(only(b), {
      template: "row",
      roots: ["t(X) %*% (w * (X %*% v))"],
      covered: ["t(X)", "(X %*% v)", "(w * (X %*% v))", "t(X) %*% (w * (X %*% v))"],
      main: "X",
      sides: ["w", "v"],
      variant: "col-agg-t",
      sparseSafe: true,
    });
    assert.deepEqual(b.plan.operators[0]!.inputs.map(b.text).sort(), ["X", "v", "w"]);
    // Memo: t(X) only as an open-invalid Row entry (merged by the product), X %*% v opens Row,
    // and the product closes with every combination of its inputs.
    assert.deepEqual(entries(b, "t(X)"), [{ template: "row", inputs: [-1], status: "open-invalid" }]);
    assert.deepEqual(entries(b, "(X %*% v)"), [{ template: "row", inputs: [-1, -1], status: "open-valid" }]);
    const root = entries(b, "t(X) %*% (w * (X %*% v))");
    assert.equal(root.length, 4);
    assert.ok(root.every((e) => e.template === "row" && e.status === "closed-valid"));
    assert.ok(root.some((e) => e.inputs.every((i) => i >= 0)));
  });

  test("t(X) %*% (X %*% v - y) is one Row operator", () => {
    const s = only(plan("R = t(X) %*% (X %*% v - y)\nprint(toString(R))"));
    assert.deepEqual([s.template, s.variant, s.main], ["row", "col-agg-t", "X"]);
    assert.deepEqual(s.covered, ["t(X)", "X %*% v", "(X %*% v - y)", "t(X) %*% (X %*% v - y)"]);
  });

  test("t(X) %*% (X %*% (lambda * v)) is one Row operator reading the small lambda * v", () => {
    const s = only(plan("lambda = 0.5\nR = t(X) %*% (X %*% (lambda * v))\nprint(toString(R))"));
    assert.deepEqual([s.template, s.variant, s.main], ["row", "col-agg-t", "X"]);
    assert.deepEqual(s.covered, ["t(X)", "(X %*% (lambda * v))", "t(X) %*% (X %*% (lambda * v))"]);
    assert.deepEqual(s.sides, ["(lambda * v)"]);
  });

  test("softmax rows exp(X - rowMaxs(X)) / rowSums(...) are one Row operator, not sparse-safe", () => {
    const s = only(plan("P = exp(Xd - rowMaxs(Xd)) / rowSums(exp(Xd - rowMaxs(Xd)))\nprint(toString(P))"));
    assert.deepEqual(s, {
      template: "row",
      roots: ["exp(Xd - rowMaxs(Xd)) / rowSums(exp(Xd - rowMaxs(Xd)))"],
      covered: ["rowMaxs(Xd)", "Xd - rowMaxs(Xd)", "exp(Xd - rowMaxs(Xd))", "rowSums(exp(Xd - rowMaxs(Xd)))", "exp(Xd - rowMaxs(Xd)) / rowSums(exp(Xd - rowMaxs(Xd)))"],
      main: "Xd",
      sides: [],
      variant: "no-agg",
      sparseSafe: false,
    });
  });

  test("rowIndexMax of a cell-wise expression or a skinny product is a Row row aggregation", () => {
    const cells = only(plan("R = rowIndexMax(X * Y)\nprint(toString(R))"));
    assert.deepEqual([cells.template, cells.variant, cells.covered.length, cells.sparseSafe], ["row", "row-agg", 2, false]);
    const product = only(plan("R = rowIndexMax(X %*% B)\nprint(toString(R))"));
    assert.deepEqual([product.template, product.variant, product.main], ["row", "row-agg", "X"]);
    assert.deepEqual(product.sides, ["B"]);
  });

  test("cbind of a row result and a zero column is one Row operator", () => {
    const s = only(plan("R = cbind(X %*% v, matrix(0, nrow(X), 1))\nprint(toString(R))"));
    assert.deepEqual([s.template, s.variant, s.main, s.sparseSafe], ["row", "no-agg-const", "X", true]);
    assert.deepEqual(s.covered, ["X %*% v", "cbind(X %*% v, matrix(0, nrow(X), 1))"]);
  });

  test("Row sparse safety is per row: an empty row of X must give a zero row", () => {
    const plusOne = only(plan("R = X %*% v + 1\nprint(toString(R))"));
    assert.deepEqual([plusOne.template, plusOne.variant, plusOne.sparseSafe], ["row", "row-agg", false]);
    // An empty row's maximum is 0, times y is 0.
    const maxTimes = only(plan("R = rowMaxs(X) * y\nprint(toString(R))"));
    assert.deepEqual([maxTimes.template, maxTimes.sparseSafe], ["row", true]);
    // Column sums of X %*% B - 1: an empty row of X still adds -1 to every column.
    const colSums = only(plan("R = colSums(X %*% B - 1)\nprint(toString(R))"));
    assert.deepEqual([colSums.template, colSums.sparseSafe], ["row", false]);
  });

  test("column aggregations of row results: colSums(X %*% B), t(X) %*% (X %*% B), colMeans(X * Y), rowMeans(X * Y)", () => {
    const colSums = only(plan("R = colSums(X %*% B)\nprint(toString(R))"));
    assert.deepEqual([colSums.template, colSums.variant], ["row", "col-agg-b1r"]);
    const gram = only(plan("R = t(X) %*% (X %*% B)\nprint(toString(R))"));
    assert.deepEqual([gram.template, gram.variant, gram.covered.length], ["row", "col-agg-b1-t", 3]);
    const colMeans = only(plan("R = colMeans(X * Y)\nprint(toString(R))"));
    assert.deepEqual([colMeans.template, colMeans.variant, colMeans.sparseSafe], ["row", "col-agg", true]);
    const rowMeans = only(plan("R = rowMeans(X * Y)\nprint(toString(R))"));
    assert.deepEqual([rowMeans.template, rowMeans.variant], ["row", "row-agg"]);
  });
});

describe("Outer template", () => {
  test("the weighted loss sum(W * (X - U %*% t(V))^2) with sparse W and X is one Outer operator driven by W", () => {
    const b = plan("print(sum(W * (X - U %*% t(V))^2))");
    assert.deepEqual(only(b), {
      template: "outer",
      roots: ["sum(W * (X - U %*% t(V))^2)"],
      covered: ["t(V)", "U %*% t(V)", "(X - U %*% t(V))", "(X - U %*% t(V))^2", "W * (X - U %*% t(V))^2", "sum(W * (X - U %*% t(V))^2)"],
      main: "W",
      sides: ["U", "V", "X"],
      variant: "agg",
      sparseSafe: true,
    });
    // Memo: the product and everything before W multiplies are open-invalid (no driver yet).
    assert.deepEqual(
      entries(b, "U %*% t(V)").filter((e) => e.template === "outer"),
      [
        { template: "outer", inputs: [-1, -1], status: "open-invalid" },
        { template: "outer", inputs: [-1, node(b, "t(V)")], status: "open-invalid" },
      ],
    );
    assert.ok(entries(b, "(X - U %*% t(V))^2").every((e) => e.template !== "outer" || e.status === "open-invalid"));
    assert.ok(entries(b, "W * (X - U %*% t(V))^2").some((e) => e.template === "outer" && e.status === "open-valid"));
    assert.ok(entries(b, "sum(W * (X - U %*% t(V))^2)").some((e) => e.template === "outer" && e.status === "closed-valid"));
  });

  test("(X != 0) * (U %*% t(V)) is a cell-wise Outer operator driven by X", () => {
    const s = only(plan("R = (X != 0) * (U %*% t(V))\nprint(toString(R))"));
    assert.deepEqual([s.template, s.variant, s.main, s.sparseSafe], ["outer", "cellwise", "X", true]);
    assert.deepEqual(s.sides, ["U", "V"]);
    assert.deepEqual(s.covered, ["(X != 0)", "t(V)", "(U %*% t(V))", "(X != 0) * (U %*% t(V))"]);
  });

  test("its product with V (right) is one Outer operator", () => {
    const right = only(plan("R = ((X != 0) * (U %*% t(V))) %*% V\nprint(toString(R))"));
    assert.deepEqual([right.template, right.variant, right.main], ["outer", "right", "X"]);
    assert.deepEqual(right.covered, ["(X != 0)", "t(V)", "(U %*% t(V))", "((X != 0) * (U %*% t(V)))", "((X != 0) * (U %*% t(V))) %*% V"]);
  });

  test("its product with U (left, in both spellings) is one Outer operator", () => {
    for (const [text, root] of [
      ["R = t((X != 0) * (U %*% t(V))) %*% U", "t((X != 0) * (U %*% t(V))) %*% U"],
      ["R = t(t(U) %*% ((X != 0) * (U %*% t(V))))", "t(t(U) %*% ((X != 0) * (U %*% t(V))))"],
    ] as const) {
      const b = plan(`${text}\nprint(toString(R))`);
      const s = only(b);
      assert.deepEqual([s.template, s.variant, s.main, s.roots], ["outer", "left", "X", [root]], text);
      assert.deepEqual(s.sides, ["U", "V"], text);
      assert.ok(entries(b, root).some((e) => e.template === "outer" && e.status === "closed-valid"), text);
    }
    // The transposed factor of t(U) %*% Z is read as U: an open-invalid Outer entry the product merges.
    const b = plan("R = t(t(U) %*% ((X != 0) * (U %*% t(V))))\nprint(toString(R))");
    assert.deepEqual(
      entries(b, "t(U)").filter((e) => e.template === "outer"),
      [{ template: "outer", inputs: [-1], status: "open-invalid" }],
    );
  });

  test("sum(X * log(U %*% t(V) + eps)) (wcemm) and X * sigmoid(U %*% t(V)) (wsigmoid) are Outer operators", () => {
    const wcemm = only(plan("eps = 1e-15\nprint(sum(X * log(U %*% t(V) + eps)))"));
    assert.deepEqual([wcemm.template, wcemm.variant, wcemm.main, wcemm.covered.length], ["outer", "agg", "X", 6]);
    const wsigmoid = only(plan("R = X * sigmoid(U %*% t(V))\nprint(toString(R))"));
    assert.deepEqual([wsigmoid.template, wsigmoid.variant, wsigmoid.main], ["outer", "cellwise", "X"]);
  });

  test("without a driver (sum((X - U %*% t(V))^2)) or below 257 x 257 there is no Outer operator", () => {
    const noDriver = plan("print(sum((X - U %*% t(V))^2))");
    assert.ok(noDriver.plan.operators.every((op) => op.template !== "outer"));
    assert.ok(entries(noDriver, "sum((X - U %*% t(V))^2)").every((e) => e.template !== "outer"));
    const s = only(noDriver);
    assert.deepEqual([s.template, s.variant], ["cell", "full-agg"]);
    assert.ok(s.sides.includes("U %*% t(V)"));
    const small = plan("print(sum(Xs * (Xs - Us %*% t(Vs))^2))");
    assert.ok(small.plan.operators.every((op) => op.template !== "outer"));
  });

  test("the weighted loss with a dense X is an Outer operator too (as SystemDS plans it): its dot products run at the dense rate", () => {
    const b = plan("print(sum(Xd * (Y - U %*% t(V))^2))");
    const s = b.plan.operators.map((op) => summarize(b, op)).find((o) => o.roots.includes("sum(Xd * (Y - U %*% t(V))^2)"));
    assert.ok(s, JSON.stringify(b.plan.operators.map((op) => summarize(b, op))));
    assert.deepEqual([s.template, s.variant, s.main], ["outer", "agg", "Xd"]);
    assert.ok(!s.sides.includes("U %*% t(V)"), "the product is never materialized");
  });
});

describe("Row operators without row-level work", () => {
  test("a cell-wise function of a materialized matrix-vector product is a Cell operator (glm's mu = 1 / (1 + exp(-eta)))", () => {
    // eta is read again later, so the product is materialized and nothing row-wise is left to fuse.
    const b = plan("eta = Xd %*% v\nmu = 1 / (1 + exp(-eta))\nprint(sum(mu) + as.scalar(eta[1, 1]))");
    const ops = b.plan.operators.map((op) => summarize(b, op));
    const mu = ops.find((o) => o.roots.includes("1 / (1 + exp(-eta))") || o.covered.includes("1 / (1 + exp(-eta))"));
    assert.ok(mu, JSON.stringify(ops));
    assert.equal(mu.template, "cell");
    assert.equal(mu.main, "Xd %*% v");
  });

  test("with the product fused, the Row operator stays", () => {
    const s = only(plan("print(sum(1 / (1 + exp(-(Xd %*% v)))))"));
    assert.equal(s.template, "row");
    assert.ok(s.covered.includes("(Xd %*% v)"), s.covered.join(", "));
  });
});

describe("MAgg template", () => {
  test("sum(Xd * Y), sum(Xd^2) and sum(Y^2) are one multi-aggregate reading Xd and Y once", () => {
    const b = plan("a = sum(Xd * Y)\nc = sum(Xd^2)\nd = sum(Y^2)\nprint(a + c + d)");
    assert.deepEqual(only(b), {
      template: "magg",
      roots: ["sum(Xd * Y)", "sum(Xd^2)", "sum(Y^2)"],
      covered: ["Xd * Y", "sum(Xd * Y)", "Xd^2", "sum(Xd^2)", "Y^2", "sum(Y^2)"],
      main: "Xd",
      sides: ["Y"],
      variant: "full-agg",
      // sum(Y^2) does not read Xd: the pass must visit every cell.
      sparseSafe: false,
    });
    const op = b.plan.operators[0]!;
    assert.deepEqual(op.inputs.map(b.text).sort(), ["2", "Xd", "Y"]);
    assert.deepEqual(op.binding.scalarInputs.map(b.text), ["2"]);
    assert.equal(op.seconds, fusedOperatorSeconds(b.dag, op));
    const apart = constructOperators(b.dag, selectFusionPlan(b.dag, b.memo, FUSION_TEMPLATES).selected, FUSION_TEMPLATES).filter((o) => o.covered.length > 1);
    assert.equal(apart.length, 3);
    // Compute-bound here: one pass costs what the three cost apart (never more), with one read of Xd and Y.
    assert.ok(op.seconds <= apart.reduce((sum, o) => sum + o.seconds, 0) * (1 + 1e-9));
  });

  test("with a sparse X the sums over X stay one sparse-safe pass and sum(Y^2) runs apart, which costs less than one dense pass", () => {
    const b = plan("a = sum(X * Y)\nc = sum(X^2)\nd = sum(Y^2)\nprint(a + c + d)");
    const ops = b.plan.operators.map((op) => summarize(b, op));
    assert.deepEqual(
      ops.map((o) => [o.template, o.roots, o.main, o.sparseSafe]),
      [
        ["magg", ["sum(X * Y)", "sum(X^2)"], "X", true],
        ["cell", ["sum(Y^2)"], "Y", true],
      ],
    );
    const [pair, single] = b.plan.operators as [FusedOperator, FusedOperator];
    const all = { template: "magg" as const, roots: [...pair.roots, ...single.roots], covered: [...pair.covered, ...single.covered], inputs: [...new Set([...pair.inputs, ...single.inputs])], binding: { ...pair.binding, sparseSafe: false } };
    assert.ok(pair.seconds + single.seconds < fusedOperatorSeconds(b.dag, all));
  });

  test("min and max of the same expression are one multi-aggregate computing it once", () => {
    const s = only(plan("print(min(Xd * Y) + max(Xd * Y))"));
    assert.deepEqual([s.template, s.sparseSafe], ["magg", false]);
    assert.deepEqual(s.roots, ["min(Xd * Y)", "max(Xd * Y)"]);
    assert.deepEqual(s.covered, ["Xd * Y", "min(Xd * Y)", "max(Xd * Y)"]);
  });

  test("sums over the same sparse X stay sparse-safe together; a bare sum(X) joins", () => {
    const s = only(plan("print(sum(X) + sum(X^2))"));
    assert.deepEqual([s.template, s.main, s.sparseSafe], ["magg", "X", true]);
    assert.deepEqual(s.roots, ["sum(X)", "sum(X^2)"]);
  });

  test("sums whose inputs overlap only transitively are grouped (V * X, Y * Z, X * Y * Z)", () => {
    const b = lastPlan("V = rand(rows=500, cols=300)\nX = rand(rows=500, cols=300)\nY = rand(rows=500, cols=300)\nZ = rand(rows=500, cols=300)\nif (nrow(X) > 0) { print(1) }\nprint(sum(V * X) + sum(Y * Z) + sum(X * Y * Z))");
    const s = only(b);
    assert.deepEqual([s.template, s.roots.length, s.covered.length], ["magg", 3, 7]);
  });

  test("a value only the multi-aggregate reads is computed inside it, not materialized (l2svm's line search)", () => {
    // o feeds both sums (through o * s and s): selection, costing each sum's Cell operator alone, materializes it; grouped, one pass computes it once per cell.
    const b = plan("o = 1 - Y * Xd\ns = (o > 0)\nq = o * s\nprint(sum(q * Y * Z) + sum(Z * s * Z))");
    const s = only(b);
    assert.deepEqual([s.template, s.roots], ["magg", ["sum(q * Y * Z)", "sum(Z * s * Z)"]]);
    assert.ok(s.covered.includes("1 - Y * Xd") && s.covered.includes("(o > 0)"), s.covered.join(", "));
    assert.deepEqual(b.plan.operators[0]!.inputs.map(b.text).filter((t) => /^[A-Z]/.test(t)).sort(), ["Xd", "Y", "Z"]);
  });

  test("a value another operation also reads stays materialized beside the multi-aggregate", () => {
    const b = plan("o = 1 - Y * Xd\ns = (o > 0)\nq = o * s\nprint(sum(q * Y * Z) + sum(Z * s * Z))\nprint(as.scalar(o[1, 1]))");
    assert.ok(b.plan.operators.some((op) => op.template === "magg"));
    assert.ok(b.plan.operators.every((op) => !op.covered.map(b.text).includes("1 - Y * Xd") || op.roots.map(b.text).includes("1 - Y * Xd")));
  });

  test("an aggregation computed from another is not grouped with it", () => {
    const b = plan("a = sum(X^2)\nc = sum(X * a)\nprint(a + c)");
    assert.deepEqual(
      b.plan.operators.map((op) => op.template),
      ["cell", "cell"],
    );
  });

  test("aggregations without a common input are not grouped", () => {
    const b = plan("print(sum(X^2) + sum(Y^2))");
    assert.deepEqual(
      b.plan.operators.map((op) => op.template),
      ["cell", "cell"],
    );
  });
});
