// Products with a transposed left operand in the DAG evaluator: when t(X)
// is no variable and only such products read it, `t(X) %*% X` is computed
// from X (tsmm) and `t(X) %*% y` in one pass over X's rows, so t(X) is never
// formed (or once, for the products that need it); the values equal the
// transpose-then-multiply plan (`t(X) %*% y` to the bit), and where tsmm
// computes it the result is exactly symmetric.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildProgramDags } from "../../engine/program";
import { parse } from "../../engine/syntax";
import { DagEvaluator, DEFAULT_MEMORY_BUDGET, MemoryMeter, type Value } from "../../engine/runtime/interpreter";
import { DenseMatrix } from "../../engine/runtime/matrix";
import { printed, runError } from "./run-script";

/** Prints sum, a few cells and the asymmetry of `t(X) %*% X` (the fast path) and of `T %*% X` with T = t(X) a variable (the general one). */
function bothPlans(makeX: string): { fast: number[]; general: number[] } {
  const out = printed(`${makeX}
A = t(X) %*% X
T = t(X)
B = T %*% X
print(sum(A) + " " + as.scalar(A[1, 2]) + " " + as.scalar(A[ncol(X), 1]) + " " + max(abs(A - t(A))) + " " + nrow(A) + " " + ncol(A))
print(sum(B) + " " + as.scalar(B[1, 2]) + " " + as.scalar(B[ncol(X), 1]) + " " + max(abs(B - t(B))) + " " + nrow(B) + " " + ncol(B))`);
  const [fast, general] = out.split("\n").map((line) => line.split(" ").map(Number));
  return { fast: fast!, general: general! };
}

function assertSameProduct(makeX: string, symmetricExactly: boolean): void {
  const { fast, general } = bothPlans(makeX);
  for (let i = 0; i < 3; i++) {
    const tolerance = 1e-12 * Math.max(1, Math.abs(general[i]!));
    assert.ok(Math.abs(fast[i]! - general[i]!) <= tolerance, `${makeX}: value ${i}: ${fast[i]} vs ${general[i]}`);
  }
  assert.deepEqual(fast.slice(4), general.slice(4), "shape");
  if (symmetricExactly) assert.equal(fast[3], 0, `${makeX}: tsmm mirrors its upper triangle`);
}

