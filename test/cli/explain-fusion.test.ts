// `dml explain` shows the fusion planner's plan of each block: the fused
// operators as written (template, variant, covered DAG nodes, inputs, cost
// fused and unfused), the block's cost with and without fusion, the
// selection's search counts, and with suggestions the plan of the block as
// rewritten (README: the explain --json shape).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { DEFAULT_MACHINE_CONSTANTS, formatSeconds, nodeCost } from "../../engine/cost";
import type { DagOp } from "../../engine/program/dag-types";
import type { NodeStats } from "../../engine/stats/sizes/node-stats";
import { repoRoot } from "../repo-root";

const bin = path.join(repoRoot, "bin", "dml.js");
const dir = mkdtempSync(path.join(tmpdir(), "dml-explain-fusion-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function dml(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface OperatorJson {
  template: string;
  variant: string;
  sparseSafe: boolean;
  text: string;
  range?: { start: { line: number; character: number } };
  roots: number[];
  covered: number[];
  inputs: string[];
  mainInput: string | null;
  seconds: number;
  unfusedSeconds: number;
}
interface PlanJson {
  operators: OperatorJson[];
  cost: { fused: number; unfused: number };
  search: { partitions: number; interestingPoints: number; plansEvaluated: number; plansWithoutPruning: number; cacheHits: number; approximated: number };
  nodes?: { id: number; label: string; inputs: number[]; rows: number | null; cols: number | null; nnz: number | null }[];
}
interface NodeJson {
  id: number;
  range: { start: { line: number } };
  op: DagOp;
  inputs: number[];
  type: string;
  rows: number | null;
  cols: number | null;
  nnz: number | null;
}
interface BlockJson {
  range: { start: { line: number } };
  suggestions: { target: string; costBefore: number; costAfter: number }[];
  fusion?: { asWritten: PlanJson; rewritten?: PlanJson };
  nodes: NodeJson[];
}

/** engine/cost's seconds of one node of explain's JSON, from the sizes it prints. */
function nodeSeconds(nodes: readonly NodeJson[], id: number): number {
  const stats = (n: NodeJson): NodeStats =>
    n.type.startsWith("matrix") ? { type: { dataType: "matrix", valueType: "double" }, rows: n.rows, cols: n.cols, nnz: n.nnz } : { type: { dataType: "scalar", valueType: "double" }, rows: null, cols: null, nnz: null };
  const node = nodes[id]!;
  const estimate = nodeCost(node.op, node.inputs.map((i) => stats(nodes[i]!)), stats(node));
  assert.ok(estimate.known, `node ${id} has no estimate`);
  return estimate.cost.seconds;
}

const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);

