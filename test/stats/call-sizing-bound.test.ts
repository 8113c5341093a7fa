import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeText, type ProgramAnalysis } from "../../engine/analysis/program-analysis";
import { formatStats } from "../../engine/stats/sizes/node-stats";
import { MAX_CALL_SIZING_NODES } from "../../engine/stats/sizes/program-sizes";
import { at } from "../checked-access";

/** `name: dims` of the variables the last basic block of the main program assigns. */
function lastSizes(analysis: ProgramAnalysis): Record<string, string> {
  const blocks = analysis.dags.blocks.filter((b) => !b.functionName);
  const block = blocks[blocks.length - 1]!;
  const sizes = analysis.sizes.blocks.get(block.block)!;
  return Object.fromEntries([...block.dag.outputs].map(([name, id]) => [name, formatStats(at(sizes.nodes, id))]));
}

function limitWarnings(analysis: ProgramAnalysis): string[] {
  return analysis.diagnostics.filter((d) => d.code === "call-sizing-limit").map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity}`);
}

/** f0 .. f{depth}: each level calls the next `width` times with different constants (x*width+1, x*width+2, ...). */
function constantTree(depth: number, width: number): string {
  const lines: string[] = [];
  for (let i = 0; i < depth; i++) {
    const calls = Array.from({ length: width }, (_, k) => `f${i + 1}(x * ${width} + ${k + 1})`).join(" + ");
    lines.push(`f${i} = function(double x) return (double y) {\n  y = ${calls}\n}`);
  }
  lines.push(`f${depth} = function(double x) return (double y) { y = x * 2 }`);
  lines.push("while (FALSE) {}", "y = f0(1)", "");
  return lines.join("\n");
}

/** f0 .. f{depth}: each level passes a matrix one column wider down the chain. */
function matrixChain(depth: number): string {
  const lines: string[] = [];
  for (let i = 0; i < depth; i++) lines.push(`f${i} = function(matrix[double] X) return (matrix[double] Y) { Y = f${i + 1}(cbind(X, X[, 1])) }`);
  lines.push(`f${depth} = function(matrix[double] X) return (matrix[double] Y) { Y = t(X) %*% X }`);
  lines.push("X = rand(rows=20, cols=1)", "while (FALSE) {}", "Y = f0(X)", "");
  return lines.join("\n");
}

describe("inter-procedural sizing is bounded", () => {
  it("a small call tree with different constants at every call is sized exactly, without a warning", () => {
    // 3 + 9 + 27 + 81 calls: y = sum over the leaves of 2 * x = 2 * (sum of the 81 leaf arguments).
    const a = analyzeText(constantTree(4, 3));
    let level = [1];
    for (let i = 0; i < 4; i++) level = level.flatMap((x) => [x * 3 + 1, x * 3 + 2, x * 3 + 3]);
    const expected = level.reduce((sum, x) => sum + 2 * x, 0);
    assert.deepEqual(lastSizes(a), { y: `scalar ${expected}` });
    assert.deepEqual(limitWarnings(a), []);
  });

  it("a call tree of 25 levels with 3 calls each stops at the work bound, with one located warning", () => {
    const started = process.hrtime.bigint();
    const a = analyzeText(constantTree(25, 3));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    assert.deepEqual(limitWarnings(a), [`${3 * 25 + 3}:5 warning`], "at the call `y = f0(1)` in the main program, which led into the tree");
    assert.deepEqual(lastSizes(a), { y: "scalar double" }, "its value is unknown, not wrong");
    assert.ok(seconds < 30, `took ${seconds} s (without the bound: 3^25 analyses)`);
  });

  it("the bound is a count: a lower limit stops earlier, at the same place", () => {
    const a = analyzeText(constantTree(8, 3), { callSizingNodes: 500 });
    assert.deepEqual(limitWarnings(a), [`${3 * 8 + 3}:5 warning`]);
    const warning = a.diagnostics.find((d) => d.code === "call-sizing-limit")!;
    assert.match(warning.message, /work limit \(500 DAG nodes sized in function bodies/);
    assert.ok(MAX_CALL_SIZING_NODES > 500);
  });

  it("a deep chain (15 levels, a different matrix at each) is sized exactly; past the call depth limit (100 levels) the result is unknown", () => {
    const a = analyzeText(matrixChain(15));
    assert.match(lastSizes(a).Y!, /^16 x 16/);
    assert.deepEqual(limitWarnings(a), []);
    const deep = analyzeText(matrixChain(100));
    assert.match(lastSizes(deep).Y!, /^\? x \?/);
    assert.deepEqual(deep.diagnostics.filter((d) => d.severity === "error"), []);
  });

  it("wide fan-out: one function calling 200 others, each once", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `g${i} = function(matrix[double] X) return (matrix[double] Y) { Y = X * ${i + 1} }`);
    lines.push(`f = function(matrix[double] X) return (matrix[double] Y) {\n  Y = ${Array.from({ length: 200 }, (_, i) => `g${i}(X)`).join(" + ")}\n}`);
    lines.push("X = rand(rows=7, cols=3)", "while (FALSE) {}", "Y = f(X)", "");
    const a = analyzeText(lines.join("\n"));
    assert.match(lastSizes(a).Y!, /^7 x 3/);
    assert.deepEqual(limitWarnings(a), []);
  });

  it("recursion and mutual recursion end, with unknown results where the recursion feeds them", () => {
    const recursive = analyzeText(
      "f = function(double n) return (double y) {\n  if (n <= 0) { y = 0 } else { y = f(n - 1) + 1 }\n}\nwhile (FALSE) {}\ny = f(1000)\n",
    );
    assert.deepEqual(limitWarnings(recursive), []);
    assert.equal(lastSizes(recursive).y!.startsWith("scalar"), true);
    const mutual = analyzeText(
      [
        "even = function(matrix[double] X, int n) return (matrix[double] Y) {",
        "  if (n == 0) { Y = X } else { Y = odd(cbind(X, X), n - 1) }",
        "}",
        "odd = function(matrix[double] X, int n) return (matrix[double] Y) {",
        "  if (n == 0) { Y = X } else { Y = even(rbind(X, X), n - 1) }",
        "}",
        "X = rand(rows=2, cols=2)",
        "while (FALSE) {}",
        "Y = even(X, 500)",
        "",
      ].join("\n"),
    );
    assert.match(lastSizes(mutual).Y!, /^\S+ x \S+/);
    assert.deepEqual(mutual.diagnostics.filter((d) => d.severity === "error"), []);
  });
});
