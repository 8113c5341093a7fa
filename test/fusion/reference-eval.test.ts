// The reference evaluation of fused operators on hand-built operators of
// each template: each equals the unfused values of its roots, a wrong
// sparse-safety claim is caught as a difference, and covered nodes a
// skeleton cannot compute are errors naming the operator and the node.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FusedOperatorError, UnfusedEvaluator, valueDifference } from "../../engine/runtime/fused";
import { createSession } from "../../engine/runtime/interpreter";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { handOperator, nodeOf, operatorDifference, prepareBlock, type HandOperator } from "./fused-check";

const DATA = `
X = rand(rows=23, cols=11, min=-1, max=1, sparsity=0.15, seed=11)
D = rand(rows=23, cols=11, min=-1, max=1, seed=12)
Y = rand(rows=23, cols=11, min=0, max=2, seed=13)
Z = rand(rows=23, cols=11, min=-2, max=2, sparsity=0.5, seed=14)
E = rand(rows=23, cols=11, min=-1, max=1, seed=15) * (rand(rows=23, cols=1, min=0, max=1, seed=16) > 0.5)
v = rand(rows=11, cols=1, min=-1, max=1, seed=17)
w = rand(rows=23, cols=1, min=0, max=1, seed=18)
y = rand(rows=23, cols=1, min=-1, max=1, seed=19)
r = rand(rows=1, cols=11, min=-1, max=1, seed=20)
U = rand(rows=23, cols=3, min=-1, max=1, seed=21)
V = rand(rows=11, cols=3, min=-1, max=1, seed=22)
o = rand(rows=1, cols=1, min=1, max=2, seed=23)
lambda = 0.25
`;

/** Plans nothing: builds the operator by hand over the computation's DAG and compares. */
function check(computation: string, spec: HandOperator): string | undefined {
  const checked = prepareBlock(DATA, computation);
  return operatorDifference(checked, handOperator(checked.block, spec));
}

function assertAgrees(computation: string, spec: HandOperator): void {
  assert.equal(check(computation, spec), undefined, computation);
}

function assertFails(computation: string, spec: HandOperator, pattern: RegExp): void {
  assert.throws(() => check(computation, spec), (e: unknown) => e instanceof FusedOperatorError && pattern.test(e.message));
}

