// Sizes of the deep-learning builtins from their shape arguments (list literals of
// constants), and no false errors on a script that uses them with lists.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { at } from "../checked-access";

/** `name: dims` of every variable the last basic block of the main program assigns. */
function sizes(analysis: ProgramAnalysis): Record<string, string> {
  const blocks = analysis.dags.blocks.filter((b) => !b.functionName);
  const block = blocks[blocks.length - 1]!;
  const stats = analysis.sizes.blocks.get(block.block)!;
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => [name, formatStats(at(stats.nodes, id))]));
}

const errors = (a: ProgramAnalysis) => a.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.range.start.line + 1}: ${d.message}`);

describe("sizes of the deep-learning builtins", () => {
  const text = [
    "X = rand(rows=64, cols=784)",
    "W = rand(rows=32, cols=25)",
    "b = rand(rows=32, cols=1)",
    "N = nrow(X)",
    "out = conv2d(X, W, input_shape=[N, 1, 28, 28], filter_shape=[32, 1, 5, 5], stride=[1, 1], padding=[2, 2])",
    "biased = bias_add(out, b)",
    "scaled = bias_multiply(out, b)",
    "pooled = max_pool(biased, input_shape=[N, 32, 28, 28], pool_size=[2, 2], stride=[2, 2], padding=[0, 0])",
    "averaged = avg_pool(biased, input_shape=[N, 32, 28, 28], pool_size=[3, 3], stride=[2, 2], padding=[1, 1])",
    "dpool = max_pool_backward(biased, pooled, input_shape=[N, 32, 28, 28], pool_size=[2, 2], stride=[2, 2], padding=[0, 0])",
    "dW = conv2d_backward_filter(X, out, input_shape=[N, 1, 28, 28], filter_shape=[32, 1, 5, 5], stride=[1, 1], padding=[2, 2])",
    "dX = conv2d_backward_data(W, out, input_shape=[N, 1, 28, 28], filter_shape=[32, 1, 5, 5], stride=[1, 1], padding=[2, 2])",
    "strided = conv2d(X, W, input_shape=[N, 1, 28, 28], filter_shape=[32, 1, 5, 5], stride=[3, 2], padding=[0, 1])",
    "",
  ].join("\n");

  it("follow Hout = floor((H + 2*pad - Hf)/stride) + 1 from constant shapes", () => {
    const a = analyzeText(text);
    assert.deepEqual(sizes(a), {
      X: "64 x 784, nnz ~50176",
      W: "32 x 25, nnz ~800",
      b: "32 x 1, nnz ~32",
      N: "scalar 64",
      out: "64 x 25088, nnz ?",
      biased: "64 x 25088, nnz ?",
      scaled: "64 x 25088, nnz ?",
      pooled: "64 x 6272, nnz ?",
      averaged: "64 x 6272, nnz ?",
      dpool: "64 x 25088, nnz ?",
      dW: "32 x 25, nnz ?",
      dX: "64 x 784, nnz ?",
      strided: "64 x 3328, nnz ?",
    });
    assert.deepEqual(errors(a), []);
  });

  it("leave a dimension unknown when a shape value is not a constant", () => {
    const a = analyzeText("X = read($X)\nW = rand(rows=4, cols=9)\nH = as.integer($H)\nout = conv2d(X, W, input_shape=[nrow(X), 1, H, H], filter_shape=[4, 1, 3, 3], stride=[1, 1], padding=[1, 1])\n");
    assert.deepEqual(sizes(a), { X: "? x ?, nnz ?", W: "4 x 9, nnz ~36", H: "scalar int", out: "? x ?, nnz ?" });
  });

  it("a list literal is a list of its items", () => {
    const a = analyzeText("s = [1, 2, 3]\nn = length(s)\nM = as.matrix(s)\n");
    assert.deepEqual(sizes(a), { s: "list", n: "scalar 3", M: "3 x 1, nnz ?" });
  });

  it("Rand is sized as rand, contains() is a boolean", () => {
    const a = analyzeText("A = Rand(rows=3, cols=4, min=1, max=1)\nc = contains(target=A, pattern=1)\n");
    assert.deepEqual(sizes(a), { A: "3 x 4, nnz ~12", c: "scalar boolean" });
  });
});