describe("dml explain: fusion", () => {
  const script = path.join(dir, "cell.dml");
  writeFileSync(script, "X = rand(rows=1000, cols=1000, seed=1)\nY = rand(rows=1000, cols=1000, seed=2)\nZ = rand(rows=1000, cols=1000, seed=3)\nwhile (FALSE) {}\ns = sum(X * Y * Z)\nprint(s)\n");

  test("--json: sum(X * Y * Z) is one Cell operator over X, Y, Z covering the two products and the sum", () => {
    const r = dml("explain", script, "--json");
    assert.equal(r.code, 0, r.stderr);
    const blocks = (JSON.parse(r.stdout) as { blocks: BlockJson[] }).blocks;
    assert.equal(blocks.length, 2);
    // The first block only creates the inputs: nothing to fuse.
    assert.deepEqual(blocks[0]!.fusion!.asWritten.operators, []);
    const block = blocks[1]!;
    const plan = block.fusion!.asWritten;
    assert.equal(block.fusion!.rewritten, undefined, "no suggestion, no rewritten plan");
    assert.equal(plan.operators.length, 1);
    const op = plan.operators[0]!;
    const sum = block.nodes.find((n) => n.op.kind === "aggregate")!;
    const products = block.nodes.filter((n) => n.op.kind === "binary" && n.op.op === "*").map((n) => n.id);
    assert.equal(products.length, 2);
    assert.deepEqual(
      { template: op.template, variant: op.variant, sparseSafe: op.sparseSafe, text: op.text, line: op.range!.start.line, roots: op.roots, covered: op.covered, inputs: op.inputs, mainInput: op.mainInput },
      { template: "cell", variant: "full-agg", sparseSafe: true, text: "sum(X * Y * Z)", line: 4, roots: [sum.id], covered: [...products, sum.id].sort((a, b) => a - b), inputs: ["X", "Y", "Z"], mainInput: "X" },
    );
    // Unfused: the three operations on their own (engine/cost on the sizes explain prints), each product writing a 1000 x 1000 intermediate.
    near(op.unfusedSeconds, op.covered.reduce((sum, id) => sum + nodeSeconds(block.nodes, id), 0), "unfused seconds");
    // Fused: one pass reading X, Y and Z (8 MB each) and writing one scalar, no intermediates: at least
    // the time to read the three inputs once, and well under the three operations on their own.
    assert.ok(op.seconds >= (3 * 8e6) / DEFAULT_MACHINE_CONSTANTS.memoryBandwidthBytesPerSecond, `${op.seconds}`);
    assert.ok(op.seconds < op.unfusedSeconds * 0.75, `${op.seconds} vs ${op.unfusedSeconds}`);
    // The block is this operator and the inputs (reads cost nothing): fused and unfused costs differ by exactly its saving.
    near(plan.cost.unfused - plan.cost.fused, op.unfusedSeconds - op.seconds, "block saving");
    near(plan.cost.unfused, op.unfusedSeconds, "the block's unfused cost is its three operations");
    // One partition whose selection looked at fewer plans than exhaustive enumeration would.
    assert.equal(plan.search.partitions, 1);
    assert.equal(plan.search.approximated, 0);
    assert.ok(plan.search.plansEvaluated >= 1 && plan.search.plansEvaluated <= plan.search.plansWithoutPruning, JSON.stringify(plan.search));
    assert.equal(plan.search.plansWithoutPruning, 2 ** plan.search.interestingPoints);
  });

  test("text: the block's fused operator on one line with its template, variant, inputs and both times", () => {
    const r = dml("explain", script);
    assert.equal(r.code, 0, r.stderr);
    const json = (JSON.parse(dml("explain", script, "--json").stdout) as { blocks: BlockJson[] }).blocks[1]!.fusion!.asWritten;
    const t = (s: number) => formatSeconds(s).replace(".", "\\.");
    assert.match(r.stdout, new RegExp(`\\nfusion, as written: the block ${t(json.cost.fused)} with 1 fused operator, ${t(json.cost.unfused)} without\\n  line 5: sum\\(X \\* Y \\* Z\\) runs as one Cell operator \\(full-agg\\) over X, Y, Z: ${t(json.operators[0]!.seconds)} instead of ${t(json.operators[0]!.unfusedSeconds)}\\n`));
    assert.match(r.stdout, /: 6\.00 ms instead of 10\.4 ms\n/);
    assert.doesNotMatch(r.stdout, /with the rewrites/);
  });

  test("sum_product.dml: the block as rewritten is planned too, each suggestion costed with fusion on both sides", () => {
    const r = dml("explain", path.join("examples", "sum_product.dml"), "--json");
    assert.equal(r.code, 0, r.stderr);
    const block = (JSON.parse(r.stdout) as { blocks: BlockJson[] }).blocks[0]!;
    const { asWritten, rewritten } = block.fusion!;
    assert.ok(rewritten, "five suggestions: a rewritten plan");
    assert.equal(block.suggestions.length, 5);
    // As written, the two squared losses share one pass over X: one multi-aggregate reading X and the
    // materialized U %*% t(V) (each is not sparse-safe: X - U %*% t(V) is not zero where X is).
    const losses = asWritten.operators.filter((op) => /sum\(\(X [-+] U %\*% t\(V\)\)\^2\)/.test(op.text));
    assert.deepEqual(
      losses.map((op) => [op.template, op.variant, op.text, op.mainInput, op.inputs.slice(0, 2), op.roots.length, op.sparseSafe]),
      [["magg", "full-agg", "sum((X - U %*% t(V))^2); sum((X + U %*% t(V))^2)", "X", ["X", "U %*% t(V)"], 2, false]],
    );
    // The rewritten block never forms a 10,000 x 5,000 dense intermediate; its nodes are listed, inputs before consumers.
    assert.ok(rewritten.nodes!.every((n) => n.inputs.every((i) => i < n.id)));
    for (const op of rewritten.operators) for (const id of op.covered) assert.ok(id < rewritten.nodes!.length);
    // The only 10,000 x 5,000 values are X and X^2, both sparse (50,000 non-zeros).
    const large = rewritten.nodes!.filter((n) => n.rows === 10000 && n.cols === 5000);
    assert.deepEqual(large.map((n) => [n.label, n.nnz]), [["rand", 50000], ["^", 50000]]);
    assert.ok(asWritten.operators.length > 0 && block.nodes.some((n) => n.rows === 10000 && n.cols === 5000 && n.nnz === 50000000), "as written it has dense ones");
    assert.ok(rewritten.cost.fused < asWritten.cost.fused / 100, `${rewritten.cost.fused} vs ${asWritten.cost.fused}`);
    assert.ok(rewritten.cost.fused <= rewritten.cost.unfused);
    // Each suggestion's before is its original costed with fusion (on its own: one Cell operator over X and
    // the product, which is materialized): above t(V) and U %*% t(V) alone, below all of l1's operations unfused.
    const l1 = block.suggestions.find((s) => s.target === "l1")!;
    const product = block.nodes.find((n) => n.op.kind === "matmul" && n.rows === 10000 && n.cols === 5000)!;
    const transpose = block.nodes[product.inputs[1]!]!;
    const materialized = nodeSeconds(block.nodes, product.id) + nodeSeconds(block.nodes, transpose.id);
    const loss = losses[0]!.covered.filter((id) => block.nodes[id]!.range.start.line === 17);
    const unfused = materialized + loss.reduce((sum, id) => sum + nodeSeconds(block.nodes, id), 0);
    assert.equal(loss.length, 3, "X - ..., ^2, sum");
    assert.ok(l1.costBefore > materialized && l1.costBefore < unfused * 0.9, `${materialized} < ${l1.costBefore} < ${unfused}`);
    assert.equal(block.suggestions.find((s) => s.target === "l2")!.costBefore, l1.costBefore);
  });

  test("a script with errors is not optimized: no fusion field", () => {
    const file = path.join(dir, "bad.dml");
    writeFileSync(file, "X = rand(rows=3, cols=3)\nY = X %*% rand(rows=4, cols=4)\nprint(sum(Y))\n");
    const r = dml("explain", file, "--json");
    assert.equal(r.code, 1);
    const blocks = (JSON.parse(r.stdout) as { blocks: BlockJson[] }).blocks;
    assert.ok(blocks.length > 0);
    for (const block of blocks) assert.equal(block.fusion, undefined);
  });
});