describe("t(X) %*% X without forming t(X)", () => {
  it("equals the transpose-then-multiply product for dense and sparse X of several shapes", () => {
    // Dense, skinny (tsmm); dense with every dimension >= 16 but little work (tsmm); CSR with few columns (tsmm).
    assertSameProduct("X = rand(rows=3000, cols=7, min=-1, max=1, seed=3)", true);
    assertSameProduct("X = rand(rows=300, cols=40, min=-1, max=1, seed=4)", true);
    assertSameProduct("X = rand(rows=3000, cols=50, min=-1, max=1, sparsity=0.05, seed=5)", true);
    // Dense with enough work for the GEMM, and CSR with many columns: the transpose and the product, the same values.
    assertSameProduct("X = rand(rows=1000, cols=40, min=-1, max=1, seed=6)", false);
    assertSameProduct("X = rand(rows=400, cols=300, min=-1, max=1, sparsity=0.02, seed=7)", false);
    // An empty X and a single row.
    assertSameProduct("X = matrix(0, rows=20, cols=5)", true);
    assertSameProduct("X = rand(rows=1, cols=6, min=1, max=2, seed=8)", true);
  });

  it("t(X) %*% y has the bits of the transpose-then-GEMV product, beside t(X) %*% X as in lmDS", () => {
    // Rows not a multiple of four (GEMV's four accumulators take the last rows in the first); dense and sparse.
    for (const makeX of ["X = rand(rows=5003, cols=12, min=-1, max=1, seed=9)", "X = rand(rows=2001, cols=30, min=-1, max=1, sparsity=0.1, seed=10)"]) {
      const out = printed(`${makeX}
y = rand(rows=nrow(X), cols=1, min=-1, max=1, seed=11)
A = t(X) %*% X
b = t(X) %*% y
T = t(X)
c = T %*% y
print(sum(b) + " " + as.scalar(b[1, 1]) + " " + as.scalar(b[ncol(X), 1]) + " " + nrow(b) + " " + ncol(b))
print(sum(c) + " " + as.scalar(c[1, 1]) + " " + as.scalar(c[ncol(X), 1]) + " " + nrow(c) + " " + ncol(c))
print(sum(A) + " " + sum(T %*% X))`);
      const lines = out.split("\n");
      assert.equal(lines[0], lines[1], makeX);
      const sums = lines[2]!.split(" ").map(Number);
      assert.ok(Math.abs(sums![0]! - sums![1]!) <= 1e-12 * Math.max(1, Math.abs(sums![1]!)));
    }
  });

  it("a product that forms t(X) leaves it to the later ones, which no longer read X", () => {
    // t(X) %*% M forms t(X) (a matrix operand), and X's last reader is then t(X): t(X) %*% y must read t(X), not X.
    // Likewise t(X) %*% X where the WebAssembly GEMM takes it (X 2,500 x 40), when the kernels load.
    const cases: [string, string][] = [
      ["A = t(X) %*% M", "X = rand(rows=500, cols=6, min=-1, max=1, seed=12)"],
      ["A = t(X) %*% X", "X = rand(rows=2500, cols=40, min=-1, max=1, seed=13)"],
    ];
    for (const [first, makeX] of cases) {
      // In a block of their own, X is the block's input: the evaluator drops its value after its last reader.
      const out = printed(`${makeX}
M = rand(rows=nrow(X), cols=3, min=-1, max=1, seed=14)
y = rand(rows=nrow(X), cols=1, min=-1, max=1, seed=15)
if (nrow(X) > 0) {
  ${first}
  b = t(X) %*% y
  print(sum(A) + " " + sum(b))
}
if (nrow(X) > 0) {
  T = t(X)
  ${first.replace("t(X)", "T")}
  b = T %*% y
  print(sum(A) + " " + sum(b))
}`);
      const [fast, general] = out.split("\n");
      assert.equal(fast, general, first);
    }
  });

  it("t(X) %*% y with mismatched rows fails with the product's message", () => {
    const message = runError("X = rand(rows=5, cols=3)\ny = rand(rows=4, cols=1)\nb = t(X) %*% y\nprint(sum(b))");
    assert.match(message, /3 x 5.*4 x 1/);
  });

  it("never computes the transpose on its own, and still does where the transpose is read elsewhere", () => {
    const computedKinds = (source: string): string[] => {
      const dag = buildProgramDags(parse(source).program).blocks[0]!.dag;
      const kinds: string[] = [];
      const x: Value = { kind: "matrix", matrix: new DenseMatrix(3, 4, Float64Array.from({ length: 12 }, (_, i) => i + 1)) };
      const evaluator = new DagEvaluator(dag, { env: new Map([["X", x]]), params: new Map(), sourceText: source, memoryBudget: DEFAULT_MEMORY_BUDGET, memory: new MemoryMeter(DEFAULT_MEMORY_BUDGET), print: () => {}, callUser: () => assert.fail("no calls") }, [], {
        computed: (what) => {
          if (typeof what === "number") kinds.push(dag.nodes[what]!.op.kind);
        },
      });
      evaluator.run();
      return kinds;
    };
    assert.deepEqual(computedKinds("A = t(X) %*% X").filter((k) => k === "transpose"), []);
    assert.equal(computedKinds("A = t(X) %*% X\nB = t(X) + 1").filter((k) => k === "transpose").length, 1, "t(X) read by + as well");
    assert.equal(computedKinds("T = t(X)\nA = T %*% X").filter((k) => k === "transpose").length, 1, "t(X) is a variable");
    assert.deepEqual(computedKinds("A = t(X) %*% X\nb = t(X) %*% rowSums(X)").filter((k) => k === "transpose"), [], "a product with X and one with a vector");
    assert.equal(computedKinds("A = t(X) %*% (X + 1)\nB = t(X) %*% X").filter((k) => k === "transpose").length, 1, "formed once for the product with a matrix, shared");
    assert.equal(computedKinds("A = (t(X) %*% X) %*% t(X)").filter((k) => k === "transpose").length, 1, "read as a right operand too");
  });
});