describe("reference evaluation: Cell", () => {
  it("sum(X * Y * Z) over the non-zeros of a sparse X equals the unfused sum", () => {
    assertAgrees("s = sum(X * Y * Z)\nprint(s)", { template: "cell", roots: ["sum(X * Y * Z)"], main: "X", sparseSafe: true });
  });
  it("a cell-wise expression with a row vector, a column vector, a 1 x 1 and scalars broadcast", () => {
    assertAgrees("R = abs(D - r) * 2 + w / (o + lambda)\nprint(toString(R))", { template: "cell", roots: ["abs(D - r) * 2 + w / (o + lambda)"], main: "D" });
  });
  it("row, column and full aggregates, min and max, over dense and sparse mains", () => {
    assertAgrees("R = rowSums(X^2)\nprint(toString(R))", { template: "cell", roots: ["rowSums(X^2)"], main: "X", sparseSafe: true });
    assertAgrees("R = colMaxs(X * 2)\nprint(toString(R))", { template: "cell", roots: ["colMaxs(X * 2)"], main: "X", sparseSafe: true });
    assertAgrees("s = min(E - 1)\nprint(s)", { template: "cell", roots: ["min(E - 1)"], main: "E" });
    assertAgrees("s = sum((D - 2 * Y)^2)\nprint(s)", { template: "cell", roots: ["sum((D - 2 * Y)^2)"], main: "D" });
    assertAgrees("R = rowMeans(exp(E) + sqrt(Y))\nprint(toString(R))", { template: "cell", roots: ["rowMeans(exp(E) + sqrt(Y))"], main: "E" });
  });
  it("comparisons, min/max, %%, %/%, ifelse and replace per cell", () => {
    const expr = "ifelse(D > 0, min(D, Y) %% 0.3, max(Y, 1) %/% 0.7) + replace(target=(Z != 0), pattern=0, replacement=5)";
    assertAgrees(`R = ${expr}\nprint(toString(R))`, { template: "cell", roots: [expr], main: "D" });
  });
  it("cells of a transposed column vector, read through the transpose", () => {
    assertAgrees("R = t(v) * 2 + r\nprint(toString(R))", { template: "cell", roots: ["t(v) * 2 + r"], main: "v" });
  });
  it("a dot product t(w) %*% y closes a Cell operator as sum(w * y)", () => {
    assertAgrees("R = t(w * 2) %*% (y + 1)\nprint(toString(R))", { template: "cell", roots: ["t(w * 2) %*% (y + 1)"], main: "w" });
  });
  it("a wrong sparse-safety claim gives a different result: sum(X + 1) over X's non-zeros only", () => {
    const diff = check("s = sum(X + 1)\nprint(s)", { template: "cell", roots: ["sum(X + 1)"], main: "X", sparseSafe: true });
    assert.match(diff ?? "", /scalar .* vs /);
    assertAgrees("s = sum(X + 1)\nprint(s)", { template: "cell", roots: ["sum(X + 1)"], main: "X", sparseSafe: false });
  });
  it("a cell-wise result with a sparse-safe claim keeps X's pattern: wrong for exp(X)", () => {
    const diff = check("R = exp(X)\nprint(toString(R))", { template: "cell", roots: ["exp(X)"], main: "X", sparseSafe: true });
    assert.match(diff ?? "", /cell \(\d+, \d+\) differs/);
  });
  it("a matrix product inside a Cell operator is an error naming the operator and node", () => {
    assertFails("R = (X %*% v) * 2\nprint(toString(R))", { template: "cell", roots: ["(X %*% v) * 2"], main: "X" }, /fused operator #0 \(cell\) at node \d+ \(matmul\)/);
  });
  it("a main input of another shape than the cells is an error", () => {
    assertFails("R = D + w\nprint(toString(R))", { template: "cell", roots: ["D + w"], main: "w" }, /main input is 23 x 1 but the cells computed are 23 x 11/);
  });
});

describe("reference evaluation: Row", () => {
  it("t(X) %*% (w * (X %*% v)) accumulates X_i^T (w_i * X_i v) over the rows", () => {
    assertAgrees("R = t(X) %*% (w * (X %*% v))\nprint(toString(R))", { template: "row", roots: ["t(X) %*% (w * (X %*% v))"], main: "X" });
  });
  it("t(X) %*% (X %*% v - y) and t(X) %*% (X %*% (lambda * v))", () => {
    assertAgrees("R = t(D) %*% (D %*% v - y)\nprint(toString(R))", { template: "row", roots: ["t(D) %*% (D %*% v - y)"], main: "D" });
    assertAgrees("R = t(E) %*% (E %*% (lambda * v))\nprint(toString(R))", { template: "row", roots: ["t(E) %*% (E %*% (lambda * v))"], main: "E" });
  });
  it("softmax rows: exp(X - rowMaxs(X)) / rowSums(exp(X - rowMaxs(X)))", () => {
    const expr = "exp(D - rowMaxs(D)) / rowSums(exp(D - rowMaxs(D)))";
    assertAgrees(`R = ${expr}\nprint(toString(R))`, { template: "row", roots: [expr], main: "D" });
  });
  it("column and full aggregation of row results, rowIndexMax, t(y) %*% X", () => {
    assertAgrees("R = colSums(X * Y + w)\nprint(toString(R))", { template: "row", roots: ["colSums(X * Y + w)"], main: "X" });
    assertAgrees("s = sum(rowMaxs(E) * y)\nprint(s)", { template: "row", roots: ["sum(rowMaxs(E) * y)"], main: "E" });
    assertAgrees("R = rowIndexMax(D + r)\nprint(toString(R))", { template: "row", roots: ["rowIndexMax(D + r)"], main: "D" });
    assertAgrees("R = t(y) %*% (Z * 3)\nprint(toString(R))", { template: "row", roots: ["t(y) %*% (Z * 3)"], main: "Z" });
    assertAgrees("R = (D %*% V) * U\nprint(toString(R))", { template: "row", roots: ["(D %*% V) * U"], main: "D" });
  });
  it("a sparse-safe Row operator skips the empty rows of its main input: right for t(E) %*% (E %*% v), wrong for rowSums(E + 1)", () => {
    assertAgrees("R = t(E) %*% (E %*% v)\nprint(toString(R))", { template: "row", roots: ["t(E) %*% (E %*% v)"], main: "E", sparseSafe: true });
    assertAgrees("R = colSums(E * 2)\nprint(toString(R))", { template: "row", roots: ["colSums(E * 2)"], main: "E", sparseSafe: true });
    const diff = check("R = rowSums(E + 1)\nprint(toString(R))", { template: "row", roots: ["rowSums(E + 1)"], main: "E", sparseSafe: true });
    assert.match(diff ?? "", /cell \(\d+, 1\) differs: 0 vs 11/);
  });
  it("cbind of row-wise operands, appended per row", () => {
    assertAgrees("R = rowSums(cbind(D * 2, w) + 1)\nprint(toString(R))", { template: "row", roots: ["rowSums(cbind(D * 2, w) + 1)"], main: "D" });
    assertAgrees("R = colSums(cbind(X, y) * cbind(Y, w))\nprint(toString(R))", { template: "row", roots: ["colSums(cbind(X, y) * cbind(Y, w))"], main: "X" });
  });
  it("a column aggregate read inside the operator is an error", () => {
    assertFails("R = D / colSums(D)\nprint(toString(R))", { template: "row", roots: ["D / colSums(D)"], main: "D" }, /fused operator #0 \(row\) at node \d+ \(sum:col\): .*before all rows are seen/);
  });
});

describe("reference evaluation: MAgg", () => {
  it("sum(X * Y), sum(X^2) and sum(Y^2) in one pass", () => {
    assertAgrees("a = sum(D * Y)\nb = sum(D^2)\nc = sum(Y^2)\nprint(a + b + c)", { template: "magg", roots: ["sum(D * Y)", "sum(D^2)", "sum(Y^2)"], main: "D" });
  });
  it("min and max of the same expression over a sparse main, sparse-safe", () => {
    assertAgrees("a = min(X * Y)\nb = max(X * Y)\nprint(a + b)", { template: "magg", roots: ["min(X * Y)", "max(X * Y)"], main: "X", sparseSafe: true });
  });
  it("a dot product t(w) %*% y beside a full aggregate over the same column", () => {
    assertAgrees("a = t(w) %*% y\nb = sum(w^2)\nprint(toString(a))\nprint(b)", { template: "magg", roots: ["t(w) %*% y", "sum(w^2)"], main: "w", sparseSafe: true });
  });
  it("a row aggregate as a MAgg root is an error", () => {
    assertFails("a = sum(D)\nb = rowSums(D)\nprint(a)\nprint(toString(b))", { template: "magg", roots: ["sum(D)", "rowSums(D)"], main: "D" }, /MAgg root must be a full aggregate/);
  });
});

describe("reference evaluation: Outer", () => {
  it("weighted squared loss sum(Z * (D - U %*% t(V))^2) over the non-zeros of Z", () => {
    assertAgrees("s = sum(Z * (D - U %*% t(V))^2)\nprint(s)", { template: "outer", roots: ["sum(Z * (D - U %*% t(V))^2)"], main: "Z", sparseSafe: true });
  });
  it("cell-wise (X != 0) * (U %*% t(V)) with X's pattern", () => {
    assertAgrees("R = (X != 0) * (U %*% t(V))\nprint(toString(R))", { template: "outer", roots: ["(X != 0) * (U %*% t(V))"], main: "X", sparseSafe: true });
  });
  it("right: ((X != 0) * (U %*% t(V))) %*% V, left: t((X != 0) * (U %*% t(V))) %*% U", () => {
    assertAgrees("R = ((X != 0) * (U %*% t(V))) %*% V\nprint(toString(R))", { template: "outer", roots: ["((X != 0) * (U %*% t(V))) %*% V"], main: "X", sparseSafe: true });
    assertAgrees("R = t((X != 0) * (U %*% t(V))) %*% U\nprint(toString(R))", { template: "outer", roots: ["t((X != 0) * (U %*% t(V))) %*% U"], main: "X", sparseSafe: true });
  });
  it("left and right products over a square driver (the transpose is not mistaken for the cell expression)", () => {
    const data = `${DATA}\nS = rand(rows=9, cols=9, min=0, max=1, sparsity=0.3, seed=24)\nP = rand(rows=9, cols=2, seed=25)\nQ = rand(rows=9, cols=2, seed=26)`;
    for (const root of ["t((S != 0) * (P %*% t(Q))) %*% P", "((S != 0) * (P %*% t(Q))) %*% Q", "t(t(P) %*% ((S != 0) * (P %*% t(Q))))"]) {
      const checked = prepareBlock(data, `R = ${root}\nprint(toString(R))`);
      assert.equal(operatorDifference(checked, handOperator(checked.block, { template: "outer", roots: [root], main: "S", sparseSafe: true })), undefined, root);
    }
  });
  it("wcemm sum(X * log(U %*% t(V) + 4)) and wsigmoid X * sigmoid(U %*% t(V))", () => {
    assertAgrees("s = sum(X * log(U %*% t(V) + 4))\nprint(s)", { template: "outer", roots: ["sum(X * log(U %*% t(V) + 4))"], main: "X", sparseSafe: true });
    assertAgrees("R = X * sigmoid(U %*% t(V))\nprint(toString(R))", { template: "outer", roots: ["X * sigmoid(U %*% t(V))"], main: "X", sparseSafe: true });
  });
  it("an expression that is not sparse-safe in the driver differs: sum((X - U %*% t(V))^2)", () => {
    const diff = check("s = sum((X - U %*% t(V))^2)\nprint(s)", { template: "outer", roots: ["sum((X - U %*% t(V))^2)"], main: "X", sparseSafe: true });
    assert.match(diff ?? "", /scalar .* vs /);
  });
  it("a root that is not the cell expression, an aggregate or a product with it is an error", () => {
    assertFails("R = t(X * (U %*% t(V)))\nprint(toString(R))", { template: "outer", roots: ["t(X * (U %*% t(V)))"], main: "X", sparseSafe: true }, /fused operator #0 \(outer\) at node \d+ \(transpose\): the root is neither/);
    assertFails("R = rowSums(X * (U %*% t(V))) + 1\nprint(toString(R))", { template: "outer", roots: ["rowSums(X * (U %*% t(V))) + 1"], main: "X", sparseSafe: true }, /at node \d+ \(sum:row\): an aggregate below the root/);
  });
});

describe("reference evaluation: operator contract", () => {
  it("an operator whose covered node reads a node neither covered nor an input is an error", () => {
    const checked = prepareBlock(DATA, "s = sum(D * Y)\nprint(s)");
    const op = handOperator(checked.block, { template: "cell", roots: ["sum(D * Y)"], main: "D" });
    const broken = { ...op, inputs: op.inputs.filter((i) => i !== nodeOf(checked.block, "Y")), binding: { ...op.binding, sideInputs: [] } };
    assert.throws(() => operatorDifference(checked, broken), /its input \d+ is neither covered nor an input/);
  });
  it("a binding that is not a partition of the inputs is an error", () => {
    const checked = prepareBlock(DATA, "s = sum(D * Y)\nprint(s)");
    const op = handOperator(checked.block, { template: "cell", roots: ["sum(D * Y)"], main: "D" });
    assert.throws(() => operatorDifference(checked, { ...op, binding: { ...op.binding, sideInputs: [] } }), /is not a partition of the inputs/);
  });
});

describe("unfused evaluator", () => {
  it("gives every node the value the interpreter gives the script's variables", () => {
    const checked = prepareBlock(DATA, "R = t(X) %*% (w * (X %*% v))\ns = sum(D * Y) + lambda\nprint(toString(R))\nprint(s)");
    const session = createSession({ print: () => {} });
    assert.ok(session.runCell(checked.source).ok);
    const r = checked.unfused.value(nodeOf(checked.block, "t(X) %*% (w * (X %*% v))"));
    const s = checked.unfused.value(nodeOf(checked.block, "sum(D * Y) + lambda"));
    assert.equal(valueDifference(r, session.env.get("R")!, { relative: 0, absolute: 0 }), undefined);
    assert.equal(valueDifference(s, session.env.get("s")!, { relative: 0, absolute: 0 }), undefined);
  });
  it("takes given leaf values in place of the leaves' own computation", () => {
    const checked = prepareBlock(DATA, "s = sum(rand(rows=3, cols=2, seed=7) * 2)\nprint(s)");
    const leaf = nodeOf(checked.block, "rand(rows=3, cols=2, seed=7)");
    const evaluator = new UnfusedEvaluator(checked.block.dag, { leaves: new Map([[leaf, { kind: "matrix", matrix: DenseMatrix.fromRows([[1, 2], [3, 4], [5, 6]]) }]]) });
    assert.deepEqual(evaluator.value(nodeOf(checked.block, "sum(rand(rows=3, cols=2, seed=7) * 2)")), { kind: "scalar", type: "double", value: 42 });
  });
});
